/**
 * Children of one resource type grouped by controller uid, plus the orphans per namespace (the
 * adoption candidates), maintained from store changes: a controller finds its children without
 * scanning every object of the namespace on each reconcile.
 */
import type { Change } from '../changelog.ts';
import { objectKey, type ObjectStore } from '../store.ts';
import type { ResourceType } from '../resources.ts';
import { resourceId } from '../resources.ts';
import type { KubeObject } from '../types.ts';
import { controllerRef } from './owner.ts';

export class OwnerIndex {
  private readonly type: ResourceType;
  private readonly id: string;
  private readonly byOwner = new Map<string, Set<string>>();
  private readonly orphans = new Map<string, Set<string>>();
  /** child key -> where it is filed (owner uid, or `orphan:<namespace>`). */
  private readonly filed = new Map<string, string>();

  constructor(type: ResourceType) {
    this.type = type;
    this.id = resourceId(type);
  }

  /** Re-files everything in the store (at controller start). */
  rebuild(store: ObjectStore): void {
    this.byOwner.clear();
    this.orphans.clear();
    this.filed.clear();
    for (const obj of store.all(this.type)) this.file(objectKey(obj.metadata.namespace, obj.metadata.name), obj);
  }

  /** Keeps the index current; call from `keysFor` with every change. */
  observe(change: Change): void {
    if (change.resource !== this.id) return;
    this.file(change.key, change.type === 'DELETED' ? undefined : change.object);
  }

  private bucket(map: Map<string, Set<string>>, key: string): Set<string> {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    return set;
  }

  private file(key: string, obj: KubeObject | undefined): void {
    const previous = this.filed.get(key);
    if (previous !== undefined) {
      const map = previous.startsWith('orphan:') ? this.orphans : this.byOwner;
      const name = previous.startsWith('orphan:') ? previous.slice(7) : previous;
      map.get(name)?.delete(key);
      if (map.get(name)?.size === 0) map.delete(name);
      this.filed.delete(key);
    }
    if (!obj) return;
    const ref = controllerRef(obj);
    if (ref) {
      this.bucket(this.byOwner, ref.uid).add(key);
      this.filed.set(key, ref.uid);
    } else {
      const namespace = obj.metadata.namespace ?? '';
      this.bucket(this.orphans, namespace).add(key);
      this.filed.set(key, `orphan:${namespace}`);
    }
  }

  private resolve(store: ObjectStore, keys: Iterable<string>): KubeObject[] {
    const out: KubeObject[] = [];
    for (const key of keys) {
      const slash = key.indexOf('/');
      const obj = slash >= 0 ? store.find(this.type, key.slice(0, slash), key.slice(slash + 1)) : store.find(this.type, undefined, key);
      if (obj) out.push(obj);
    }
    return out.sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0));
  }

  /** Objects whose controller is `ownerUid`, by name. */
  controlledBy(store: ObjectStore, ownerUid: string): KubeObject[] {
    return this.resolve(store, this.byOwner.get(ownerUid) ?? []);
  }

  /** Objects without a controller in `namespace`, by name. */
  orphansIn(store: ObjectStore, namespace: string | undefined): KubeObject[] {
    return this.resolve(store, this.orphans.get(namespace ?? '') ?? []);
  }
}
