/**
 * PATCH bodies by Content-Type, as kube-apiserver dispatches them. The result still needs the
 * caller's defaulting and validation, and for non-apply patches the caller records the write
 * with {@link recordUpdate} after defaulting (defaulted fields belong to the writer).
 */
import { parse as parseYaml } from 'yaml';
import { badRequest, internalError, invalid, unsupportedMediaType } from '../errors.ts';
import type { KubeObject } from '../types.ts';
import { goJsonType, isObject, type JsonObject } from './json.ts';
import { applyJsonPatch } from './json-patch.ts';
import { applyMergePatch } from './merge-patch.ts';
import type { PatchMeta } from './patch-meta.ts';
import { serverSideApply } from './server-side-apply.ts';
import { applyStrategicMergePatch } from './strategic-merge.ts';

export { applyJsonPatch } from './json-patch.ts';
export { applyMergePatch } from './merge-patch.ts';
export { applyStrategicMergePatch } from './strategic-merge.ts';
export { recordUpdate, serverSideApply, type RecordUpdateArgs, type ServerSideApplyArgs } from './server-side-apply.ts';
export { hasStrategy, listSemantics, patchMetaFromDefinitions, untypedPatchMeta } from './patch-meta.ts';
export type { FieldPatchMeta, ListSemantics, PatchDefinitions, PatchMeta, PatchMetaKind, PatchSchema } from './patch-meta.ts';

/** The four patch media types kube-apiserver accepts for PATCH. */
export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
] as const;

export interface ApplyPatchArgs {
  /** The request's Content-Type header (parameters such as `; charset=utf-8` are ignored). */
  contentType: string;
  /** The stored object; required except for apply, which creates a missing object. */
  live: KubeObject | undefined;
  body: string;
  /** The `fieldManager` query parameter; required for apply. */
  fieldManager?: string;
  /** The `force` query parameter; only apply may set it. */
  force?: boolean;
  now: number;
  meta: PatchMeta;
  /** The group/version of the request path (`apps/v1`, `v1`). */
  apiVersion: string;
  /** The kind served at the request path; apply checks the body against it (defaults to the live kind). */
  kind?: string;
  /** `status` or `scale` when patching a subresource (recorded on apply's managedFields entry). */
  subresource?: string;
  /** Reset fields of the endpoint, for apply (see ServerSideApplyArgs). */
  resetFields?: ReadonlyArray<readonly string[]>;
}

function mediaType(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function parseJsonBody(body: string, invalidMessage?: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch (error) {
    throw badRequest(invalidMessage ?? (error as Error).message);
  }
}

/** kube-apiserver decodes a patched document into the kind; anything but an object fails there. */
function asObject(result: unknown): KubeObject {
  if (isObject(result)) return result as KubeObject;
  throw invalid('', '', '', [
    { field: 'patch', message: `Invalid value: ${JSON.stringify(JSON.stringify(result))}: json: cannot unmarshal ${goJsonType(result)} into Go value of type map[string]interface {}` },
  ]);
}

function requireLive(live: KubeObject | undefined): KubeObject {
  if (!live) throw internalError('patch target is missing: non-apply patches need the stored object');
  return live;
}

function parseApplyBody(body: string): JsonObject {
  let parsed: unknown;
  try {
    parsed = parseYaml(body) as unknown;
  } catch (error) {
    throw badRequest(`error decoding YAML: ${(error as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (!isObject(parsed)) {
    throw badRequest(`error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${goJsonType(parsed)} into Go value of type map[string]interface {}`);
  }
  return parsed;
}

/**
 * Applies a PATCH request body to the stored object by Content-Type and returns the patched
 * object. Errors are ApiErrors shaped like kube-apiserver's: 415 for media types it does not
 * accept (including `application/apply-patch+cbor`), 400 for undecodable bodies, 422 when apply
 * lacks a fieldManager or a non-apply patch sets force, plus the engines' own (json-patch 422,
 * apply conflicts 409). Inputs are not mutated.
 */
export function applyPatch(args: ApplyPatchArgs): KubeObject {
  const type = mediaType(args.contentType);
  if (!(PATCH_CONTENT_TYPES as readonly string[]).includes(type)) throw unsupportedMediaType(args.contentType);
  if (type === 'application/apply-patch+yaml') {
    if (!args.fieldManager) {
      throw invalid('PatchOptions', 'meta.k8s.io', '', [{ field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' }]);
    }
    return serverSideApply({
      live: args.live,
      applied: parseApplyBody(args.body),
      manager: args.fieldManager,
      force: args.force ?? false,
      now: args.now,
      meta: args.meta,
      apiVersion: args.apiVersion,
      ...(args.kind !== undefined ? { kind: args.kind } : {}),
      ...(args.subresource !== undefined ? { subresource: args.subresource } : {}),
      ...(args.resetFields !== undefined ? { resetFields: args.resetFields } : {}),
    });
  }
  if (args.force === true) {
    throw invalid('PatchOptions', 'meta.k8s.io', '', [{ field: 'force', reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch' }]);
  }
  const live = requireLive(args.live);
  switch (type) {
    case 'application/json-patch+json':
      return asObject(applyJsonPatch(live, parseJsonBody(args.body)));
    case 'application/merge-patch+json': {
      const patch = parseJsonBody(args.body, 'Invalid JSON Patch');
      if (patch === null) throw badRequest('Invalid JSON Patch');
      return asObject(applyMergePatch(live, patch));
    }
    default:
      return applyStrategicMergePatch(live, parseJsonBody(args.body), args.meta) as KubeObject;
  }
}
