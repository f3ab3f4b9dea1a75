/**
 * ownerReference helpers shared by the controllers: who controls an object, building the
 * controller reference a child carries, and mapping a store change to its owners' keys.
 */
import type { Change } from '../changelog.ts';
import type { KubeObject, OwnerReference } from '../types.ts';
import type { ReconcileKey } from './runtime.ts';

/** The controlling ownerReference of `obj` (the one with `controller: true`), like GetControllerOf. */
export function controllerRef(obj: KubeObject): OwnerReference | undefined {
  return (obj.metadata.ownerReferences ?? []).find((ref) => ref.controller === true);
}

/** The reference a child created by `owner` carries: controller, and blocking foreground deletion. */
export function newControllerRef(owner: KubeObject): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    uid: owner.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** Whether `owner` is the controller of `child` (matched by uid, as the API does). */
export function isControlledBy(child: KubeObject, owner: KubeObject): boolean {
  return controllerRef(child)?.uid === owner.metadata.uid;
}

/**
 * Keys of the controllers of kind `ownerKind` that control the changed object, before and
 * after the change (a child moving owners wakes both), for a parent controller's `keysFor`.
 */
export function ownerKeysFor(change: Change, ownerKind: string, ownerResource: string): ReconcileKey[] {
  const keys: ReconcileKey[] = [];
  const seen = new Set<string>();
  for (const object of [change.object, change.old]) {
    if (!object) continue;
    const ref = controllerRef(object);
    if (!ref || ref.kind !== ownerKind || seen.has(ref.name)) continue;
    seen.add(ref.name);
    keys.push({ resource: ownerResource, namespace: object.metadata.namespace, name: ref.name });
  }
  return keys;
}

/** Adds `owner` as controller of a private copy of `child`'s metadata (adoption). */
export function withControllerRef(child: KubeObject, owner: KubeObject): KubeObject {
  const refs = (child.metadata.ownerReferences ?? []).filter((ref) => ref.uid !== owner.metadata.uid);
  return { ...child, metadata: { ...child.metadata, ownerReferences: [...refs, newControllerRef(owner)] } };
}
