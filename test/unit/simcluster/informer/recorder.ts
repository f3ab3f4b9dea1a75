/**
 * What an informer's handlers reported, checked as it happens: every uid's ADD/UPDATE/DELETE
 * counts, a model of the cache rebuilt from the handler calls alone, and the violations a lost
 * or duplicated event would cause (an ADD for a cached name without a DELETE in between, an
 * UPDATE or DELETE for something never added, a uid swapped under a name, a resourceVersion
 * going backwards).
 */
import { ADD, DELETE, UPDATE, type Informer, type KubernetesObject } from '@kubernetes/client-node';

/** Handler calls for one uid. */
export interface HandlerCounts {
  add: number;
  update: number;
  delete: number;
}

/** uid → resourceVersion: what "the same cache" means in these tests. */
export type VersionMap = Record<string, string>;

function keyOf(object: KubernetesObject): string {
  return `${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`;
}

/** uid → resourceVersion of `objects`; a uid listed twice is kept twice under a suffixed key so it shows in a diff. */
export function versionsOf(objects: ReadonlyArray<KubernetesObject>): VersionMap {
  const versions: VersionMap = {};
  for (const object of objects) {
    const uid = object.metadata?.uid ?? `<no uid: ${keyOf(object)}>`;
    versions[uid in versions ? `${uid} (duplicate)` : uid] = object.metadata?.resourceVersion ?? '';
  }
  return versions;
}

/** Records an informer's handler calls from before its first list. */
export class HandlerRecorder<T extends KubernetesObject> {
  readonly counts = new Map<string, HandlerCounts>();
  readonly violations: string[] = [];
  /** The last object each uid's handlers received. */
  readonly latest = new Map<string, T>();
  private readonly model = new Map<string, { uid: string; rv: string }>();

  constructor(informer: Informer<T>) {
    informer.on(ADD, (object) => this.added(object));
    informer.on(UPDATE, (object) => this.updated(object));
    informer.on(DELETE, (object) => this.deleted(object));
  }

  countsFor(uid: string): HandlerCounts {
    return this.counts.get(uid) ?? { add: 0, update: 0, delete: 0 };
  }

  /** The cache as the handler calls describe it. */
  versions(): VersionMap {
    return Object.fromEntries([...this.model.values()].map((entry) => [entry.uid, entry.rv]));
  }

  /** uids whose handlers saw `predicate` hold on their latest object. */
  uidsWhere(predicate: (object: T) => boolean): string[] {
    return [...this.latest].filter(([, object]) => predicate(object)).map(([uid]) => uid);
  }

  private count(object: T, kind: keyof HandlerCounts): string {
    const uid = object.metadata?.uid ?? '';
    const counts = this.countsFor(uid);
    counts[kind] += 1;
    this.counts.set(uid, counts);
    this.latest.set(uid, object);
    return uid;
  }

  private added(object: T): void {
    const uid = this.count(object, 'add');
    const key = keyOf(object);
    const cached = this.model.get(key);
    if (cached) this.violations.push(`ADD of ${key} (uid ${uid}) while uid ${cached.uid} is cached without a DELETE`);
    if (this.countsFor(uid).add > 1) this.violations.push(`second ADD for uid ${uid} (${key})`);
    this.model.set(key, { uid, rv: object.metadata?.resourceVersion ?? '' });
  }

  private updated(object: T): void {
    const uid = this.count(object, 'update');
    const key = keyOf(object);
    const cached = this.model.get(key);
    const rv = object.metadata?.resourceVersion ?? '';
    if (!cached) this.violations.push(`UPDATE of ${key} (uid ${uid}) that was never added`);
    else if (cached.uid !== uid) this.violations.push(`UPDATE of ${key} swapped uid ${cached.uid} for ${uid} (a DELETE and an ADD were lost)`);
    else if (Number(rv) <= Number(cached.rv)) this.violations.push(`UPDATE of ${key} went from resourceVersion ${cached.rv} back to ${rv}`);
    this.model.set(key, { uid, rv });
  }

  private deleted(object: T): void {
    const uid = this.count(object, 'delete');
    const key = keyOf(object);
    const cached = this.model.get(key);
    if (!cached) this.violations.push(`DELETE of ${key} (uid ${uid}) that was not cached`);
    else if (cached.uid !== uid) this.violations.push(`DELETE of ${key} named uid ${uid} but uid ${cached.uid} was cached`);
    this.model.delete(key);
  }
}
