import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { TableColumn } from '../../../renderer/components/table/columns.ts';
import { numberOrder, stringOrder } from '../../../renderer/components/table/key-order.ts';
import { createLiveRows } from '../../../renderer/components/table/live-rows.ts';
import { sortRows } from '../../../renderer/components/table/sort.ts';
import { podRow, type PodRow } from '../../../renderer/stores/rows/pods.ts';
import { filterPods, POD_COLUMNS, problemsIn } from '../../../renderer/views/pods/pod-columns.ts';
import { nextVersion, pod } from './cluster-fixtures.ts';

const seeded = (seed: number) => () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
const tie = (row: PodRow): string => row.search;
const SORTABLE = POD_COLUMNS.filter((column) => column.sortKey).map((column) => column.id);

/** What a stable comparison sort of the indices gives. */
function reference<Key>(keys: readonly Key[], compare: (a: Key, b: Key) => number): number[] {
  return keys.map((_, i) => i).sort((a, b) => compare(keys[a] as Key, keys[b] as Key));
}

describe('column key orders', () => {
  const byUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

  it('orders strings by code unit, stably, through shared prefixes, prefixes of others, duplicates and non-ASCII', () => {
    const random = seeded(7);
    const alphabet = ['a', 'b', 'z', '-', '0', '9', 'A', 'é', 'ß', '日', '\u0000', '😀'];
    const word = (length: number) => Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    // Mostly distinct keys (the radix path) and few distinct keys (the distinct-values path).
    const distinct = Array.from({ length: 3_000 }, (_, i) => (i % 5 === 0 ? '' : `svc-${String(i % 40).padStart(3, '0')}-${word(Math.floor(random() * 6))}`));
    const few = Array.from({ length: 3_000 }, () => `churn-node-${Math.floor(random() * 30)}${random() < 0.1 ? 'é' : ''}`);
    for (const keys of [distinct, few, distinct.slice(0, 30), []]) expect([...stringOrder(keys)]).toEqual(reference(keys, byUnit));
  });

  it('orders numbers ascending, stably, NaN last and -0 equal to 0', () => {
    const random = seeded(11);
    const keys = Array.from({ length: 2_000 }, (_, i) => (i % 13 === 0 ? Number.NaN : i % 17 === 0 ? -0 : i % 19 === 0 ? 0 : Math.floor(random() * 60) - 30 + (i % 3 === 0 ? 0.5 : 0)));
    const compare = (a: number, b: number): number => (Number.isNaN(a) ? (Number.isNaN(b) ? 0 : 1) : Number.isNaN(b) ? -1 : a === b ? 0 : a - b);
    expect([...numberOrder(keys)]).toEqual(reference(keys, compare));
  });
});

/** A cluster of pods that changes in random batches, with every sortable column's key varied. */
function churningPods(seed: number, size: number) {
  const random = seeded(seed);
  const objects = new Map<string, SlimObject>();
  let serial = 0;
  const make = (): SlimObject => {
    serial += 1;
    // Names are unique in a namespace, as in Kubernetes: the tie key (namespace/name ...) decides.
    const object = pod(`web-${Math.floor(random() * size * 2)}-${serial}`, {
      namespace: `ns-${Math.floor(random() * 6)}`,
      node: random() < 0.1 ? '' : `node-${Math.floor(random() * 9)}`,
      statuses: [{ name: 'c0', ready: random() < 0.7, restartCount: Math.floor(random() * 4), state: random() < 0.8 ? { running: {} } : { waiting: { reason: 'CrashLoopBackOff' } } }],
    });
    // Equal ages are common (pods of one rollout), so many creation times repeat.
    object.metadata.creationTimestamp = new Date(Date.UTC(2026, 10, 1) + Math.floor(random() * 20) * 60_000).toISOString();
    return object;
  };
  for (let i = 0; i < size; i += 1) {
    const object = make();
    objects.set(object.metadata.uid, object);
  }
  /** Changes, deletes and creates about `count` pods; returns their uids. */
  const batch = (count: number): Set<string> => {
    const changed = new Set<string>();
    const uids = [...objects.keys()];
    for (let i = 0; i < count; i += 1) {
      const roll = random();
      const uid = uids[Math.floor(random() * uids.length)] as string;
      if (roll < 0.2) {
        const created = make();
        objects.set(created.metadata.uid, created);
        changed.add(created.metadata.uid);
      } else if (roll < 0.35) {
        if (objects.delete(uid)) changed.add(uid);
      } else {
        const object = objects.get(uid);
        if (!object) continue;
        objects.set(uid, nextVersion(object, String(1_000 + serial++), (copy) => {
          const status = (copy['status'] as { containerStatuses: Array<{ restartCount: number; ready: boolean }> }).containerStatuses[0]!;
          status.restartCount += 1;
          status.ready = random() < 0.5;
          (copy['spec'] as { nodeName: string }).nodeName = `node-${Math.floor(random() * 9)}`;
        }));
        changed.add(uid);
      }
    }
    return changed;
  };
  return { objects, batch, random };
}

describe('live rows with kept column orders', () => {
  it('equals a plain full sort after random change batches, for every column in both directions', () => {
    const { objects, batch, random } = churningPods(3, 400);
    const idle: Array<() => void> = [];
    // Every reading of the clock ends the slice: an idle build spans batches.
    let clock = 0;
    const live = createLiveRows({ derive: podRow, columns: POD_COLUMNS, tieKey: tie, idle: (task) => idle.push(task), now: () => (clock += 10) });
    const input = (column: string, direction: 'asc' | 'desc', changed: Set<string> | null) => ({ sort: { column, direction }, all: () => objects.values(), changed, lookup: (uid: string) => objects.get(uid) });
    const full = (column: string, direction: 'asc' | 'desc') => sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column, direction }, tie).map((row) => row.uid);
    expect(live(input('namespace', 'asc', null)).map((row) => row.uid)).toEqual(full('namespace', 'asc'));
    for (let round = 0; round < 60; round += 1) {
      // Small batches merge; an occasional big one (over a quarter of the rows) drops kept orders.
      const changed = batch(round % 15 === 14 ? 150 : Math.floor(random() * 12));
      const column = SORTABLE[Math.floor(random() * SORTABLE.length)] as string;
      const direction = random() < 0.5 ? 'asc' : 'desc';
      expect(live(input(column, direction, changed)).map((row) => row.uid), `round ${round}: ${column} ${direction}`).toEqual(full(column, direction));
      // Some idle slices run between batches, sometimes none, sometimes all.
      const slices = random() < 0.3 ? Infinity : Math.floor(random() * 4);
      for (let i = 0; i < slices && idle.length > 0; i += 1) idle.shift()!();
    }
  });

  it('returns to a column or reverses it keying only the rows that changed meanwhile', () => {
    const { objects, batch } = churningPods(5, 500);
    let nameKeys = 0;
    const columns: ReadonlyArray<TableColumn<PodRow>> = POD_COLUMNS.map((column) => (column.id === 'name' ? { ...column, sortKey: (row: PodRow) => (nameKeys++, row.name) } : column));
    const live = createLiveRows({ derive: podRow, columns, tieKey: tie });
    const input = (column: string, direction: 'asc' | 'desc', changed: Set<string> | null) => ({ sort: { column, direction }, all: () => objects.values(), changed, lookup: (uid: string) => objects.get(uid) });
    live(input('name', 'asc', null));
    live(input('age', 'desc', new Set()));
    const changed = batch(8);
    nameKeys = 0;
    const rows = live(input('name', 'desc', changed)).map((row) => row.uid);
    expect(rows).toEqual(sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column: 'name', direction: 'desc' }, tie).map((row) => row.uid));
    expect(nameKeys).toBeLessThanOrEqual(changed.size);
    live(input('name', 'asc', new Set()));
    expect(nameKeys).toBeLessThanOrEqual(changed.size);
  });

  it('computes the other sortable columns in idle time, so a first click keys no row', () => {
    const { objects } = churningPods(9, 300);
    let restartKeys = 0;
    const columns: ReadonlyArray<TableColumn<PodRow>> = POD_COLUMNS.map((column) => (column.id === 'restarts' ? { ...column, sortKey: (row: PodRow) => (restartKeys++, row.restarts) } : column));
    const idle: Array<() => void> = [];
    const live = createLiveRows({ derive: podRow, columns, tieKey: tie, idle: (task) => idle.push(task) });
    const input = (column: string, direction: 'asc' | 'desc') => ({ sort: { column, direction }, all: () => objects.values(), changed: null, lookup: (uid: string) => objects.get(uid) });
    live(input('namespace', 'asc'));
    while (idle.length > 0) idle.shift()!();
    expect(restartKeys).toBe(objects.size);
    restartKeys = 0;
    const rows = live({ ...input('restarts', 'desc'), changed: new Set() });
    expect(restartKeys).toBe(0);
    expect(rows.map((row) => row.uid)).toEqual(sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column: 'restarts', direction: 'desc' }, tie).map((row) => row.uid));
  });

  it('prepares in slices of a few milliseconds, and a click on the column being prepared finishes it', () => {
    const { objects } = churningPods(13, 12_000);
    const keyed = new Map<string, number>();
    const columns: ReadonlyArray<TableColumn<PodRow>> = POD_COLUMNS.map((column) =>
      column.sortKey ? { ...column, sortKey: (row: PodRow) => (keyed.set(column.id, (keyed.get(column.id) ?? 0) + 1), column.sortKey!(row)) } : column,
    );
    const idle: Array<() => void> = [];
    // A slice reads the clock once to start and once after each piece of work: at 3 ms a piece,
    // a slice (5 ms) does two.
    let clock = 0;
    const live = createLiveRows({ derive: podRow, columns, tieKey: tie, idle: (task) => idle.push(task), now: () => (clock += 3) });
    const input = (column: string, direction: 'asc' | 'desc', changed: Set<string> | null) => ({ sort: { column, direction }, all: () => objects.values(), changed, lookup: (uid: string) => objects.get(uid) });
    live(input('namespace', 'asc', null));
    const total = () => [...keyed.values()].reduce((sum, count) => sum + count, 0);
    let before = total();
    let slices = 0;
    // Slice by slice until the restarts column is part-keyed: no slice keys more than two chunks.
    while ((keyed.get('restarts') ?? 0) === 0 || (keyed.get('restarts') ?? 0) >= objects.size) {
      idle.shift()!();
      slices += 1;
      expect(total() - before).toBeLessThanOrEqual(2 * 4_096);
      before = total();
    }
    expect(slices).toBeGreaterThan(5);
    const rows = live(input('restarts', 'desc', new Set()));
    expect(keyed.get('restarts')).toBe(objects.size);
    expect(rows.map((row) => row.uid)).toEqual(sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column: 'restarts', direction: 'desc' }, tie).map((row) => row.uid));
  });
});

describe('pod filters over a namespace index', () => {
  it('give what a walk over every row gives, in the sorted order', () => {
    const { objects } = churningPods(13, 600);
    const sorted = sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column: 'name', direction: 'asc' }, tie);
    const problem = (row: PodRow) => row.tone === 'warning' || row.tone === 'danger';
    for (const namespace of ['', 'ns-2', 'ns-5', 'ns-missing']) {
      for (const search of ['', 'node-3', 'web-1 crash']) {
        for (const problemsOnly of [false, true]) {
          const words = search.split(' ').filter(Boolean);
          const matching = sorted.filter((row) => (!namespace || row.namespace === namespace) && words.every((word) => row.search.includes(word)));
          const got = filterPods(sorted, { namespace, search, problemsOnly });
          expect(got.rows, `${namespace}|${search}|${problemsOnly}`).toEqual(problemsOnly ? matching.filter(problem) : matching);
          expect(got.problems).toBe(matching.filter(problem).length);
        }
      }
    }
  });

  it('take the count over every row from the caller when nothing filters', () => {
    const { objects } = churningPods(17, 200);
    const sorted = sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column: 'node', direction: 'asc' }, tie);
    const kept = () => 12_345;
    expect(filterPods(sorted, { namespace: '', search: '', problemsOnly: false }, kept).problems).toBe(12_345);
    expect(filterPods(sorted, { namespace: 'ns-1', search: '', problemsOnly: false }, kept).problems).toBe(filterPods(sorted, { namespace: 'ns-1', search: '', problemsOnly: false }).problems);
    expect(filterPods(sorted, { namespace: '', search: '', problemsOnly: false }).problems).toBe(problemsIn(sorted));
  });
});
