/**
 * DELETE of one object and of a collection. Options come from a DeleteOptions body or the query
 * (propagationPolicy, preconditions, dryRun, orphanDependents, gracePeriodSeconds — which only
 * pods bound to a node honour: they stay Terminating until the kubelet stops them). The answer is
 * what kube-apiserver sends: the object while it still exists (finalizers pending) or for kinds
 * whose storage returns deleted objects (pods, services, namespaces); otherwise a Success Status.
 */
import { ApiError, badRequest, notFound } from '../errors.ts';
import { listObjects } from '../list.ts';
import { apiVersionOf, type ResourceType } from '../resources.ts';
import type { DeleteOptions, DeletePropagation } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { podDeleteOptions, podNodeName } from '../controllers/pods.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import type { ResourceRoute } from './router.ts';
import { dryRunOf, selectorsOf, storageType, toWire } from './wire.ts';

/** Resources whose registry sets ReturnDeletedObject upstream. */
const RETURNS_DELETED_OBJECT = new Set(['pods', 'services', 'namespaces']);

const POLICIES = new Set<DeletePropagation>(['Foreground', 'Background', 'Orphan']);

interface DeleteRequestOptions extends DeleteOptions {
  /** Only for the 202 Accepted that upstream keeps for orphanDependents=false. */
  orphanDependents?: boolean;
}

function parseDeleteBody(req: ApiRequest): Record<string, unknown> {
  if (req.body.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(req.body);
  } catch (error) {
    throw badRequest(`the object provided is unrecognized (must be of type DeleteOptions): ${error instanceof Error ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badRequest('the object provided is unrecognized (must be of type DeleteOptions)');
  return value as Record<string, unknown>;
}

function deleteOptionsOf(req: ApiRequest): DeleteRequestOptions {
  const body = parseDeleteBody(req);
  const options: DeleteRequestOptions = {};
  const bodyDryRun = Array.isArray(body['dryRun']) && (body['dryRun'] as unknown[]).includes('All');
  if (dryRunOf(req, 'DeleteOptions') || bodyDryRun) options.dryRun = true;
  const orphan = body['orphanDependents'] ?? (req.query.has('orphanDependents') ? req.query.get('orphanDependents') === 'true' : undefined);
  const policy = (body['propagationPolicy'] ?? req.query.get('propagationPolicy') ?? undefined) as string | undefined;
  if (policy !== undefined && policy !== null) {
    if (!POLICIES.has(policy as DeletePropagation)) {
      const message = `Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan", "nil"`;
      throw new ApiError(422, 'Invalid', `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: ${message}`, {
        group: 'meta.k8s.io',
        kind: 'DeleteOptions',
        causes: [{ reason: 'FieldValueNotSupported', message, field: 'propagationPolicy' }],
      });
    }
    options.propagationPolicy = policy as DeletePropagation;
  } else if (typeof orphan === 'boolean') {
    options.propagationPolicy = orphan ? 'Orphan' : 'Background';
  }
  if (typeof orphan === 'boolean') options.orphanDependents = orphan;
  const grace = body['gracePeriodSeconds'] ?? (req.query.has('gracePeriodSeconds') ? Number(req.query.get('gracePeriodSeconds')) : undefined);
  if (typeof grace === 'number' && Number.isInteger(grace) && grace >= 0) options.gracePeriodSeconds = grace;
  const preconditions = body['preconditions'] as { uid?: string; resourceVersion?: string } | undefined;
  if (preconditions && (preconditions.uid || preconditions.resourceVersion)) options.preconditions = preconditions;
  return options;
}

/**
 * Pods on a node terminate gracefully (Terminating until the kubelet has stopped them); the
 * request's gracePeriodSeconds wins over the pod's terminationGracePeriodSeconds.
 */
function withPodGrace(type: ResourceType, pod: KubeObject, options: DeleteRequestOptions): DeleteRequestOptions {
  if (type.group !== '' || type.plural !== 'pods') return options;
  const requested = options.gracePeriodSeconds;
  const grace = requested ?? podDeleteOptions(pod).gracePeriodSeconds ?? 0;
  return { ...options, gracePeriodSeconds: podNodeName(pod) ? grace : 0 };
}

function successStatus(type: ResourceType, object: KubeObject): object {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: object.metadata.name, ...(type.group ? { group: type.group } : {}), kind: type.plural, uid: object.metadata.uid },
  };
}

function deleteOne(ctx: ServerContext, type: ResourceType, namespace: string | undefined, name: string, options: DeleteRequestOptions): { body: unknown; deleted: boolean } {
  const store = storageType(type);
  if (!ctx.store.find(store, namespace, name)) throw notFound(type.plural, type.group, name);
  const current = ctx.store.get(store, namespace, name);
  const { object, deleted } = ctx.store.delete(store, namespace, name, withPodGrace(store, current, options));
  const wire = toWire(type, object);
  return { body: !deleted || (!type.custom && RETURNS_DELETED_OBJECT.has(type.plural)) ? wire : successStatus(type, wire), deleted };
}

/** DELETE of one object. */
export function handleDelete(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }): Reply {
  const options = deleteOptionsOf(req);
  const { body, deleted } = deleteOne(ctx, route.type, route.namespace, route.name, options);
  return { code: !deleted && options.orphanDependents === false ? 202 : 200, body };
}

/** DELETE of a collection: every object matching the selectors, answered as a `<Kind>List` of what was deleted. */
export function handleDeleteCollection(ctx: ServerContext, req: ApiRequest, route: ResourceRoute): Reply {
  const options = deleteOptionsOf(req);
  const { type } = route;
  const matching = listObjects(ctx.store, storageType(type), { namespace: route.namespace, ...selectorsOf(req, type) }).items;
  const items: KubeObject[] = [];
  for (const object of matching) {
    // An earlier delete in this loop may already have removed it (store listeners such as the
    // garbage collector react synchronously).
    if (!ctx.store.find(storageType(type), object.metadata.namespace, object.metadata.name)) continue;
    items.push(toWire(type, ctx.store.delete(storageType(type), object.metadata.namespace, object.metadata.name, withPodGrace(storageType(type), object, options)).object));
  }
  return { code: 200, body: { kind: type.custom?.listKind ?? `${type.kind}List`, apiVersion: apiVersionOf(type), metadata: { resourceVersion: String(ctx.store.currentRv()) }, items } };
}
