/**
 * PATCH in all four media types through ApiExtensions.applyPatch. Server-side apply
 * (`application/apply-patch+yaml`) requires a fieldManager and creates the object when missing;
 * `force` is only allowed with apply, as PatchOptions validation demands. The result is
 * decoded strictly under `fieldValidation` (see validation/patch-validation.ts).
 */
import { validateCustomResourceFields } from '../crd/decode.ts';
import { ApiError, badRequest, notFound } from '../errors.ts';
import { apiVersionOf } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { listSemanticsOf } from '../validation/apply-paths.ts';
import { fieldValidationOf, type FieldValidation } from '../validation/field-validation.ts';
import { patchFlavorOf, validateApplyBody, validatePatchResult } from '../validation/patch-validation.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { checkResourceVersion, createObject, prepareForStorage, storeUpdate, withRequestNamespace, withStatusOf, withWarnings } from './handlers-write.ts';
import { baseMediaType } from './media.ts';
import type { ResourceRoute } from './router.ts';
import { handleScalePatch } from './scale.ts';
import { dryRunOf, fieldManagerOf, storageType, toWire } from './wire.ts';

const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

function patchOptionsInvalid(field: string, message: string, reason: string): ApiError {
  return new ApiError(422, 'Invalid', `PatchOptions.meta.k8s.io "" is invalid: ${field}: ${message}`, {
    group: 'meta.k8s.io',
    kind: 'PatchOptions',
    causes: [{ reason, message, field }],
  });
}

function forceOf(req: ApiRequest, apply: boolean): boolean | undefined {
  const value = req.query.get('force');
  if (value === null) return undefined;
  if (!apply) throw patchOptionsInvalid('force', 'Forbidden: may not be specified for non-apply patch', 'FieldValueForbidden');
  return value === 'true' || value === '1';
}

/** PATCH of an object or its /status or /scale. */
export function handlePatch(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }): Reply {
  const { type } = route;
  const contentType = baseMediaType(req.headers['content-type']);
  const apply = contentType === APPLY_PATCH_TYPE;
  const fieldManagerParam = req.query.get('fieldManager') ?? undefined;
  if (apply && !fieldManagerParam) throw patchOptionsInvalid('fieldManager', 'Required value: is required for apply patch', 'FieldValueRequired');
  const force = forceOf(req, apply);
  const dryRun = dryRunOf(req, 'PatchOptions');
  const directive = fieldValidationOf(req.query, 'PatchOptions');
  const patchOptions = { ...(fieldManagerParam ? { fieldManager: fieldManagerParam } : {}), ...(force !== undefined ? { force } : {}) };
  if (route.subresource === 'scale') return handleScalePatch(ctx, req, route, { ...patchOptions, directive });

  const stored = ctx.store.find(storageType(type), route.namespace, route.name);
  if (!stored && (!apply || route.subresource)) throw notFound(type.plural, type.group, route.name);
  const live = stored ? toWire(type, stored) : undefined;
  const { patched, warnings } = patchValidated(ctx, req, route, { contentType, live, directive, patchOptions });
  const manager = fieldManagerOf(req);

  if (!live) {
    const name = patched.metadata.name || route.name;
    if (name !== route.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${route.name})`);
    const object = withRequestNamespace({ ...patched, metadata: { ...patched.metadata, name } }, route.namespace);
    return withWarnings(createObject(ctx, type, object, { dryRun, manager, apply: true }), warnings);
  }
  checkResourceVersion(type, live, patched);
  if (route.subresource === 'status') {
    const merged = withStatusOf(live, patched);
    const recorded = !apply && ctx.extensions.recordUpdate ? ctx.extensions.recordUpdate({ before: live, after: merged, manager, now: ctx.now(), type, subresource: 'status' }) : withManagedFields(merged, patched);
    return withWarnings(storeUpdate(ctx, type, recorded, { dryRun, status: true }), warnings);
  }
  const prepared = prepareForStorage(ctx, type, patched, live, { manager, apply });
  return withWarnings(storeUpdate(ctx, type, prepared, { dryRun, status: false }), warnings);
}

interface PatchStep {
  contentType: string;
  live: KubeObject | undefined;
  directive: FieldValidation;
  patchOptions: { fieldManager?: string; force?: boolean };
}

/**
 * Applies the patch under the request's field validation: an apply body is checked before
 * the apply (unknown fields) and after it (repeated keys); other patches on their result.
 */
function patchValidated(ctx: ServerContext, req: ApiRequest, route: ResourceRoute, step: PatchStep): { patched: KubeObject; warnings: string[] } {
  const { type } = route;
  const { contentType, live, directive } = step;
  if (type.custom) {
    const patched = ctx.extensions.applyPatch({ contentType, live, body: req.body, now: ctx.now(), type, ...step.patchOptions });
    const checked = validateCustomResourceFields(type, patched, directive);
    return { patched: checked.object, warnings: checked.warnings };
  }
  if (contentType === APPLY_PATCH_TYPE) {
    const checked = validateApplyBody({ body: req.body, apiVersion: apiVersionOf(type), kind: type.kind, directive, lists: listSemanticsOf(type.group, type.version, type.kind) });
    const patched = ctx.extensions.applyPatch({ contentType, live, body: checked.body, now: ctx.now(), type, ...step.patchOptions });
    return { patched, warnings: checked.afterApply() };
  }
  const patched = ctx.extensions.applyPatch({ contentType, live, body: req.body, now: ctx.now(), type, ...step.patchOptions });
  const flavor = patchFlavorOf(contentType);
  if (!live || !flavor) return { patched, warnings: [] };
  const { object, warnings } = validatePatchResult({ flavor, body: req.body, live, patched, directive });
  return { patched: object, warnings };
}

/** Server-side apply on /status records its ownership in the patched object's managedFields. */
function withManagedFields(target: KubeObject, source: KubeObject): KubeObject {
  const managedFields = source.metadata.managedFields;
  return managedFields ? { ...target, metadata: { ...target.metadata, managedFields } } : target;
}
