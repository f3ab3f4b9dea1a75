/**
 * meta.k8s.io/v1 and apimachinery definitions every kind references: ObjectMeta, ListMeta,
 * selectors, Status, DeleteOptions, WatchEvent, and the IntOrString / Quantity / Time scalars.
 */
import {
  ATOMIC,
  ATOMIC_MAP,
  INT_OR_STRING,
  LABEL_SELECTOR,
  LIST_META,
  MERGE_SET,
  META,
  MICRO_TIME,
  OBJECT_META,
  QUANTITY,
  TIME,
  arr,
  bool,
  int,
  int64,
  map,
  mergeBy,
  obj,
  ref,
  str,
  strs,
  typeMeta,
  type GroupVersionKind,
  type Schema,
} from './schema.ts';

/** Group versions whose clients send DeleteOptions / receive WatchEvents (upstream lists every group). */
const OPTION_GROUP_VERSIONS: ReadonlyArray<[string, string]> = [
  ['', 'v1'],
  ['apiextensions.k8s.io', 'v1'],
  ['apps', 'v1'],
  ['authentication.k8s.io', 'v1'],
  ['authorization.k8s.io', 'v1'],
  ['autoscaling', 'v1'],
  ['autoscaling', 'v2'],
  ['batch', 'v1'],
  ['events.k8s.io', 'v1'],
  ['rbac.authorization.k8s.io', 'v1'],
];

function everyGroup(kind: string): GroupVersionKind[] {
  return OPTION_GROUP_VERSIONS.map(([group, version]) => ({ group, kind, version }));
}

function objectMetaDefinition(): Schema {
  return obj(
    'ObjectMeta is metadata that all persisted resources must have, which includes all objects users must create.',
    {
      annotations: map(
        'Annotations is an unstructured key value map stored with a resource that may be set by external tools to store and retrieve arbitrary metadata. They are not queryable and should be preserved when modifying objects. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/annotations',
      ),
      creationTimestamp: ref(
        TIME,
        'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.',
      ),
      deletionGracePeriodSeconds: int64(
        'Number of seconds allowed for this object to gracefully terminate before it will be removed from the system. Only set when deletionTimestamp is also set. May only be shortened. Read-only.',
      ),
      deletionTimestamp: ref(
        TIME,
        'DeletionTimestamp is RFC 3339 date and time at which this resource will be deleted. This field is set by the server when a graceful deletion is requested by the user, and is not directly settable by a client. The resource is expected to be deleted (no longer visible from resource lists, and not reachable by name) after the time in this field, once the finalizers list is empty.',
      ),
      finalizers: strs(
        'Must be empty before the object is deleted from the registry. Each entry is an identifier for the responsible component that will remove the entry from the list. If the deletionTimestamp of the object is non-nil, entries in this list can only be removed. Finalizers may be processed and removed in any order.',
        MERGE_SET,
      ),
      generateName: str(
        'GenerateName is an optional prefix, used by the server, to generate a unique name ONLY IF the Name field has not been provided. If this field is used, the name returned to the client will be different than the name passed. The provided value has the same validation rules as the Name field, and may be truncated by the length of the suffix required to make the value unique on the server.',
      ),
      generation: int64('A sequence number representing a specific generation of the desired state. Populated by the system. Read-only.'),
      labels: map(
        'Map of string keys and values that can be used to organize and categorize (scope and select) objects. May match selectors of replication controllers and services. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels',
      ),
      managedFields: arr(
        ref(`${META}ManagedFieldsEntry`),
        "ManagedFields maps workflow-id and version to the set of fields that are managed by that workflow. This is mostly for internal housekeeping, and users typically shouldn't need to set or understand this field. A workflow can be the user's name, a controller's name, or the name of a specific apply path like \"ci-cd\". The set of fields is always in the version that the workflow used when modifying the object.",
        ATOMIC,
      ),
      name: str(
        'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names',
      ),
      namespace: str(
        'Namespace defines the space within which each name must be unique. An empty namespace is equivalent to the "default" namespace, but "default" is the canonical representation. Not all objects are required to be scoped to a namespace - the value of this field for those objects will be empty. Must be a DNS_LABEL. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/namespaces',
      ),
      ownerReferences: arr(
        ref(`${META}OwnerReference`),
        'List of objects depended by this object. If ALL objects in the list have been deleted, this object will be garbage collected. If this object is managed by a controller, then an entry in this list will point to this controller, with the controller field set to true. There cannot be more than one managing controller.',
        mergeBy('uid'),
      ),
      resourceVersion: str(
        'An opaque value that represents the internal version of this object that can be used by clients to determine when objects have changed. May be used for optimistic concurrency, change detection, and the watch operation on a resource or set of resources. Clients must treat these values as opaque and passed unmodified back to the server. Populated by the system. Read-only. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#concurrency-control-and-consistency',
      ),
      selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
      uid: str(
        'UID is the unique in time and space value for this object. It is typically generated by the server on successful creation of a resource and is not allowed to change on PUT operations. Populated by the system. Read-only. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids',
      ),
    },
  );
}

function listMetaDefinition(): Schema {
  return obj('ListMeta describes metadata that synthetic resources must have, including lists and various status objects.', {
    continue: str(
      'continue may be set if the user set a limit on the number of items returned, and indicates that the server has more data available. The value is opaque and may be used to issue another request to the endpoint that served this list to retrieve the next set of available objects. Continuing a consistent list may not be possible if the server configuration has changed or more than a few minutes have passed. The resourceVersion field returned when using this continue value will be identical to the value in the first response.',
    ),
    remainingItemCount: int64(
      'remainingItemCount is the number of subsequent items in the list which are not included in this list response. If the list request contained label or field selectors, then the number of remaining items is unknown and the field will be left unset and omitted during serialization.',
    ),
    resourceVersion: str(
      "String that identifies the server's internal version of this object that can be used by clients to determine when objects have changed. Value must be treated as opaque by clients and passed unmodified back to the server. Populated by the system. Read-only.",
    ),
    selfLink: str('Deprecated: selfLink is a legacy read-only field that is no longer populated by the system.'),
  });
}

function selectorDefinitions(): Record<string, Schema> {
  return {
    [LABEL_SELECTOR]: obj(
      'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
      {
        matchExpressions: arr(ref(`${META}LabelSelectorRequirement`), 'matchExpressions is a list of label selector requirements. The requirements are ANDed.', ATOMIC),
        matchLabels: map(
          'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.',
        ),
      },
      { extra: ATOMIC_MAP },
    ),
    [`${META}LabelSelectorRequirement`]: obj(
      'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
      {
        key: str('key is the label key that the selector applies to.'),
        operator: str("operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist."),
        values: strs(
          'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.',
          ATOMIC,
        ),
      },
      { required: ['key', 'operator'] },
    ),
  };
}

function ownershipDefinitions(): Record<string, Schema> {
  return {
    [`${META}OwnerReference`]: obj(
      'OwnerReference contains enough information to let you identify an owning object. An owning object must be in the same namespace as the dependent, or be cluster-scoped, so there is no namespace field.',
      {
        apiVersion: str('API version of the referent.'),
        blockOwnerDeletion: bool(
          'If true, AND if the owner has the "foregroundDeletion" finalizer, then the owner cannot be deleted from the key-value store until this reference is removed. Defaults to false.',
        ),
        controller: bool('If true, this reference points to the managing controller.'),
        kind: str('Kind of the referent. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
        name: str('Name of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names'),
        uid: str('UID of the referent. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids'),
      },
      { required: ['apiVersion', 'kind', 'name', 'uid'], extra: ATOMIC_MAP },
    ),
    [`${META}ManagedFieldsEntry`]: obj(
      'ManagedFieldsEntry is a workflow-id, a FieldSet and the group version of the resource that the fieldset applies to.',
      {
        apiVersion: str('APIVersion defines the version of this resource that this field set applies to.'),
        fieldsType: str('FieldsType is the discriminator for the different fields format and version. There is currently only one possible value: "FieldsV1"'),
        fieldsV1: ref(`${META}FieldsV1`, 'FieldsV1 holds the first JSON version format as described in the "FieldsV1" type.'),
        manager: str('Manager is an identifier of the workflow managing these fields.'),
        operation: str("Operation is the type of operation which lead to this ManagedFieldsEntry being created. The only valid values for this field are 'Apply' and 'Update'."),
        subresource: str('Subresource is the name of the subresource used to update that object, or empty string if the object was updated through the main resource.'),
        time: ref(TIME, "Time is the timestamp of when the ManagedFields entry was added. The timestamp will also be updated if a field is added, the manager changes any of the owned fields value or removes a field."),
      },
    ),
    [`${META}FieldsV1`]: {
      description:
        "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format. Each key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item.",
      type: 'object',
    },
  };
}

function statusDefinitions(): Record<string, Schema> {
  return {
    [`${META}Status`]: obj(
      'Status is a return value for calls that don\'t return other objects.',
      {
        ...typeMeta(),
        code: int('Suggested HTTP return code for this status, 0 if not set.'),
        details: ref(`${META}StatusDetails`, 'Extended data associated with the reason. Each reason may define its own extended details.'),
        message: str('A human-readable description of the status of this operation.'),
        metadata: ref(LIST_META, 'Standard list metadata.'),
        reason: str('A machine-readable description of why this operation is in the "Failure" status. If this value is empty there is no information available.'),
        status: str('Status of the operation. One of: "Success" or "Failure".'),
      },
      { gvk: [{ group: '', kind: 'Status', version: 'v1' }] },
    ),
    [`${META}StatusDetails`]: obj(
      'StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response.',
      {
        causes: arr(ref(`${META}StatusCause`), 'The Causes array includes more details associated with the StatusReason failure.', ATOMIC),
        group: str('The group attribute of the resource associated with the status StatusReason.'),
        kind: str('The kind attribute of the resource associated with the status StatusReason.'),
        name: str('The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).'),
        retryAfterSeconds: int('If specified, the time in seconds before the operation should be retried.'),
        uid: str('UID of the resource.'),
      },
    ),
    [`${META}StatusCause`]: obj('StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.', {
      field: str('The field of the resource that has caused this error, as named by its JSON serialization.'),
      message: str('A human-readable description of the cause of the error.'),
      reason: str('A machine-readable description of the cause of the error. If this value is empty there is no information available.'),
    }),
  };
}

function requestDefinitions(): Record<string, Schema> {
  return {
    [`${META}DeleteOptions`]: obj(
      'DeleteOptions may be provided when deleting an API object.',
      {
        ...typeMeta(),
        dryRun: strs(
          'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
          ATOMIC,
        ),
        gracePeriodSeconds: int64('The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately.'),
        orphanDependents: bool('Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7.'),
        preconditions: ref(`${META}Preconditions`, 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.'),
        propagationPolicy: str(
          "Whether and how garbage collection will be performed. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
        ),
      },
      { gvk: everyGroup('DeleteOptions') },
    ),
    [`${META}Preconditions`]: obj('Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.', {
      resourceVersion: str('Specifies the target ResourceVersion'),
      uid: str('Specifies the target UID.'),
    }),
    [`${META}WatchEvent`]: obj(
      'Event represents a single event to a watched resource.',
      {
        object: ref(
          'io.k8s.apimachinery.pkg.runtime.RawExtension',
          'Object is:\n * If Type is Added or Modified: the new state of the object.\n * If Type is Deleted: the state of the object immediately before deletion.\n * If Type is Error: *Status is recommended; other types may make sense depending on context.',
        ),
        type: str('Type is ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.'),
      },
      { required: ['type', 'object'], gvk: everyGroup('WatchEvent') },
    ),
    'io.k8s.apimachinery.pkg.runtime.RawExtension': {
      description: 'RawExtension is used to hold extensions in external versions: an embedded object in its serialized form.',
      type: 'object',
    },
    [`${META}Patch`]: {
      description: 'Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.',
      type: 'object',
    },
  };
}

function scalarDefinitions(): Record<string, Schema> {
  return {
    [TIME]: str('Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON. Wrappers are provided for many of the factory methods that the time package offers.', {
      format: 'date-time',
    }),
    [MICRO_TIME]: str('MicroTime is version of Time with microsecond level precision.', { format: 'date-time' }),
    [INT_OR_STRING]: str(
      'IntOrString is a type that can hold an int32 or a string. When used in JSON or YAML marshalling and unmarshalling, it produces or consumes the inner type. This allows you to have, for example, a JSON field that can accept a name or number.',
      { format: 'int-or-string' },
    ),
    [QUANTITY]: str(
      'Quantity is a fixed-point representation of a number. It provides convenient marshaling/unmarshaling in JSON and YAML, in addition to String() and AsInt64() accessors.\n\nThe serialization format is:\n\n``` <quantity>        ::= <signedNumber><suffix>\n\n<suffix>           ::= <binarySI> | <decimalExponent> | <decimalSI>\n<binarySI>         ::= Ki | Mi | Gi | Ti | Pi | Ei\n<decimalSI>        ::= m | "" | k | M | G | T | P | E\n```\n\nNo matter which of the three exponent forms is used, no quantity may represent a number greater than 2^63-1 in magnitude, nor may it have more than 3 decimal places.',
    ),
  };
}

/** Every meta.k8s.io and apimachinery definition, keyed by its upstream name. */
export function metaDefinitions(): Record<string, Schema> {
  return {
    [OBJECT_META]: objectMetaDefinition(),
    [LIST_META]: listMetaDefinition(),
    ...selectorDefinitions(),
    ...ownershipDefinitions(),
    ...statusDefinitions(),
    ...requestDefinitions(),
    ...scalarDefinitions(),
  };
}
