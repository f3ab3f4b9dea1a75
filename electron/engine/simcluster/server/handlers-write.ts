/**
 * POST (create) and PUT (update, including /status) on top of the store, with the apiserver's
 * write pipeline: strict decoding under `fieldValidation`, namespace lifecycle, defaulting,
 * validation, Service allocation, managedFields, optimistic concurrency and dryRun.
 */
import { validateCustomResourceFields } from '../crd/decode.ts';
import { badRequest, conflict, invalid } from '../errors.ts';
import type { ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { fieldValidationOf, validateBody, type Validated, type WriteOptionsKind } from '../validation/field-validation.ts';
import type { ApiRequest, Reply, ServerContext } from './context.ts';
import { liveObject } from './handlers-read.ts';
import { baseMediaType } from './media.ts';
import { ensureNamespaceAcceptsCreate } from './namespaces.ts';
import { admitPodQuota } from '../controllers/resourcequota.ts';
import type { ResourceRoute } from './router.ts';
import { allocateServiceFields } from './services.ts';
import { dryRunOf, fieldManagerOf, fromWire, parseObjectBody, storageType, toWire } from './wire.ts';

/** Who writes, and how (for managedFields). */
export interface PrepareOptions {
  manager: string;
  /** Server-side apply maintains managedFields itself. */
  apply?: boolean;
  subresource?: string;
}

function isServices(type: ResourceType): boolean {
  return type.group === '' && type.plural === 'services';
}

/** Defaulting, validation, allocation and managedFields for an object about to be stored. */
export function prepareForStorage(ctx: ServerContext, type: ResourceType, object: KubeObject, old: KubeObject | undefined, options: PrepareOptions): KubeObject {
  let next = ctx.extensions.applyDefaults(type, object);
  const causes = ctx.extensions.validate(type, next, old);
  if (causes.length > 0) throw invalid(type.kind, type.group, next.metadata.name ?? '', causes);
  if (isServices(type)) next = allocateServiceFields(ctx.store, next, old);
  if (!options.apply && ctx.extensions.recordUpdate) {
    next = ctx.extensions.recordUpdate({ before: old, after: next, manager: options.manager, now: ctx.now(), type, ...(options.subresource ? { subresource: options.subresource } : {}) });
  }
  return next;
}

/** kube-apiserver's EnsureObjectNamespaceMatchesRequestNamespace. */
export function withRequestNamespace(object: KubeObject, requestNamespace: string | undefined): KubeObject {
  const ns = object.metadata.namespace ?? '';
  const wanted = requestNamespace ?? '';
  if (ns === wanted) return object;
  if (ns === '') return { ...object, metadata: { ...object.metadata, namespace: wanted } };
  if (wanted === '') {
    const { namespace: _dropped, ...metadata } = object.metadata;
    return { ...object, metadata: metadata as KubeObject['metadata'] };
  }
  throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** A custom resource with the status subresource is created without status, as apiextensions' strategy does. */
function withoutCreateStatus(type: ResourceType, object: KubeObject): KubeObject {
  if (!type.custom || !type.subresources.includes('status') || object['status'] === undefined) return object;
  const { status: _status, ...rest } = object;
  return rest as KubeObject;
}

/** Stores a new object after the full write pipeline; 201 with the stored (or dry-run) object. */
export function createObject(ctx: ServerContext, type: ResourceType, incoming: KubeObject, options: PrepareOptions & { dryRun: boolean }): Reply {
  ensureNamespaceAcceptsCreate(ctx.store, type, incoming.metadata.namespace, incoming.metadata.name ?? '');
  const object = withoutCreateStatus(type, incoming);
  // Defaulting and validation run inside the store's create, after it assigns uid and name:
  // a Job's generated selector is built from its uid, as kube-apiserver's PrepareForCreate does.
  const stored = ctx.store.create(storageType(type), fromWire(type, object), {
    dryRun: options.dryRun,
    admit: (assigned) => {
      const prepared = fromWire(type, prepareForStorage(ctx, type, toWire(type, assigned), undefined, options));
      // The ResourceQuota admission plugin runs after defaulting and validation, on the named pod.
      if (type.group === '' && type.plural === 'pods') admitPodQuota(ctx.store, prepared);
      return prepared;
    },
  });
  return { code: 201, body: toWire(type, stored) };
}

/**
 * The request body as an object of `type`, decoded strictly under the request's
 * `fieldValidation` (unknown fields dropped; a 400 for type errors, and under Strict for
 * unknown or repeated fields). Protobuf bodies carry no unknown fields to check.
 */
export function decodeWriteBody(req: ApiRequest, type: ResourceType, optionsKind: WriteOptionsKind): Validated {
  const directive = fieldValidationOf(req.query, optionsKind);
  const object = parseObjectBody(req, type);
  if (type.custom) return validateCustomResourceFields(type, object, directive);
  const mediaType = baseMediaType(req.headers['content-type']) || 'application/json';
  if (mediaType !== 'application/json' && mediaType !== 'application/yaml') return { object, warnings: [] };
  return validateBody({ object, endpointKind: type.kind, directive, ...(mediaType === 'application/json' ? { jsonText: req.body } : {}) });
}

/** The reply with the request's field validation warnings. */
export function withWarnings(reply: Reply, warnings: readonly string[]): Reply {
  return warnings.length > 0 ? { ...reply, warnings: [...(reply.warnings ?? []), ...warnings] } : reply;
}

/** POST to a collection. */
export function handleCreate(ctx: ServerContext, req: ApiRequest, route: ResourceRoute): Reply {
  const dryRun = dryRunOf(req, 'CreateOptions');
  const { object, warnings } = decodeWriteBody(req, route.type, 'CreateOptions');
  return withWarnings(createObject(ctx, route.type, withRequestNamespace(object, route.namespace), { dryRun, manager: fieldManagerOf(req) }), warnings);
}

/** The update handler's checkName: body name and namespace must agree with the URL. */
function checkName(object: KubeObject, route: ResourceRoute & { name: string }): KubeObject {
  const name = object.metadata.name ?? '';
  if (name !== route.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${route.name})`);
  const ns = object.metadata.namespace ?? '';
  if (route.namespace && ns && ns !== route.namespace) {
    throw badRequest(`the namespace of the object (${ns}) does not match the namespace on the URL (${route.namespace})`);
  }
  return withRequestNamespace(object, route.namespace);
}

/** 409 before any other work when the client's resourceVersion precondition is stale. */
export function checkResourceVersion(type: ResourceType, live: KubeObject, incoming: KubeObject): void {
  const rv = incoming.metadata.resourceVersion;
  if (rv && rv !== live.metadata.resourceVersion) {
    throw conflict(type.plural, type.group, live.metadata.name, 'the object has been modified; please apply your changes to the latest version and try again');
  }
}

/** Writes an updated object (whole object, or only its status) and answers 200. */
export function storeUpdate(ctx: ServerContext, type: ResourceType, prepared: KubeObject, options: { dryRun: boolean; status: boolean }): Reply {
  const stored = ctx.store.update(storageType(type), fromWire(type, prepared), { dryRun: options.dryRun, ...(options.status ? { subresource: 'status' as const } : {}) });
  return { code: 200, body: toWire(type, stored) };
}

/** The object a /status write produces: the live object with the new status. */
export function withStatusOf(live: KubeObject, incoming: KubeObject): KubeObject {
  const next: KubeObject = { ...live, metadata: { ...live.metadata, ...(incoming.metadata.resourceVersion ? { resourceVersion: incoming.metadata.resourceVersion } : {}) } };
  if (incoming['status'] === undefined) delete next['status'];
  else next['status'] = incoming['status'];
  return next;
}

/** PUT of an object or its /status. */
export function handleUpdate(ctx: ServerContext, req: ApiRequest, route: ResourceRoute & { name: string }): Reply {
  const { type } = route;
  const dryRun = dryRunOf(req, 'UpdateOptions');
  const { object: decoded, warnings } = decodeWriteBody(req, type, 'UpdateOptions');
  const object = checkName(decoded, route);
  const live = liveObject(ctx, route);
  checkResourceVersion(type, live, object);
  const manager = fieldManagerOf(req);
  if (route.subresource === 'status') {
    const merged = withStatusOf(live, object);
    const causes = ctx.extensions.validate(type, merged, live);
    if (causes.length > 0) throw invalid(type.kind, type.group, route.name, causes);
    const recorded = ctx.extensions.recordUpdate ? ctx.extensions.recordUpdate({ before: live, after: merged, manager, now: ctx.now(), type, subresource: 'status' }) : merged;
    return withWarnings(storeUpdate(ctx, type, recorded, { dryRun, status: true }), warnings);
  }
  const prepared = prepareForStorage(ctx, type, object, live, { manager });
  return withWarnings(storeUpdate(ctx, type, prepared, { dryRun, status: false }), warnings);
}
