/**
 * garbage-collector: keeps an owner -> dependents graph from ownerReferences and
 * - deletes dependents whose owners are all gone (Background propagation),
 * - for owners marked with the `foregroundDeletion` finalizer, deletes their dependents and
 *   drops the finalizer once no blocking (blockOwnerDeletion) dependent is left,
 * - for owners marked `orphan`, strips their ownerReferences from dependents, then drops it.
 * Follows upstream's attemptToDeleteItem / processDeletingDependentsItem / orphanDependents.
 */
import type { Change } from '../changelog.ts';
import { BUILT_IN_REGISTRY, type ResourceRegistry } from '../registry.ts';
import { resourceId } from '../resources.ts';
import type { KubeObject, OwnerReference } from '../types.ts';
import { deletePod } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';

export const GARBAGE_COLLECTOR = 'garbage-collector-controller';
const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
/** Events never own anything; leaving them out keeps the graph small. */
const SKIPPED = new Set(['events', 'events.events.k8s.io']);

function keyId(key: ReconcileKey): string {
  return `${key.resource}|${key.namespace ?? ''}|${key.name}`;
}

function ownerKey(types: ResourceRegistry, ref: OwnerReference, namespace: string | undefined): ReconcileKey | undefined {
  const type = types.byApiVersionKind(ref.apiVersion, ref.kind);
  if (!type) return undefined;
  return type.namespaced ? { resource: resourceId(type), namespace, name: ref.name } : { resource: resourceId(type), name: ref.name };
}

function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return (obj.metadata.finalizers ?? []).includes(finalizer);
}

export class GarbageCollector implements Controller {
  readonly name = GARBAGE_COLLECTOR;
  /** owner uid -> dependents' keys. */
  private readonly dependents = new Map<string, Map<string, ReconcileKey>>();
  /** dependent key -> the owner uids it was indexed under. */
  private readonly owners = new Map<string, string[]>();
  /** The kinds the cluster serves, custom ones included; the store's registry once started. */
  private types: ResourceRegistry = BUILT_IN_REGISTRY;

  keysFor(change: Change): ReconcileKey[] {
    if (SKIPPED.has(change.resource)) return [];
    const { object, old } = change;
    const key: ReconcileKey = { resource: change.resource, namespace: object.metadata.namespace, name: object.metadata.name };
    const deleted = change.type === 'DELETED';
    this.index(key, deleted ? [] : object.metadata.ownerReferences ?? []);
    const keys: ReconcileKey[] = [];
    if (deleted) keys.push(...(this.dependents.get(object.metadata.uid)?.values() ?? []));
    if (!deleted && object.metadata.deletionTimestamp && (hasFinalizer(object, FOREGROUND) || hasFinalizer(object, ORPHAN))) keys.push(key);
    const refsChanged = JSON.stringify(old?.metadata.ownerReferences) !== JSON.stringify(object.metadata.ownerReferences);
    if (!deleted && (object.metadata.ownerReferences ?? []).length > 0 && (change.type === 'ADDED' || refsChanged)) keys.push(key);
    // A dependent going away may be what an owner's foreground deletion is waiting for.
    if (deleted || refsChanged || (object.metadata.deletionTimestamp && !old?.metadata.deletionTimestamp)) {
      for (const ref of [...(old?.metadata.ownerReferences ?? []), ...(object.metadata.ownerReferences ?? [])]) {
        const owner = ownerKey(this.types, ref, object.metadata.namespace);
        if (owner) keys.push(owner);
      }
    }
    return keys;
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    this.types = ctx.store.types;
    const keys: ReconcileKey[] = [];
    for (const type of this.types.all()) {
      const resource = resourceId(type);
      if (SKIPPED.has(resource)) continue;
      for (const obj of ctx.store.all(type)) {
        const key: ReconcileKey = { resource, namespace: obj.metadata.namespace, name: obj.metadata.name };
        this.index(key, obj.metadata.ownerReferences ?? []);
        if ((obj.metadata.ownerReferences ?? []).length > 0 || hasFinalizer(obj, FOREGROUND) || hasFinalizer(obj, ORPHAN)) keys.push(key);
      }
    }
    return keys;
  }

  private index(key: ReconcileKey, refs: OwnerReference[]): void {
    const id = keyId(key);
    for (const uid of this.owners.get(id) ?? []) {
      const set = this.dependents.get(uid);
      set?.delete(id);
      if (set?.size === 0) this.dependents.delete(uid);
    }
    if (refs.length === 0) {
      this.owners.delete(id);
      return;
    }
    this.owners.set(id, refs.map((r) => r.uid));
    for (const ref of refs) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Map()));
      set.set(id, key);
    }
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): void {
    const type = this.types.byId(key.resource);
    const obj = type && ctx.store.find(type, key.namespace, key.name);
    if (!type || !obj) return;
    if (obj.metadata.deletionTimestamp && hasFinalizer(obj, ORPHAN)) this.orphanDependents(ctx, obj);
    else if (obj.metadata.deletionTimestamp && hasFinalizer(obj, FOREGROUND)) this.deleteDependents(ctx, obj);
    const current = ctx.store.find(type, key.namespace, key.name);
    if (current && (current.metadata.ownerReferences ?? []).length > 0) this.attemptToDelete(ctx, key, current);
  }

  /** The live dependents of `owner` (re-checked against the store). */
  private liveDependents(ctx: ControllerContext, owner: KubeObject): Array<{ key: ReconcileKey; obj: KubeObject; ref: OwnerReference }> {
    const out: Array<{ key: ReconcileKey; obj: KubeObject; ref: OwnerReference }> = [];
    for (const key of this.dependents.get(owner.metadata.uid)?.values() ?? []) {
      const type = this.types.byId(key.resource);
      const obj = type && ctx.store.find(type, key.namespace, key.name);
      const ref = obj?.metadata.ownerReferences?.find((r) => r.uid === owner.metadata.uid);
      if (obj && ref) out.push({ key, obj, ref });
    }
    return out;
  }

  private removeFinalizer(ctx: ControllerContext, owner: KubeObject, finalizer: string): void {
    const type = this.types.byApiVersionKind(owner.apiVersion, owner.kind);
    if (!type) return;
    ctx.store.mutate(type, owner.metadata.namespace, owner.metadata.name, (copy) => {
      const finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== finalizer);
      if (finalizers.length > 0) copy.metadata.finalizers = finalizers;
      else delete copy.metadata.finalizers;
    });
  }

  private orphanDependents(ctx: ControllerContext, owner: KubeObject): void {
    for (const { key, obj } of this.liveDependents(ctx, owner)) {
      const type = this.types.byId(key.resource);
      if (!type) continue;
      ctx.store.mutate(type, obj.metadata.namespace, obj.metadata.name, (copy) => {
        const refs = (copy.metadata.ownerReferences ?? []).filter((r) => r.uid !== owner.metadata.uid);
        if (refs.length > 0) copy.metadata.ownerReferences = refs;
        else delete copy.metadata.ownerReferences;
      });
    }
    this.removeFinalizer(ctx, owner, ORPHAN);
  }

  private deleteDependents(ctx: ControllerContext, owner: KubeObject): void {
    const live = this.liveDependents(ctx, owner);
    for (const { key, obj } of live) if (!obj.metadata.deletionTimestamp) this.deleteObject(ctx, key, obj, { foreground: this.hasDependents(obj) });
    const blocking = this.liveDependents(ctx, owner).filter(({ ref }) => ref.blockOwnerDeletion === true);
    if (blocking.length === 0) this.removeFinalizer(ctx, owner, FOREGROUND);
  }

  private hasDependents(obj: KubeObject): boolean {
    return (this.dependents.get(obj.metadata.uid)?.size ?? 0) > 0;
  }

  private deleteObject(ctx: ControllerContext, key: ReconcileKey, obj: KubeObject, options: { foreground: boolean }): void {
    const type = this.types.byId(key.resource);
    if (!type) return;
    if (key.resource === 'pods' && !options.foreground) {
      deletePod(ctx.store, obj);
      return;
    }
    ctx.store.delete(type, obj.metadata.namespace, obj.metadata.name, { propagationPolicy: options.foreground ? 'Foreground' : 'Background', preconditions: { uid: obj.metadata.uid } });
  }

  /** attemptToDeleteItem: classify owners as solid, dangling or waiting, and act. */
  private attemptToDelete(ctx: ControllerContext, key: ReconcileKey, obj: KubeObject): void {
    if (obj.metadata.deletionTimestamp && !hasFinalizer(obj, FOREGROUND)) return;
    const solid: OwnerReference[] = [];
    const gone: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of obj.metadata.ownerReferences ?? []) {
      const type = this.types.byApiVersionKind(ref.apiVersion, ref.kind);
      if (!type) {
        solid.push(ref);
        continue;
      }
      const owner = ctx.store.find(type, type.namespaced ? obj.metadata.namespace : undefined, ref.name);
      if (!owner || owner.metadata.uid !== ref.uid) gone.push(ref);
      else if (owner.metadata.deletionTimestamp && hasFinalizer(owner, FOREGROUND) && ref.blockOwnerDeletion) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (gone.length === 0 && waiting.length === 0) return;
      const drop = new Set([...gone, ...waiting].map((r) => r.uid));
      const type = this.types.byId(key.resource);
      if (!type) return;
      ctx.store.mutate(type, obj.metadata.namespace, obj.metadata.name, (copy) => {
        copy.metadata.ownerReferences = (copy.metadata.ownerReferences ?? []).filter((r) => !drop.has(r.uid));
      });
      return;
    }
    if (obj.metadata.deletionTimestamp) return;
    this.deleteObject(ctx, key, obj, { foreground: waiting.length > 0 && this.hasDependents(obj) });
  }
}
