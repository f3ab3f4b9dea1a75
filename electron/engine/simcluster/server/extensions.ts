/**
 * What the HTTP layer needs from the pure API modules (defaulting and validation, tables,
 * patching, managedFields, OpenAPI). The server depends only on this interface so each module
 * can be developed and tested on its own and wired in at composition time.
 */
import type { StatusCause } from '../errors.ts';
import type { ResourceRegistry } from '../registry.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';

/** How much of each object a Table row carries (`includeObject` query parameter). */
export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** List metadata a Table carries (from the list it renders). */
export interface TableListMeta {
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/** Inputs to `toTable`: the clock for ages, the row object form, list metadata. */
export interface TableOptions {
  now: number;
  includeObject?: IncludeObject;
  listMeta?: TableListMeta;
}

/** One PATCH request as the patch module sees it. */
export interface ApplyPatchArgs {
  /** The request's media type without parameters, e.g. `application/merge-patch+json`. */
  contentType: string;
  /** The live object; undefined when a server-side apply creates it. */
  live: KubeObject | undefined;
  body: string;
  fieldManager?: string;
  force?: boolean;
  now: number;
  type: ResourceType;
}

/** A non-apply write for managedFields bookkeeping. */
export interface RecordUpdateArgs {
  before: KubeObject | undefined;
  after: KubeObject;
  manager: string;
  now: number;
  type: ResourceType;
  subresource?: string;
}

/** The pure API modules the HTTP layer calls (see the file comment). */
export interface ApiExtensions {
  /** Fills defaulted fields the way kube-apiserver's defaulters do. */
  applyDefaults(type: ResourceType, object: KubeObject): KubeObject;
  /** Field errors; an empty list means valid. `old` is set on updates. */
  validate(type: ResourceType, object: KubeObject, old?: KubeObject): StatusCause[];
  /** A meta.k8s.io/v1 Table for the objects, with the columns a real server prints. */
  toTable(type: ResourceType, objects: KubeObject[], options: TableOptions): object;
  /** Applies a patch body of the given media type; throws ApiError (415 for unknown types). */
  applyPatch(args: ApplyPatchArgs): KubeObject;
  /** Updates managedFields for a non-apply write. */
  recordUpdate?(args: RecordUpdateArgs): KubeObject;
  /** The gnostic OpenAPIv2 protobuf document kubectl 1.2x downloads; `types` adds the CRDs' kinds. */
  openapiV2Protobuf(types?: ResourceRegistry): Buffer;
  /** OpenAPI documents may come pre-serialized (a string is sent as is). */
  openapiV2Json(types?: ResourceRegistry): object | string;
  openapiV3Index(types?: ResourceRegistry): object | string;
  /** The document for `api/v1`, `apis/apps/v1`, ...; undefined when not served. */
  openapiV3Document(path: string, types?: ResourceRegistry): object | string | undefined;
}
