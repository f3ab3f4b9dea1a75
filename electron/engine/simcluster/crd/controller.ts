/**
 * The apiextensions-apiserver's CRD controllers in one: the naming controller (accepts a CRD's
 * names unless another CRD of the group uses them; NamesAccepted), the establishing controller
 * (Established), discovery and handler registration (the store's ResourceRegistry, updated in the
 * same turn as the CRD's write so discovery shows it at once), and the finalizer controller that
 * deletes a deleted CRD's custom resources before letting it go.
 *
 * Status writes and instance cleanup run a tick later (setImmediate), as the real controllers run
 * after the write that triggered them.
 */
import type { Change } from '../changelog.ts';
import { typeById } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { CRD_CLEANUP_FINALIZER } from './defaults-crd.ts';
import { crdSpecOf, crdStatusOf, storageVersionOf, typesForCrd } from './serve.ts';
import type { CrdCondition, CrdNames, CrdStatus } from './types.ts';

const CRDS = typeById('customresourcedefinitions.apiextensions.k8s.io');
/** The store id of CustomResourceDefinitions. */
export const CRD_RESOURCE = 'customresourcedefinitions.apiextensions.k8s.io';

const attached = new WeakMap<ObjectStore, CrdController>();

/** Starts (once per store) the CRD controllers; later calls return the running one. */
export function attachCrdController(store: ObjectStore, options: { now?: () => number } = {}): CrdController {
  let controller = attached.get(store);
  if (!controller) {
    controller = new CrdController(store, options.now ?? Date.now);
    attached.set(store, controller);
  }
  return controller;
}

function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function namesOf(names: CrdNames): string[] {
  return [names.plural, names.singular ?? '', ...(names.shortNames ?? [])].filter((n) => n !== '');
}

/** The running CRD controllers of one store (see the file comment); made by `attachCrdController`. */
export class CrdController {
  private readonly store: ObjectStore;
  private readonly now: () => number;
  private readonly pending = new Set<string>();
  /** Terminating CRDs (by uid) seen without instances once; the next look lets them go. */
  private readonly drained = new Set<string>();
  private scheduled = false;

  constructor(store: ObjectStore, now: () => number) {
    this.store = store;
    this.now = now;
    store.onChange((change) => this.onChange(change));
    for (const crd of this.crds()) this.sync(crd);
  }

  private crds(): KubeObject[] {
    return CRDS ? this.store.all(CRDS) : [];
  }

  private onChange(change: Change): void {
    if (change.resource === CRD_RESOURCE) {
      if (change.type === 'DELETED') this.store.types.removeCustom(change.object.metadata.name);
      else this.sync(change.object);
      return;
    }
    // An instance of a terminating CRD going away may let the CRD go.
    if (change.type === 'DELETED') {
      const crdName = change.resource;
      const crd = CRDS ? this.store.find(CRDS, undefined, crdName) : undefined;
      if (crd?.metadata.deletionTimestamp) this.later(crdName);
    }
  }

  /** Names `crd` may have: the requested ones unless another CRD of its group holds one of them. */
  private acceptedNames(crd: KubeObject): { names: CrdNames; conflict?: { reason: string; message: string } } {
    const spec = crdSpecOf(crd);
    const taken = { names: new Set<string>(), kinds: new Set<string>() };
    for (const other of this.crds()) {
      if (other.metadata.name === crd.metadata.name || crdSpecOf(other).group !== spec.group) continue;
      const accepted = crdStatusOf(other).acceptedNames;
      if (!accepted?.plural) continue;
      for (const n of namesOf(accepted)) taken.names.add(n);
      taken.kinds.add(accepted.kind);
      if (accepted.listKind) taken.kinds.add(accepted.listKind);
    }
    const requested = spec.names;
    const listKind = requested.listKind ?? `${requested.kind}List`;
    const checks: Array<[string, string | undefined, Set<string>]> = [
      ['PluralConflict', requested.plural, taken.names],
      ['SingularConflict', requested.singular, taken.names],
      ['KindConflict', requested.kind, taken.kinds],
      ['ListKindConflict', listKind, taken.kinds],
    ];
    for (const [reason, value, set] of checks) if (value && set.has(value)) return { names: requested, conflict: { reason, message: `${JSON.stringify(value)} is already in use` } };
    const shortConflict = (requested.shortNames ?? []).find((s) => taken.names.has(s));
    if (shortConflict) return { names: requested, conflict: { reason: 'ShortNamesConflict', message: `${JSON.stringify(shortConflict)} is already in use` } };
    return { names: { ...requested, listKind } };
  }

  /** Serves (or stops serving) the CRD's kinds now, and queues its status update. */
  private sync(crd: KubeObject): void {
    const name = crd.metadata.name;
    const { names, conflict } = this.acceptedNames(crd);
    const previous = crdStatusOf(crd).acceptedNames;
    const served = conflict ? (previous?.plural ? previous : undefined) : names;
    this.store.types.setCustom(name, served ? typesForCrd(crd, served) : []);
    this.later(name);
  }

  private later(name: string): void {
    this.pending.add(name);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const names = [...this.pending];
      this.pending.clear();
      for (const n of names) this.reconcile(n);
    });
  }

  private reconcile(name: string): void {
    const crd = CRDS ? this.store.find(CRDS, undefined, name) : undefined;
    if (!crd || !CRDS) return;
    if (crd.metadata.deletionTimestamp) {
      this.cleanUp(crd);
      return;
    }
    const status = this.desiredStatus(crd);
    if (JSON.stringify(status) === JSON.stringify(crd['status'])) return;
    this.store.update(CRDS, { ...crd, status }, { subresource: 'status' });
  }

  private condition(crd: KubeObject, next: Omit<CrdCondition, 'lastTransitionTime'>): CrdCondition {
    const old = crdStatusOf(crd).conditions?.find((c) => c.type === next.type);
    const lastTransitionTime = old && old.status === next.status && old.lastTransitionTime ? old.lastTransitionTime : timestamp(this.now());
    return { type: next.type, status: next.status, lastTransitionTime, ...(next.reason ? { reason: next.reason } : {}), ...(next.message ? { message: next.message } : {}) };
  }

  private desiredStatus(crd: KubeObject): CrdStatus {
    const spec = crdSpecOf(crd);
    const current = crdStatusOf(crd);
    const { names, conflict } = this.acceptedNames(crd);
    const namesAccepted = conflict
      ? this.condition(crd, { type: 'NamesAccepted', status: 'False', reason: conflict.reason, message: conflict.message })
      : this.condition(crd, { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' });
    const wasEstablished = current.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    const established =
      conflict && !wasEstablished
        ? this.condition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' })
        : this.condition(crd, { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' });
    const storage = storageVersionOf(spec);
    const storedVersions = current.storedVersions ?? [];
    return {
      acceptedNames: conflict ? (current.acceptedNames ?? { plural: '', kind: '' }) : names,
      conditions: [namesAccepted, established],
      storedVersions: storedVersions.includes(storage) ? storedVersions : [...storedVersions, storage],
    };
  }

  /**
   * The finalizer controller: delete every instance (the kinds stay served meanwhile, so the
   * garbage collector still resolves them as owners of what they owned), and once none is left,
   * a turn later, drop the cleanup finalizer.
   */
  private cleanUp(crd: KubeObject): void {
    if (!CRDS) return;
    const spec = crdSpecOf(crd);
    const id = `${spec.names.plural}.${spec.group}`;
    const type = this.store.types.byId(id) ?? { ...CRDS, group: spec.group, plural: spec.names.plural, kind: spec.names.kind, namespaced: spec.scope === 'Namespaced' };
    const instances = this.store.all(type);
    // Their DELETED events bring the CRD back here (see onChange).
    for (const object of instances) {
      if (!object.metadata.deletionTimestamp) this.store.delete(type, object.metadata.namespace, object.metadata.name);
    }
    if (instances.length > 0) return;
    // Empty for a whole turn first: the garbage collector's reconciles queued by the deletes run in between.
    if (!this.drained.has(crd.metadata.uid)) {
      this.drained.add(crd.metadata.uid);
      this.later(crd.metadata.name);
      return;
    }
    this.drained.delete(crd.metadata.uid);
    if (!(crd.metadata.finalizers ?? []).includes(CRD_CLEANUP_FINALIZER)) return;
    this.store.mutate(CRDS, undefined, crd.metadata.name, (copy) => {
      const finalizers = (copy.metadata.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      if (finalizers.length > 0) copy.metadata.finalizers = finalizers;
      else delete copy.metadata.finalizers;
    });
  }
}
