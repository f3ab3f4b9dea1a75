/**
 * The apiextensions.k8s.io/v1 shapes the simulated API server reads from a
 * CustomResourceDefinition, and what a served custom kind carries on its ResourceType.
 */

/** A structural OpenAPI v3 schema as CRDs declare it (`JSONSchemaProps`). */
export interface JSONSchemaProps {
  type?: string;
  format?: string;
  description?: string;
  default?: unknown;
  nullable?: boolean;
  enum?: unknown[];
  required?: string[];
  properties?: Record<string, JSONSchemaProps>;
  additionalProperties?: JSONSchemaProps | boolean;
  items?: JSONSchemaProps;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  pattern?: string;
  allOf?: JSONSchemaProps[];
  anyOf?: JSONSchemaProps[];
  oneOf?: JSONSchemaProps[];
  not?: JSONSchemaProps;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  [key: string]: unknown;
}

/** One `additionalPrinterColumns` entry. */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

/** `subresources.scale`. */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/** One entry of `spec.versions`. */
export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
  subresources?: { status?: object; scale?: ScaleSubresource };
  additionalPrinterColumns?: PrinterColumn[];
}

/** `spec.names` (and `status.acceptedNames`). */
export interface CrdNames {
  plural: string;
  singular?: string;
  kind: string;
  listKind?: string;
  shortNames?: string[];
  categories?: string[];
}

/** A CRD's `spec`. */
export interface CrdSpec {
  group: string;
  names: CrdNames;
  scope: 'Namespaced' | 'Cluster';
  versions: CrdVersion[];
  conversion?: { strategy?: string; webhook?: { clientConfig?: { service?: { name?: string; namespace?: string; path?: string } } } };
  preserveUnknownFields?: boolean;
}

/** One of `status.conditions` (NamesAccepted, Established, Terminating). */
export interface CrdCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** A CRD's `status`. */
export interface CrdStatus {
  acceptedNames?: CrdNames;
  conditions?: CrdCondition[];
  storedVersions?: string[];
}

/** What a served custom kind carries on its ResourceType: everything its endpoints need. */
export interface CustomResourceInfo {
  /** The CRD's metadata.name (`certificates.cert-manager.io`). */
  crdName: string;
  listKind: string;
  /** The version's `openAPIV3Schema` (always present for v1 CRDs). */
  schema: JSONSchemaProps;
  printerColumns: PrinterColumn[];
  scale?: ScaleSubresource;
  /** The version objects are stored at. */
  storageVersion: string;
  deprecationWarning?: string;
  /** The CRD is being deleted: its instances are readable and deletable, not creatable. */
  terminating?: boolean;
}
