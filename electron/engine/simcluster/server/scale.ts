/**
 * The /scale subresource: workloads seen as autoscaling/v1 Scale objects (spec.replicas,
 * status.replicas, status.selector as a selector string); writes change the workload's
 * spec.replicas.
 */
import { evaluateJsonPath, setAtJsonPath } from '../crd/jsonpath.ts';
import { badRequest, invalid } from '../errors.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { listSemanticsOf } from '../validation/apply-paths.ts';
import type { FieldValidation } from '../validation/field-validation.ts';
import { patchFlavorOf, validateApplyBody, validatePatchResult } from '../validation/patch-validation.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { liveObject } from './handlers-read.ts';
import { checkResourceVersion, decodeWriteBody, prepareForStorage, storeUpdate, withWarnings } from './handlers-write.ts';
import { baseMediaType } from './media.ts';
import type { ResourceRoute } from './router.ts';
import { dryRunOf, fieldManagerOf } from './wire.ts';

/** autoscaling/v1 Scale, for patching the subresource through ApiExtensions.applyPatch. */
export const SCALE_TYPE: ResourceType = {
  group: 'autoscaling',
  version: 'v1',
  kind: 'Scale',
  plural: 'scale',
  singular: 'scale',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: ['get', 'patch', 'update'],
  subresources: [],
};

interface SelectorObject {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** metav1.LabelSelectorAsSelector(...).String(): requirements sorted by key. */
export function selectorString(selector: SelectorObject | undefined): string {
  const terms: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) terms.push([key, `${key}=${value}`]);
  for (const e of selector?.matchExpressions ?? []) {
    const values = [...(e.values ?? [])].sort().join(',');
    if (e.operator === 'In') terms.push([e.key, `${e.key} in (${values})`]);
    else if (e.operator === 'NotIn') terms.push([e.key, `${e.key} notin (${values})`]);
    else if (e.operator === 'Exists') terms.push([e.key, e.key]);
    else if (e.operator === 'DoesNotExist') terms.push([e.key, `!${e.key}`]);
  }
  return terms
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, term]) => term)
    .join(',');
}

/** What a Scale shows of an object: built-in workloads' fields, or a CRD's scale paths. */
function scaleFields(workload: KubeObject, type: ResourceType | undefined): { replicas: number | undefined; current: number; selector: string } {
  const paths = type?.custom?.scale;
  if (paths) {
    const read = (path: string | undefined) => (path ? evaluateJsonPath(workload, path)[0] : undefined);
    const replicas = read(paths.specReplicasPath);
    const current = read(paths.statusReplicasPath);
    const selector = read(paths.labelSelectorPath);
    return { replicas: typeof replicas === 'number' ? replicas : undefined, current: typeof current === 'number' ? current : 0, selector: typeof selector === 'string' ? selector : '' };
  }
  const spec = (workload['spec'] ?? {}) as { replicas?: number; selector?: SelectorObject };
  const status = (workload['status'] ?? {}) as { replicas?: number };
  return { replicas: spec.replicas, current: status.replicas ?? 0, selector: selectorString(spec.selector) };
}

/** The Scale view of a Deployment, ReplicaSet or StatefulSet, or of a custom resource with the scale subresource. */
export function scaleOf(workload: KubeObject, type?: ResourceType): KubeObject {
  const { replicas, current, selector } = scaleFields(workload, type);
  const m = workload.metadata;
  return {
    kind: 'Scale',
    apiVersion: 'autoscaling/v1',
    metadata: { name: m.name, ...(m.namespace ? { namespace: m.namespace } : {}), uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: replicas ? { replicas } : {},
    status: { replicas: current, ...(selector ? { selector } : {}) },
  };
}

/** GET /scale. */
export function handleScaleGet(ctx: ServerContext, route: ResourceRoute & { name: string }): Reply {
  return { code: 200, body: scaleOf(liveObject(ctx, route), route.type) };
}

/** The object with its desired replicas set: spec.replicas, or a CRD's specReplicasPath. */
function withReplicas(type: ResourceType, live: KubeObject, replicas: number): KubeObject {
  const path = type.custom?.scale?.specReplicasPath;
  if (!path) return { ...live, spec: { ...((live['spec'] ?? {}) as object), replicas } };
  const next = structuredClone(live);
  setAtJsonPath(next, path, replicas);
  return next;
}

function writeScale(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }, live: KubeObject, scale: KubeObject, dryRun: boolean): Reply {
  if ((scale.metadata.name ?? '') !== route.name) throw badRequest(`the name of the object (${scale.metadata.name ?? ''}) does not match the name on the URL (${route.name})`);
  checkResourceVersion(route.type, live, scale);
  const replicas = (scale['spec'] as { replicas?: unknown } | undefined)?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    throw invalid('Scale', 'autoscaling', route.name, [{ field: 'spec.replicas', message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
  }
  const next = withReplicas(route.type, live, replicas);
  const prepared = prepareForStorage(ctx, route.type, next, live, { manager: fieldManagerOf(req), subresource: 'scale' });
  const reply = storeUpdate(ctx, route.type, prepared, { dryRun, status: false });
  return { code: 200, body: scaleOf(reply.body as KubeObject, route.type) };
}

/** PUT /scale: sets spec.replicas of the workload. */
export function handleScaleUpdate(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }): Reply {
  const dryRun = dryRunOf(req, 'UpdateOptions');
  const { object: scale, warnings } = decodeWriteBody(req, SCALE_TYPE, 'UpdateOptions');
  const live = liveObject(ctx, route);
  return withWarnings(writeScale(ctx, req, route, live, scale, dryRun), warnings);
}

/** PATCH /scale: patches the Scale view, then sets spec.replicas of the workload. */
export function handleScalePatch(
  ctx: ServerContext,
  req: ApiRequest,
  route: ResourceRoute & { name: string },
  options: { fieldManager?: string; force?: boolean; directive: FieldValidation },
): Reply {
  const { directive, ...patchOptions } = options;
  const dryRun = dryRunOf(req, 'PatchOptions');
  const live = liveObject(ctx, route);
  const contentType = baseMediaType(req.headers['content-type']);
  const flavor = patchFlavorOf(contentType);
  const scale = scaleOf(live, route.type);
  const apply = contentType === 'application/apply-patch+yaml' ? validateApplyBody({ body: req.body, apiVersion: 'autoscaling/v1', kind: 'Scale', directive, lists: listSemanticsOf('autoscaling', 'v1', 'Scale') }) : undefined;
  const patched = ctx.extensions.applyPatch({ contentType, live: scale, body: apply?.body ?? req.body, now: ctx.now(), type: SCALE_TYPE, ...patchOptions });
  const { object, warnings } = flavor ? validatePatchResult({ flavor, body: req.body, live: scale, patched, directive }) : { object: patched, warnings: apply?.afterApply() ?? [] };
  return withWarnings(writeScale(ctx, req, route, live, object, dryRun), warnings);
}
