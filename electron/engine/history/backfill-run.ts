/**
 * Running the backfill (backfill.ts) once per connect, after the informers' first lists: the
 * cached objects are read in slices (BACKFILL_SLICE_OBJECTS, BACKFILL_SLICE_MS at most), the
 * event loop given back between slices so the live view never waits on it; the rows are then
 * sorted by id, all of them (up to BACKFILL_SORT_ROWS), and upserted BACKFILL_WRITE_ROWS at a
 * time, one transaction each, the event loop given back between them too. And
 * the queries that read the rows back for the workload screen and the timeline.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { KindHealth, KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { InferredFact, InferredFactKind } from '../../../shared/contracts/history.ts';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import { controllerUids, inferFacts, topController, type InferredRow, type OwnerLookup } from './backfill.ts';
import { eventFact, objectLookup } from './backfill-events.ts';

/** Objects read per slice at most... */
export const BACKFILL_SLICE_OBJECTS = 500;
/** ...and a slice stops once it has held the event loop this long (crash-looping pods make many rows). */
export const BACKFILL_SLICE_MS = 8;
/** Rows written per transaction at most (see `write` in runBackfill). */
export const BACKFILL_WRITE_ROWS = 1_000;
/**
 * Rows inferred before they are sorted and written (at most; a part with fewer is sorted whole).
 * Ids are hashes: 1,000 rows in arrival order touched leaf pages across the whole table, and
 * each commit wrote them again. Sorted together first, consecutive transactions take
 * consecutive id ranges, so each page is written about once (an aged 5,000-pod cluster's 21,451
 * rows: both parts 2,630 -> 1,587 ms alone, the time in transactions 1,171 -> 846 ms within a
 * connect; medians on a loaded VM, docs/benchmarks.md). ~300 B a row: 50,000 hold ~15 MB.
 */
export const BACKFILL_SORT_ROWS = 50_000;
/** Inferred rows one answer carries at most. */
export const MAX_INFERRED = 1_000;

export interface BackfillResult {
  objects: number;
  /** Rows written (new or refreshed). */
  rows: number;
  /** Rows that were not there before (0 on a second run over the same cluster). */
  added: number;
  ms: number;
  /** The longest slice, ms: how long the event loop was held at most. */
  longestSliceMs: number;
}

export interface BackfillOptions {
  db: DatabaseSync;
  objects: readonly SlimObject[];
  kinds: readonly KindKey[];
  now(): number;
  sliceObjects?: number;
  /** Overrides BACKFILL_SLICE_MS. */
  sliceMs?: number;
  /** Overrides BACKFILL_WRITE_ROWS. */
  writeRows?: number;
  /** Overrides BACKFILL_SORT_ROWS. */
  sortRows?: number;
  /** Facts that ended before this are left out: retention would remove them at once (ms). */
  keepAfter?: number;
  /** Stop between slices (the store closed). */
  cancelled?(): boolean;
  /**
   * Infers from objects of these kinds only (all when absent); the others still find owners and
   * Events' objects. The store backfills in two parts: everything but Events, then Events.
   */
  include?(kind: KindKey): boolean;
}

/** The workload a conflicting row keeps: an object gone since has no controller left to find, so the one found before stays. */
const WORKLOAD = 'CASE WHEN excluded.workload_uid = excluded.object_uid THEN inferred.workload_uid ELSE excluded.workload_uid END';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Backfills from the listed objects; resolves when every slice is written (or it was cancelled). */
export async function runBackfill(options: BackfillOptions): Promise<BackfillResult> {
  const { db, objects, kinds } = options;
  const started = performance.now();
  const owners = controllerUids(objects);
  const lookup = objectLookup(objects);
  const listed = new Set(objects.map((object) => object.metadata.uid));
  const recordedOwner = db.prepare('SELECT owner_uid AS owner FROM owners WHERE child_uid = ?');
  // An Event outlives its pod (replaced since): the recording kept whom the pod belonged to.
  const eventOwners: OwnerLookup = { get: (uid) => (listed.has(uid) ? owners.get(uid) : (recordedOwner.get(uid) as { owner: string } | undefined)?.owner) };
  const factsOf = (object: SlimObject, kind: string): readonly InferredRow[] => {
    if (kind !== BUILTIN_KEYS.Event) return inferFacts(object, kind, topController(object.metadata.uid, owners));
    const row = eventFact(object, eventOwners, lookup);
    return row ? [row] : [];
  };
  const upsert = db.prepare(
    'INSERT INTO inferred (id, object_uid, workload_uid, kind, namespace, name, fact, at, end_at, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
      `ON CONFLICT(id) DO UPDATE SET workload_uid = ${WORKLOAD}, end_at = coalesce(excluded.end_at, end_at), detail = excluded.detail ` +
      // A reconnect finds most rows as they were: rewriting them anyway dirtied every index page.
      `WHERE inferred.workload_uid IS NOT ${WORKLOAD} OR (excluded.end_at IS NOT NULL AND inferred.end_at IS NOT excluded.end_at) OR inferred.detail IS NOT excluded.detail`,
  );
  const count = db.prepare('SELECT count(*) AS n FROM inferred');
  const before = Number((count.get() as { n: number }).n);
  const slice = options.sliceObjects ?? BACKFILL_SLICE_OBJECTS;
  const sliceMs = options.sliceMs ?? BACKFILL_SLICE_MS;
  const writeRows = options.writeRows ?? BACKFILL_WRITE_ROWS;
  const sortRows = Math.max(writeRows, options.sortRows ?? BACKFILL_SORT_ROWS);
  let rows = 0;
  let longestSliceMs = 0;
  let pending: InferredRow[] = [];
  /** Upserts `chunk` in one transaction (the recorder's writes are transactions of their own: never nested in one). */
  const writeChunk = (chunk: readonly InferredRow[]): void => {
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const row of chunk) upsert.run(row.id, row.objectUid, row.workloadUid, row.kind, row.namespace, row.name, row.fact, row.at, row.end, row.detail);
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
    rows += chunk.length;
  };
  /** Writes what is pending, in id order (see BACKFILL_SORT_ROWS), a transaction per turn; false when cancelled. */
  const write = async (): Promise<boolean> => {
    const sortStart = performance.now();
    const sorted = pending.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    pending = [];
    longestSliceMs = Math.max(longestSliceMs, performance.now() - sortStart);
    for (let at = 0; at < sorted.length; at += writeRows) {
      while (db.isTransaction) await nextTurn();
      if (options.cancelled?.()) return false;
      const chunkStart = performance.now();
      writeChunk(sorted.slice(at, at + writeRows));
      longestSliceMs = Math.max(longestSliceMs, performance.now() - chunkStart);
      if (at + writeRows < sorted.length) await nextTurn();
    }
    return true;
  };
  for (let i = 0; i < objects.length; ) {
    if (i > 0) await nextTurn();
    if (options.cancelled?.()) break;
    const sliceStart = performance.now();
    const last = Math.min(objects.length, i + slice);
    for (; i < last && performance.now() - sliceStart < sliceMs; i += 1) {
      if (options.include && !options.include(kinds[i] as KindKey)) continue;
      for (const row of factsOf(objects[i] as SlimObject, kinds[i] as string)) {
        if (options.keepAfter !== undefined && (row.end ?? row.at ?? Infinity) < options.keepAfter) continue;
        pending.push(row);
      }
    }
    longestSliceMs = Math.max(longestSliceMs, performance.now() - sliceStart);
    if ((pending.length >= sortRows || i >= objects.length) && !(await write())) break;
  }
  const added = Number((count.get() as { n: number }).n) - before;
  return { objects: objects.length, rows, added, ms: Math.round(performance.now() - started), longestSliceMs: Math.round(longestSliceMs * 10) / 10 };
}

/**
 * How far the informers' first lists are, for the backfill: `all` listed; `objects`, every kind
 * but Events (its first part can start); `none` yet.
 */
export function backfillStage(kinds: readonly KindHealth[]): 'none' | 'objects' | 'all' {
  if (kinds.length === 0) return 'none';
  let events = false;
  for (const kind of kinds) {
    if (kind.state !== 'syncing') continue;
    if (kind.kind !== BUILTIN_KEYS.Event) return 'none';
    events = true;
  }
  return events ? 'objects' : 'all';
}

/** The two parts' results as one (objects of the first part, as the second reads them too, counted once). */
export function sumBackfill(first: BackfillResult, second: BackfillResult): BackfillResult {
  return { objects: Math.max(first.objects, second.objects), rows: first.rows + second.rows, added: first.added + second.added, ms: first.ms + second.ms, longestSliceMs: Math.max(first.longestSliceMs, second.longestSliceMs) };
}

type FactRow = [string, string, string, string, string, string, string, number | null, number | null, string];

const COLUMNS = 'id, object_uid, workload_uid, kind, namespace, name, fact, at, end_at, detail';

const toFact = (r: FactRow): InferredFact => ({
  id: r[0],
  fact: r[6] as InferredFactKind,
  at: r[7],
  end: r[8],
  object: { uid: r[1], kind: r[3], namespace: r[4], name: r[5] },
  workloadUid: r[2],
  detail: r[9],
});

/** The timeline's or a workload's inferred rows: at most MAX_INFERRED, and how many the range holds when that cut applied. */
export interface InferredRange {
  facts: InferredFact[];
  /** Present only when rows were left out: how many rows the range holds. */
  total?: number;
}

/** The timeline's rows: a rollout or Event overlapping [from, to] (its last moment from `from` on: the inferred_last index). */
export const TIMELINE_WHERE = "fact IN ('rollout', 'event') AND coalesce(end_at, at) >= :from AND at <= :to AND (:namespace IS NULL OR namespace = :namespace)";

/** A workload's rows: those overlapping the range, and those of unknown time. */
const WORKLOAD_WHERE = 'workload_uid = :uid AND (at IS NULL OR (at <= :to AND coalesce(end_at, at) >= :from))';

/** By time, those of unknown time last (the chart lists them apart). */
const byTime = (a: InferredFact, b: InferredFact): number => (a.at === null ? 1 : 0) - (b.at === null ? 1 : 0) || (a.at ?? 0) - (b.at ?? 0);

/**
 * Reading inferred rows back: a workload's (with those of unknown time), and the timeline's:
 * the rollouts of a range, then the Events that overlap it (rollouts first, so a busy hour of
 * Events never crowds them out of the MAX_INFERRED rows one answer carries), the newest of each
 * when they are more, and then saying how many there were. A workload's are cut the same way:
 * its rollouts, then the newest of its other rows (a crash-looping pod's thousands of
 * terminations and BackOff Events would otherwise push out what happened last), then those of
 * unknown time.
 */
export function createInferredQuery(db: DatabaseSync) {
  const ofWorkload = db.prepare(`SELECT ${COLUMNS} FROM inferred WHERE ${WORKLOAD_WHERE} ORDER BY fact <> 'rollout', at IS NULL, at DESC LIMIT ${MAX_INFERRED + 1}`);
  ofWorkload.setReturnArrays(true);
  const workloadCount = db.prepare(`SELECT count(*) AS n FROM inferred WHERE ${WORKLOAD_WHERE}`);
  const timeline = db.prepare(`SELECT ${COLUMNS} FROM inferred WHERE ${TIMELINE_WHERE} ORDER BY fact = 'event', at DESC LIMIT ${MAX_INFERRED + 1}`);
  timeline.setReturnArrays(true);
  const timelineCount = db.prepare(`SELECT count(*) AS n FROM inferred WHERE ${TIMELINE_WHERE}`);
  return {
    /** A workload's rows of the range and of unknown time (by time, unknown last); `total` when more than MAX_INFERRED. */
    ofWorkload(uid: string, from: number, to: number): InferredRange {
      const range = { uid, from, to };
      const rows = ofWorkload.all(range) as unknown as FactRow[];
      const facts = rows.slice(0, MAX_INFERRED).map(toFact).sort(byTime);
      if (rows.length <= MAX_INFERRED) return { facts };
      return { facts, total: Number((workloadCount.get(range) as { n: number }).n) };
    },
    /** The rollouts and Events of a range (sorted by time), for the timeline; `total` when more than MAX_INFERRED. */
    timeline(from: number, to: number, namespace?: string): InferredRange {
      const range = { from, to, namespace: namespace ?? null };
      const rows = timeline.all(range) as unknown as FactRow[];
      const facts = rows.slice(0, MAX_INFERRED).map(toFact).sort((a, b) => (a.at ?? 0) - (b.at ?? 0));
      if (rows.length <= MAX_INFERRED) return { facts };
      return { facts, total: Number((timelineCount.get(range) as { n: number }).n) };
    },
  };
}

/** Retention: inferred rows older than `cut` (a row of unknown time stays while its object is listed). */
export function pruneInferred(db: DatabaseSync, cut: number): void {
  db.prepare('DELETE FROM inferred WHERE coalesce(end_at, at) < ?').run(cut);
}
