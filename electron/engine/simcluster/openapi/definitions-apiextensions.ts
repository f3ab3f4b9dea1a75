/** apiextensions.k8s.io/v1: CustomResourceDefinition and the types of its spec and status. */
import { ATOMIC, TIME, arr, bool, int, int64, kind, map, obj, ref, str, strs, type Schema } from './schema.ts';

const V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';
const PROPS = `${V1}JSONSchemaProps`;
const JSON_VALUE = `${V1}JSON`;

function names(): Schema {
  return obj(
    'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition',
    {
      categories: strs('categories is a list of grouped resources this custom resource belongs to (e.g. \'all\'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.', ATOMIC),
      kind: str('kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.'),
      listKind: str('listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".'),
      plural: str('plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.'),
      shortNames: strs('shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.', ATOMIC),
      singular: str('singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.'),
    },
    { required: ['plural', 'kind'] },
  );
}

function schemaProps(): Schema {
  const self = ref(PROPS);
  return obj('JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).', {
    additionalItems: ref(`${V1}JSONSchemaPropsOrBool`),
    additionalProperties: ref(`${V1}JSONSchemaPropsOrBool`),
    allOf: arr(self, '', ATOMIC),
    anyOf: arr(self, '', ATOMIC),
    default: ref(JSON_VALUE, 'default is a default value for undefined object fields. Defaulting is a beta feature under the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.'),
    description: str(''),
    enum: arr(ref(JSON_VALUE), '', ATOMIC),
    exclusiveMaximum: bool(''),
    exclusiveMinimum: bool(''),
    format: str('format is an OpenAPI v3 format string. Unknown formats are ignored.'),
    items: ref(`${V1}JSONSchemaPropsOrArray`),
    maxItems: int64(''),
    maxLength: int64(''),
    maxProperties: int64(''),
    maximum: { type: 'number', format: 'double' },
    minItems: int64(''),
    minLength: int64(''),
    minProperties: int64(''),
    minimum: { type: 'number', format: 'double' },
    multipleOf: { type: 'number', format: 'double' },
    not: self,
    nullable: bool(''),
    oneOf: arr(self, '', ATOMIC),
    pattern: str(''),
    properties: map('', self),
    required: strs('', ATOMIC),
    title: str(''),
    type: str(''),
    uniqueItems: bool(''),
    'x-kubernetes-embedded-resource': bool('x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to further restrict the embedded object. kind, apiVersion and metadata are validated automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have to be if the object is fully specified (up to kind, apiVersion, metadata).'),
    'x-kubernetes-int-or-string': bool('x-kubernetes-int-or-string specifies that this value is either an integer or a string. If this is true, an empty type is allowed and type as child of anyOf is permitted if following one of the following patterns:\n\n1) anyOf:\n   - type: integer\n   - type: string\n2) allOf:\n   - anyOf:\n     - type: integer\n     - type: string\n   - ... zero or more'),
    'x-kubernetes-list-map-keys': strs('x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.', ATOMIC),
    'x-kubernetes-list-type': str('x-kubernetes-list-type annotates an array to further describe its topology. This extension must only be used on lists and may have 3 possible values: atomic, set, map.'),
    'x-kubernetes-map-type': str('x-kubernetes-map-type annotates an object to further describe its topology. This extension must only be used when type is object and may have 2 possible values: granular, atomic.'),
    'x-kubernetes-preserve-unknown-fields': bool('x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema. This affects fields recursively, but switches back to normal pruning behaviour if nested properties or additionalProperties are specified in the schema. This can either be true or undefined. False is forbidden.'),
  });
}

function version(): Schema {
  return obj(
    'CustomResourceDefinitionVersion describes a version for CRD.',
    {
      additionalPrinterColumns: arr(ref(`${V1}CustomResourceColumnDefinition`), 'additionalPrinterColumns specifies additional columns returned in Table output. See https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables for details. If no columns are specified, a single column displaying the age of the custom resource is used.', ATOMIC),
      deprecated: bool('deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.'),
      deprecationWarning: str('deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true. The default warning indicates this version is deprecated and recommends use of the newest served version of equal or greater stability, if one exists.'),
      name: str('name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.'),
      schema: obj('CustomResourceValidation is a list of validation methods for CustomResources.', { openAPIV3Schema: ref(PROPS, 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.') }),
      served: bool('served is a flag enabling/disabling this version from being served via REST APIs'),
      storage: bool('storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.'),
      subresources: obj('CustomResourceSubresources defines the status and scale subresources for CustomResources.', {
        scale: obj('CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.', {
          labelSelectorPath: str('labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`.'),
          specReplicasPath: str('specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`.'),
          statusReplicasPath: str('statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`.'),
        }, { required: ['specReplicasPath', 'statusReplicasPath'] }),
        status: obj('CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources.', {}),
      }),
    },
    { required: ['name', 'served', 'storage'] },
  );
}

function condition(): Schema {
  return obj(
    'CustomResourceDefinitionCondition contains details for the current condition of this pod.',
    {
      lastTransitionTime: ref(TIME, 'lastTransitionTime last time the condition transitioned from one status to another.'),
      message: str('message is a human-readable message indicating details about last transition.'),
      observedGeneration: int64('observedGeneration represents the .metadata.generation that the condition was set based upon.'),
      reason: str("reason is a unique, one-word, CamelCase reason for the condition's last transition."),
      status: str('status is the status of the condition. Can be True, False, Unknown.'),
      type: str('type is the type of the condition. Types include Established, NamesAccepted and Terminating.'),
    },
    { required: ['type', 'status'] },
  );
}

/** Upstream leaves out the description of fields that have none. */
function withoutEmptyDescriptions(schema: Schema): Schema {
  const { description, properties, items, ...rest } = schema;
  return {
    ...(description ? { description } : {}),
    ...rest,
    ...(properties ? { properties: Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, withoutEmptyDescriptions(inner)])) } : {}),
    ...(items ? { items: withoutEmptyDescriptions(items) } : {}),
  };
}

/** Every apiextensions.k8s.io/v1 definition the CRD kind reaches. */
export function apiextensionsDefinitions(): Record<string, Schema> {
  return Object.fromEntries(Object.entries(definitionsWithEmpty()).map(([name, schema]) => [name, withoutEmptyDescriptions(schema)]));
}

function definitionsWithEmpty(): Record<string, Schema> {
  return {
    [`${V1}CustomResourceDefinition`]: kind(
      { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1' },
      'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.',
      {
        spec: ref(`${V1}CustomResourceDefinitionSpec`, 'spec describes how the user wants the resources to appear'),
        status: ref(`${V1}CustomResourceDefinitionStatus`, 'status indicates the actual state of the CustomResourceDefinition'),
      },
      ['spec'],
    ),
    [`${V1}CustomResourceDefinitionSpec`]: obj(
      'CustomResourceDefinitionSpec describes how a user wants their resource to appear',
      {
        conversion: obj('CustomResourceConversion describes how to convert different versions of a CR.', { strategy: str('strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion.') }, { required: ['strategy'] }),
        group: str('group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).'),
        names: ref(`${V1}CustomResourceDefinitionNames`, 'names specify the resource and kind names for the custom resource.'),
        preserveUnknownFields: bool('preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`.'),
        scope: str('scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.'),
        versions: arr(ref(`${V1}CustomResourceDefinitionVersion`), 'versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery.', ATOMIC),
      },
      { required: ['group', 'names', 'scope', 'versions'] },
    ),
    [`${V1}CustomResourceDefinitionNames`]: names(),
    [`${V1}CustomResourceDefinitionVersion`]: version(),
    [`${V1}CustomResourceColumnDefinition`]: obj(
      'CustomResourceColumnDefinition specifies a column for server side printing.',
      {
        description: str('description is a human readable description of this column.'),
        format: str("format is an optional OpenAPI type definition for this column. The 'name' format is applied to the primary identifier column to assist in clients identifying column is the resource name."),
        jsonPath: str('jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.'),
        name: str('name is a human readable name for the column.'),
        priority: int('priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a priority greater than 0.'),
        type: str('type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.'),
      },
      { required: ['name', 'type', 'jsonPath'] },
    ),
    [`${V1}CustomResourceDefinitionStatus`]: obj('CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition', {
      acceptedNames: ref(`${V1}CustomResourceDefinitionNames`, 'acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.'),
      conditions: arr(ref(`${V1}CustomResourceDefinitionCondition`), 'conditions indicate state for particular aspects of a CustomResourceDefinition', { 'x-kubernetes-list-map-keys': ['type'], 'x-kubernetes-list-type': 'map' }),
      storedVersions: strs('storedVersions lists all versions of CustomResources that were ever persisted.', ATOMIC),
    }),
    [`${V1}CustomResourceDefinitionCondition`]: condition(),
    [PROPS]: schemaProps(),
    [`${V1}JSONSchemaPropsOrArray`]: { description: 'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.' },
    [`${V1}JSONSchemaPropsOrBool`]: { description: 'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.' },
    [JSON_VALUE]: { description: 'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.' },
  };
}

