/**
 * What each timeline action does to the cluster, done the way its kubectl counterpart would:
 * `apply` creates or replaces, `setImage` and `scale` edit the workload's spec, `deletePod`
 * deletes one matching pod gracefully, node actions stop or restart a node's kubelet, `setLoad`
 * feeds the HPA's simulated metric, `runJob` is `kubectl create job --from=cronjob/...`,
 * `pauseRollout`/`resumeRollout` are `kubectl rollout pause/resume`, and `metricsUnavailable`
 * makes the metrics API return nothing for a scale target's pods (its HPA then reports
 * FailedGetResourceMetric) until the next `setLoad`.
 */
import { LOAD_ANNOTATION } from '../controllers/hpa.ts';
import { CRONJOBS, JOBS, PODS } from '../controllers/kinds.ts';
import { setNodeReady } from '../controllers/node-lifecycle.ts';
import { deletePod } from '../controllers/pods.ts';
import { invalid, notFound, type StatusCause } from '../errors.ts';
import type { ResourceType } from '../resources.ts';
import { matchesLabels, parseLabelSelector } from '../selectors.ts';
import { recordControllerWrite } from '../api-extensions.ts';
import type { ObjectStore } from '../store.ts';
import type { IncomingObject, KubeObject } from '../types.ts';
import type { Target, TimelineAction } from './schema.ts';

/** The API server's pure write steps, plugged in (see server/extensions.ts and server/services.ts). */
export interface ApiHooks {
  applyDefaults?: (type: ResourceType, object: KubeObject) => KubeObject;
  validate?: (type: ResourceType, object: KubeObject, old?: KubeObject) => StatusCause[];
  /** Allocation after validation, e.g. a Service's cluster IP and node ports. */
  allocate?: (type: ResourceType, object: KubeObject, old?: KubeObject) => KubeObject;
}

/** What actions act on: the store, the API hooks and the HPA's metric feed. */
export interface ActionContext extends ApiHooks {
  store: ObjectStore;
  /** Feeds the HPA controller's simulated metric; without it the target is annotated instead. */
  setLoad?: (namespace: string, kind: string, name: string, percent: number | undefined) => void;
}


function prepared(ctx: ActionContext, type: ResourceType, object: KubeObject, old?: KubeObject): KubeObject {
  const next = ctx.applyDefaults ? ctx.applyDefaults(type, object) : object;
  const causes = ctx.validate?.(type, next, old) ?? [];
  if (causes.length > 0) throw invalid(type.kind, type.group, next.metadata.name, causes);
  return ctx.allocate ? ctx.allocate(type, next, old) : next;
}

/**
 * Creates an object through the hooks. They run in the store's admit step, once uid and name
 * exist, as kube-apiserver's PrepareForCreate does (a Job's generated selector needs the uid).
 */
export function createThroughApi(ctx: ActionContext, type: ResourceType, manifest: IncomingObject): KubeObject {
  return ctx.store.create(type, manifest, { admit: (created) => prepared(ctx, type, created) });
}

/** `kubectl apply` without the three-way merge: create, or replace spec-like fields, keeping status. */
export function applyManifest(ctx: ActionContext, manifest: IncomingObject): KubeObject {
  // Custom kinds too: whatever the cluster's CRDs serve now.
  const type = ctx.store.types.byApiVersionKind(String(manifest['apiVersion']), String(manifest['kind']));
  if (!type) throw new Error(`${String(manifest['apiVersion'])} ${String(manifest['kind'])} is not served`);
  const meta = (manifest['metadata'] ?? {}) as Partial<KubeObject['metadata']>;
  const namespace = type.namespaced ? (meta.namespace ?? 'default') : undefined;
  const withNamespace = { ...manifest, metadata: { ...meta, ...(namespace ? { namespace } : {}) } } as IncomingObject;
  const current = ctx.store.find(type, namespace, meta.name ?? '');
  if (!current) return createThroughApi(ctx, type, withNamespace);
  const { metadata: _m, status: _s, ...fields } = withNamespace as Record<string, unknown>;
  const next = {
    ...Object.fromEntries(Object.entries(current).filter(([k]) => k === 'apiVersion' || k === 'kind' || k === 'metadata' || k === 'status')),
    ...structuredClone(fields),
    metadata: { ...current.metadata, ...(meta.labels ? { labels: meta.labels } : {}), ...(meta.annotations ? { annotations: { ...current.metadata.annotations, ...meta.annotations } } : {}) },
  } as KubeObject;
  return ctx.store.update(type, prepared(ctx, type, next, current));
}

/** Who a timeline action writes as: the engineer's kubectl, as kube-apiserver's managedFields would say. */
interface Writer {
  manager: string;
  subresource?: string;
}

function mutateTarget(ctx: ActionContext, target: Target, namespace: string, edit: (copy: KubeObject) => void, writer?: Writer): KubeObject {
  const ns = target.type.namespaced ? namespace : undefined;
  const before = ctx.store.find(target.type, ns, target.name);
  if (!before) throw notFound(target.type.plural, target.type.group, target.name);
  return ctx.store.mutate(target.type, ns, target.name, (copy) => {
    edit(copy);
    if (writer) return recordControllerWrite({ type: target.type, before, after: copy, now: Date.now(), ...writer });
    return copy;
  });
}

function setImage(ctx: ActionContext, action: Extract<TimelineAction, { type: 'setImage' }>): void {
  mutateTarget(ctx, action.target, action.namespace, (copy) => {
    const spec = copy['spec'] as Record<string, unknown> | undefined;
    const podSpec = (action.target.type === PODS ? spec : (spec?.['template'] as { spec?: Record<string, unknown> } | undefined)?.spec) ?? {};
    const containers = [...((podSpec['initContainers'] as Array<{ name: string; image: string }> | undefined) ?? []), ...((podSpec['containers'] as Array<{ name: string; image: string }> | undefined) ?? [])];
    const container = containers.find((c) => c.name === action.container);
    if (!container) throw new Error(`unable to find container named "${action.container}" in ${action.target.type.singular}/${action.target.name}`);
    container.image = action.image;
  });
}

function deleteOnePod(ctx: ActionContext, namespace: string, selectorText: string): void {
  const selector = parseLabelSelector(selectorText);
  const pod = ctx.store
    .all(PODS, namespace)
    .find((p) => !p.metadata.deletionTimestamp && matchesLabels(selector, p.metadata.labels));
  if (!pod) throw new Error(`no running pod in namespace ${namespace} matches ${selectorText}`);
  deletePod(ctx.store, pod);
}

/** `kubectl create job <name> --from=cronjob/<cronJob>`. */
function runJob(ctx: ActionContext, action: Extract<TimelineAction, { type: 'runJob' }>): void {
  const cronJob = ctx.store.find(CRONJOBS, action.namespace, action.cronJob);
  if (!cronJob) throw notFound('cronjobs', 'batch', action.cronJob);
  const template = ((cronJob['spec'] as { jobTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown } } | undefined)?.jobTemplate) ?? {};
  createThroughApi(ctx, JOBS, {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      ...(action.name ? { name: action.name } : { generateName: `${action.cronJob}-manual-` }),
      namespace: action.namespace,
      ...(template.metadata?.labels ? { labels: { ...template.metadata.labels } } : {}),
      annotations: { ...(template.metadata?.annotations ?? {}), 'cronjob.kubernetes.io/instantiate': 'manual' },
      ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob.metadata.name, uid: cronJob.metadata.uid, controller: true }],
    },
    spec: structuredClone(template.spec ?? {}),
  });
}

/** `kubectl rollout pause/resume`: sets or clears spec.paused, refusing what kubectl refuses. */
function pauseRollout(ctx: ActionContext, action: Extract<TimelineAction, { type: 'pauseRollout' | 'resumeRollout' }>): void {
  const pause = action.type === 'pauseRollout';
  if (action.target.type.kind !== 'Deployment' || action.target.type.group !== 'apps') {
    throw new Error(`${action.target.type.plural}.${action.target.type.group} "${action.target.name}" ${pause ? 'pausing' : 'resuming'} is not supported`);
  }
  mutateTarget(ctx, action.target, action.namespace, (copy) => {
    const spec = copy['spec'] as Record<string, unknown>;
    if (pause) spec['paused'] = true;
    else delete spec['paused'];
  });
}

/** The metrics API stops returning the target's pods: the annotation and any fed load are dropped. */
function metricsUnavailable(ctx: ActionContext, action: Extract<TimelineAction, { type: 'metricsUnavailable' }>): void {
  const target = ctx.store.find(action.target.type, action.namespace, action.target.name);
  if (!target) throw notFound(action.target.type.plural, action.target.type.group, action.target.name);
  ctx.setLoad?.(action.namespace, action.target.type.kind, action.target.name, undefined);
  if (target.metadata.annotations?.[LOAD_ANNOTATION] === undefined) return;
  mutateTarget(ctx, action.target, action.namespace, (copy) => {
    const annotations = { ...copy.metadata.annotations };
    delete annotations[LOAD_ANNOTATION];
    copy.metadata.annotations = annotations;
  });
}

/** Runs one timeline action against the cluster; throws when it cannot be done. */
export function runAction(ctx: ActionContext, action: TimelineAction): void {
  switch (action.type) {
    case 'apply':
      applyManifest(ctx, action.manifest);
      return;
    case 'setImage':
      setImage(ctx, action);
      return;
    case 'scale':
      if (!action.target.type.subresources.includes('scale')) throw new Error(`${action.target.type.plural} cannot be scaled`);
      // `kubectl scale` writes through /scale as `kubectl`: a fight with an HPA names both.
      mutateTarget(ctx, action.target, action.namespace, (copy) => {
        (copy['spec'] as Record<string, unknown>)['replicas'] = action.replicas;
      }, { manager: 'kubectl', subresource: 'scale' });
      return;
    case 'deletePod':
      deleteOnePod(ctx, action.namespace, action.selector);
      return;
    case 'delete': {
      const ns = action.target.type.namespaced ? action.namespace : undefined;
      const object = ctx.store.find(action.target.type, ns, action.target.name);
      if (!object) throw notFound(action.target.type.plural, action.target.type.group, action.target.name);
      if (action.target.type === PODS) deletePod(ctx.store, object);
      else ctx.store.delete(action.target.type, ns, action.target.name, { propagationPolicy: 'Background' });
      return;
    }
    case 'nodeNotReady':
    case 'nodeReady':
      setNodeReady(ctx.store, action.node, action.type === 'nodeReady');
      return;
    case 'setLoad':
      if (ctx.setLoad) {
        if (!ctx.store.find(action.target.type, action.namespace, action.target.name)) throw notFound(action.target.type.plural, action.target.type.group, action.target.name);
        ctx.setLoad(action.namespace, action.target.type.kind, action.target.name, action.cpu);
      } else {
        mutateTarget(ctx, action.target, action.namespace, (copy) => {
          copy.metadata.annotations = { ...copy.metadata.annotations, [LOAD_ANNOTATION]: String(action.cpu) };
        });
      }
      return;
    case 'runJob':
      runJob(ctx, action);
      return;
    case 'pauseRollout':
    case 'resumeRollout':
      pauseRollout(ctx, action);
      return;
    case 'metricsUnavailable':
      metricsUnavailable(ctx, action);
      return;
  }
}
