/**
 * The simulated API server's object store: one cluster-wide monotonic resourceVersion, uid and
 * generation bookkeeping, finalizer-aware deletion, a retained change log for watches and exact
 * lists, and synchronous fan-out to watches and in-process controllers.
 *
 * Stored objects are treated as immutable: every write stores a fresh copy, and readers must not
 * mutate what they get (use `mutate` for read-modify-write).
 */
import { randomUUID } from 'node:crypto';
import { ChangeLog, objectsAt, WATCH_CACHE_UPPER_BOUND, type Change } from './changelog.ts';
import { alreadyExists, conflict, gone, invalid, notFound } from './errors.ts';
import { JsonTexts } from './json-texts.ts';
import { inObjectMetaOrder } from './meta-order.ts';
import { copyJson, copyOnto, sameJson } from './json-values.ts';
import { ResourceRegistry } from './registry.ts';
import { resourceId, type ResourceType } from './resources.ts';
import { SortedIndex } from './sorted-index.ts';
import type { IncomingObject, KubeObject } from './types.ts';

/** Changes kept whatever their age (the watch cache's window when no time-based growth applies). */
const DEFAULT_RETAINED_CHANGES = 50_000;

export interface StoreOptions {
  now?: () => number;
  uid?: () => string;
  /**
   * How many changes stay replayable for watches and exact lists whatever their age (50,000 by
   * default). By default, changes of the last 75 s also stay, up to 102,400, as in
   * kube-apiserver's watch cache; given a number, exactly that many stay.
   */
  retainedChanges?: number;
}

export interface WriteOptions {
  dryRun?: boolean;
  /** Write only `.status` (the /status subresource) or everything but it. */
  subresource?: 'status';
  /**
   * Create only: runs on the object once uid, name and timestamps are set and before it is
   * stored (or returned for a dry run), as kube-apiserver's PrepareForCreate + Validate do;
   * the Job selector needs the uid. Returns the object to store; throw an ApiError to refuse.
   */
  admit?: (object: KubeObject) => KubeObject;
}

export type DeletePropagation = 'Foreground' | 'Background' | 'Orphan';

export interface DeleteOptions {
  dryRun?: boolean;
  propagationPolicy?: DeletePropagation;
  /**
   * Above zero, the object is only marked (deletionTimestamp = now + grace) and lives on until
   * a later delete with 0 (what kubelet does for a pod it has stopped), as pods are deleted.
   */
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export type ChangeListener = (change: Change) => void;

/** Kinds whose metadata.generation tracks spec changes: these groups' and every custom kind. */
const GENERATION_GROUPS = new Set(['apps', 'batch', 'autoscaling', 'apiextensions.k8s.io']);

function tracksGeneration(type: ResourceType): boolean {
  return GENERATION_GROUPS.has(type.group) || type.custom !== undefined;
}
const NAME_RE = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const GENERATE_SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';

/** Why a name is no valid path segment (apimachinery's IsValidPathSegmentName), for RBAC's names. */
function pathSegmentProblem(name: string): string | undefined {
  if (name === '.' || name === '..') return `may not be '${name}'`;
  for (const c of ['/', '%']) if (name.includes(c)) return `may not contain '${c}'`;
  return undefined;
}

export function objectKey(namespace: string | undefined, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** A Namespace's `spec.finalizers` (`kubernetes`): it lives on, Terminating, until they are gone. */
function namespaceFinalizers(type: ResourceType, object: KubeObject): string[] {
  if (type.group !== '' || type.kind !== 'Namespace') return [];
  return (object['spec'] as { finalizers?: string[] } | undefined)?.finalizers ?? [];
}

/** What generation does not track: everything but these is the spec. */
const NOT_SPEC = new Set(['metadata', 'status']);
/** A custom kind without the status subresource counts its status as spec too, as apiextensions does. */
const METADATA_ONLY = new Set(['metadata']);

export class ObjectStore {
  private rv = 0;
  private readonly data = new Map<string, Map<string, KubeObject>>();
  private readonly sorted = new Map<string, SortedIndex<KubeObject> | null>();
  /** Current objects' JSON, made once for every list and watch that sends them (json-texts.ts). */
  private readonly json = new JsonTexts<KubeObject>();
  private readonly log: ChangeLog;
  /** `allAt`'s last answer (a version's objects never change; the window check comes first). */
  private lastAt: { id: string; rv: number; namespace: string | undefined; objects: readonly KubeObject[] } | undefined;
  private readonly listeners = new Set<ChangeListener>();
  private readonly now: () => number;
  private readonly uid: () => string;
  /** The kinds this cluster serves: built-in ones and those its CRDs add. */
  readonly types = new ResourceRegistry();

  constructor(options: StoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.uid = options.uid ?? randomUUID;
    this.log = new ChangeLog(options.retainedChanges !== undefined ? options.retainedChanges : { capacity: DEFAULT_RETAINED_CHANGES, upperBound: WATCH_CACHE_UPPER_BOUND });
  }

  /** The newest resourceVersion. */
  currentRv(): number {
    return this.rv;
  }

  oldestServableRv(): number {
    return this.log.oldestServable();
  }

  /** Drops replayable history up to now: the next watch from an older rv gets 410 Gone. */
  compact(): void {
    this.log.compact(this.rv);
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private bucket(type: ResourceType): Map<string, KubeObject> {
    const id = resourceId(type);
    let bucket = this.data.get(id);
    if (!bucket) {
      bucket = new Map();
      this.data.set(id, bucket);
    }
    return bucket;
  }

  get(type: ResourceType, namespace: string | undefined, name: string): KubeObject {
    const object = this.find(type, namespace, name);
    if (!object) throw notFound(type.plural, type.group, name);
    return object;
  }

  find(type: ResourceType, namespace: string | undefined, name: string): KubeObject | undefined {
    return this.bucket(type).get(objectKey(type.namespaced ? namespace : undefined, name));
  }

  /** All objects of a type (optionally one namespace), in key order, at the current rv. */
  all(type: ResourceType, namespace?: string): KubeObject[] {
    const id = resourceId(type);
    let index = this.sorted.get(id);
    if (!index) {
      index = new SortedIndex(this.bucket(type));
      this.sorted.set(id, index);
    }
    return index.range(namespace ? `${namespace}/` : '');
  }

  /** The simulator stopped: its JSON is no longer made while idle nor kept (json-texts.ts). */
  close(): void {
    this.json.close();
  }

  /** Current objects whose JSON the store has still to make while idle (json-texts.ts). */
  jsonBacklog(): number {
    return this.json.backlog();
  }

  /**
   * `JSON.stringify(object)`: the text made of a current object while the store was idle, or the
   * newest one serialised on demand (a watch event, once for every watch), else made now.
   */
  toJson(object: KubeObject): string {
    return this.json.get(object);
  }

  /** `toJson(object)` as UTF-8 bytes, kept for idle objects (list pages copy them as they are). */
  toJsonBytes(object: KubeObject): Buffer {
    return this.json.bytes(object);
  }

  /**
   * Objects of a type as they were at `rv` (for exact and paginated lists). The last answer is
   * kept: what a type held at a version never changes, and a paged list asks again for every
   * page (a 50,000-pod relist of 250-object pages rebuilt and sorted the whole set 200 times,
   * ~10 s of the serving thread under churn, where etcd reads one page at a revision).
   */
  allAt(type: ResourceType, rv: number, namespace?: string): readonly KubeObject[] {
    if (rv >= this.rv) return this.all(type, namespace);
    if (rv < this.log.oldestServable()) throw gone('The resourceVersion for the provided list is too old.');
    const id = resourceId(type);
    const kept = this.lastAt;
    if (kept && kept.id === id && kept.rv === rv && kept.namespace === namespace) return kept.objects;
    const objects = Object.freeze(objectsAt(this.bucket(type), this.log.since(rv), id, namespace));
    this.lastAt = { id, rv, namespace, objects };
    return objects;
  }

  /** Changes after `rv`, for a watch; throws 410 Gone when `rv` is older than the window. */
  changesSince(rv: number): Change[] {
    // kube-apiserver's words: the second number is its oldest event's resourceVersion minus one.
    if (rv < this.log.oldestServable()) throw gone(`too old resource version: ${rv} (${this.log.oldestServable()})`);
    return this.log.since(rv);
  }

  create(type: ResourceType, incoming: IncomingObject, options: WriteOptions = {}): KubeObject {
    const meta = { ...(incoming.metadata ?? {}) };
    let name = meta.name ?? '';
    if (!name && meta.generateName) name = this.generatedName(type, meta.namespace, meta.generateName);
    if (!name) throw invalid(type.kind, type.group, '', [{ field: 'metadata.name', reason: 'FieldValueRequired', message: 'Required value: name or generateName is required' }]);
    const segmentProblem = type.pathSegmentNames ? pathSegmentProblem(name) : undefined;
    if (segmentProblem) throw invalid(type.kind, type.group, name, [{ field: 'metadata.name', message: `Invalid value: "${name}": ${segmentProblem}` }]);
    if (!type.pathSegmentNames && (name.length > 253 || !NAME_RE.test(name))) {
      throw invalid(type.kind, type.group, name, [{ field: 'metadata.name', message: `Invalid value: "${name}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character` }]);
    }
    const namespace = type.namespaced ? meta.namespace : undefined;
    if (type.namespaced && !namespace) throw invalid(type.kind, type.group, name, [{ field: 'metadata.namespace', reason: 'FieldValueRequired', message: 'Required value' }]);
    const key = objectKey(namespace, name);
    if (this.bucket(type).has(key)) throw alreadyExists(type.plural, type.group, name);
    const nextRv = this.rv + 1;
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, deletionTimestamp: _dt, generation: _g, ...rest } = meta;
    const built: KubeObject = {
      // metadata is built below; the placeholder keeps its place in the key order.
      ...copyJson({ ...incoming, metadata: undefined }),
      metadata: {
        ...copyJson(rest),
        name,
        ...(namespace ? { namespace } : {}),
        uid: this.uid(),
        resourceVersion: String(nextRv),
        creationTimestamp: new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        ...(tracksGeneration(type) ? { generation: 1 } : {}),
      },
    } as KubeObject;
    const object = options.admit ? options.admit(built) : built;
    if (options.dryRun) {
      // kube-apiserver's dry-run storage never writes, so nothing assigns a resourceVersion.
      const { resourceVersion: _unassigned, ...metadata } = object.metadata;
      return { ...object, metadata } as KubeObject;
    }
    this.commit(type, 'ADDED', key, object, undefined);
    return object;
  }

  /**
   * Replaces an object. A resourceVersion on the incoming object must match (409 Conflict
   * otherwise); without one the update is unconditional, as kube-apiserver allows.
   */
  update(type: ResourceType, incoming: IncomingObject, options: WriteOptions = {}): KubeObject {
    const meta = incoming.metadata ?? {};
    const name = meta.name ?? '';
    const namespace = type.namespaced ? meta.namespace : undefined;
    const current = this.find(type, namespace, name);
    if (!current) throw notFound(type.plural, type.group, name);
    if (meta.resourceVersion && meta.resourceVersion !== current.metadata.resourceVersion) {
      throw conflict(type.plural, type.group, name, 'the object has been modified; please apply your changes to the latest version and try again');
    }
    if (meta.uid && meta.uid !== current.metadata.uid) {
      throw conflict(type.plural, type.group, name, `Precondition failed: UID in precondition: ${meta.uid}, UID in object meta: ${current.metadata.uid}`);
    }
    let next: KubeObject;
    const hasStatusSubresource = type.subresources.includes('status');
    if (options.subresource === 'status') {
      // A fresh metadata object: the stored one must not be mutated below. managedFields is the
      // one piece of metadata a status write may change.
      const managedFields = incoming.metadata?.managedFields;
      next = { ...current, metadata: { ...current.metadata, ...(managedFields ? { managedFields: copyOnto(managedFields, current.metadata.managedFields) } : {}) }, status: copyOnto((incoming as KubeObject)['status'], current['status']) } as KubeObject;
    } else {
      // Shares the unchanged parts with the stored object; copies what the caller changed.
      const cloned = copyOnto(incoming, current) as KubeObject;
      next = {
        ...cloned,
        metadata: {
          ...cloned.metadata,
          name: current.metadata.name,
          ...(current.metadata.namespace ? { namespace: current.metadata.namespace } : {}),
          uid: current.metadata.uid,
          creationTimestamp: current.metadata.creationTimestamp,
          ...(current.metadata.deletionTimestamp ? { deletionTimestamp: current.metadata.deletionTimestamp } : {}),
        },
      } as KubeObject;
      delete next.metadata.generation;
      if (hasStatusSubresource) {
        if (current['status'] === undefined) delete next['status'];
        else next['status'] = current['status'];
      }
    }
    next.apiVersion = current.apiVersion;
    next.kind = current.kind;
    if (current.metadata.generation !== undefined) {
      const ignoreKeys = type.custom && !hasStatusSubresource ? METADATA_ONLY : NOT_SPEC;
      next.metadata.generation = sameJson(next, current, { ignoreKeys }) ? current.metadata.generation : current.metadata.generation + 1;
    }
    next.metadata.resourceVersion = current.metadata.resourceVersion;
    next.metadata = inObjectMetaOrder(next.metadata);
    if (sameJson(next, current)) return current;
    // A dry run answers with the live resourceVersion, as kube-apiserver's dry-run storage does:
    // `kubectl diff` then shows no resourceVersion change.
    if (options.dryRun) return next;
    next.metadata.resourceVersion = String(this.rv + 1);
    const key = objectKey(namespace, name);
    // As kube-apiserver's ShouldDeleteDuringUpdate: finalizers emptied on an object whose
    // grace period is over; a pod still in its graceful termination keeps taking updates.
    if (next.metadata.deletionTimestamp && (next.metadata.finalizers ?? []).length === 0 && namespaceFinalizers(type, next).length === 0 && (current.metadata.deletionGracePeriodSeconds ?? 0) === 0) {
      this.commit(type, 'DELETED', key, next, current);
    } else {
      this.commit(type, 'MODIFIED', key, next, current);
    }
    return next;
  }

  /** Read-modify-write of the current object; `fn` gets a private copy. */
  mutate(type: ResourceType, namespace: string | undefined, name: string, fn: (copy: KubeObject) => KubeObject | void, options: WriteOptions = {}): KubeObject {
    const current = this.get(type, namespace, name);
    const copy = copyJson(current);
    const next = fn(copy) ?? copy;
    return this.update(type, next, options);
  }

  /**
   * Deletes, or marks for deletion while finalizers remain. Foreground and Orphan propagation
   * add their finalizers for the garbage collector to act on; Background deletes at once.
   */
  delete(type: ResourceType, namespace: string | undefined, name: string, options: DeleteOptions = {}): { object: KubeObject; deleted: boolean } {
    const current = this.get(type, namespace, name);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== current.metadata.uid) {
      throw conflict(type.plural, type.group, name, `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${current.metadata.uid}`);
    }
    if (pre?.resourceVersion && pre.resourceVersion !== current.metadata.resourceVersion) {
      throw conflict(type.plural, type.group, name, `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${current.metadata.resourceVersion}`);
    }
    const finalizers = [...(current.metadata.finalizers ?? [])];
    if (options.propagationPolicy === 'Foreground' && !finalizers.includes('foregroundDeletion')) finalizers.push('foregroundDeletion');
    if (options.propagationPolicy === 'Orphan' && !finalizers.includes('orphan')) finalizers.push('orphan');
    const key = objectKey(type.namespaced ? namespace : undefined, name);
    const grace = options.gracePeriodSeconds ?? 0;
    if (finalizers.length > 0 || grace > 0 || namespaceFinalizers(type, current).length > 0) {
      const marked = current.metadata.deletionTimestamp !== undefined;
      const currentGrace = current.metadata.deletionGracePeriodSeconds ?? 0;
      const shortened = marked && grace < currentGrace;
      if (marked && !shortened && finalizers.length === (current.metadata.finalizers ?? []).length) {
        return { object: current, deleted: false };
      }
      const restart = !marked || shortened;
      const next: KubeObject = {
        ...current,
        metadata: {
          ...current.metadata,
          finalizers,
          deletionTimestamp: restart ? new Date(this.now() + grace * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') : current.metadata.deletionTimestamp,
          deletionGracePeriodSeconds: restart ? grace : currentGrace,
          resourceVersion: options.dryRun ? current.metadata.resourceVersion : String(this.rv + 1),
        },
      };
      if (next.metadata.finalizers?.length === 0) delete next.metadata.finalizers;
      if (!options.dryRun) this.commit(type, 'MODIFIED', key, next, current);
      return { object: next, deleted: false };
    }
    if (options.dryRun) return { object: current, deleted: true };
    const final: KubeObject = { ...current, metadata: { ...current.metadata, resourceVersion: String(this.rv + 1) } };
    this.commit(type, 'DELETED', key, final, current);
    return { object: final, deleted: true };
  }

  private generatedName(type: ResourceType, namespace: string | undefined, prefix: string): string {
    for (;;) {
      let suffix = '';
      for (let i = 0; i < 5; i += 1) suffix += GENERATE_SUFFIX[Math.floor(Math.random() * GENERATE_SUFFIX.length)];
      const name = `${prefix.slice(0, 58)}${suffix}`;
      if (!this.bucket(type).has(objectKey(type.namespaced ? namespace : undefined, name))) return name;
    }
  }

  private commit(type: ResourceType, kind: Change['type'], key: string, object: KubeObject, old: KubeObject | undefined): void {
    this.rv += 1;
    object.metadata = inObjectMetaOrder(object.metadata);
    const id = resourceId(type);
    const bucket = this.bucket(type);
    // Additions and deletions re-sort on the next list; a modification keeps the order.
    if (kind === 'DELETED') {
      bucket.delete(key);
      this.sorted.set(id, null);
    } else {
      if (!bucket.has(key) || !this.sorted.get(id)?.replace(key, object)) this.sorted.set(id, null);
      bucket.set(key, object);
    }
    this.json.written(kind === 'DELETED' ? undefined : object, old);
    const change: Change = old ? { rv: this.rv, type: kind, resource: id, key, object, old } : { rv: this.rv, type: kind, resource: id, key, object };
    this.log.append(change);
    for (const listener of [...this.listeners]) listener(change);
  }
}
