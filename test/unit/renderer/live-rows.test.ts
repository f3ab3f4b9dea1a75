import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import { createLiveRows } from '../../../renderer/components/table/live-rows.ts';
import { comparator, comparatorFor, keyer, sortRows, type Keyed } from '../../../renderer/components/table/sort.ts';
import { createChangeLog } from '../../../renderer/stores/cluster/change-log.ts';
import { podRow, type PodRow } from '../../../renderer/stores/rows/pods.ts';
import { POD_COLUMNS } from '../../../renderer/views/pods/pod-columns.ts';
import { nextVersion, pod } from './cluster-fixtures.ts';

const tie = (row: PodRow): string => row.search;

describe('live rows', () => {
  it('patches the sorted rows with each batch’s changes and always agrees with a full sort', () => {
    let derived = 0;
    const live = createLiveRows({ derive: (object) => (derived++, podRow(object)), columns: POD_COLUMNS, tieKey: tie });
    const objects = new Map<string, SlimObject>();
    for (let i = 0; i < 500; i += 1) {
      const object = pod(`web-${i}`, { namespace: `ns-${i % 7}`, statuses: [{ name: 'c0', ready: true, restartCount: i % 5, state: { running: {} } }] });
      objects.set(object.metadata.uid, object);
    }
    const sort = { column: 'restarts', direction: 'desc' } as const;
    const input = (changed: Set<string> | null) => ({ sort, all: () => objects.values(), changed, lookup: (uid: string) => objects.get(uid) });
    const full = () => sortRows([...objects.values()].map(podRow), POD_COLUMNS, sort, tie).map((row) => row.uid);

    expect(live(input(null)).map((row) => row.uid)).toEqual(full());
    expect(derived).toBe(500);

    // A batch: 20 pods restart more, 5 are deleted, 3 are created.
    const changed = new Set<string>();
    [...objects.values()].slice(0, 20).forEach((object, i) => {
      const next = nextVersion(object, `2${i}`, (copy) => ((copy['status'] as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0]!.restartCount = 10 + i));
      objects.set(object.metadata.uid, next);
      changed.add(object.metadata.uid);
    });
    [...objects.keys()].slice(100, 105).forEach((uid) => {
      objects.delete(uid);
      changed.add(uid);
    });
    for (let i = 0; i < 3; i += 1) {
      const object = pod(`api-${i}`, { namespace: 'ns-new' });
      objects.set(object.metadata.uid, object);
      changed.add(object.metadata.uid);
    }
    const patched = live(input(changed)).map((row) => row.uid);
    expect(patched).toEqual(full());
    expect(patched).toHaveLength(498);
    expect(derived).toBe(500 + 23);
  });

  it('returns the same list when nothing changed, and re-sorts everything for a new sort', () => {
    const live = createLiveRows({ derive: podRow, columns: POD_COLUMNS, tieKey: tie });
    const objects = [pod('b'), pod('a'), pod('c')];
    const base = { all: () => objects, lookup: () => undefined };
    const first = live({ ...base, sort: { column: 'name', direction: 'asc' }, changed: null });
    expect(live({ ...base, sort: { column: 'name', direction: 'asc' }, changed: new Set() })).toBe(first);
    expect(live({ ...base, sort: { column: 'name', direction: 'desc' }, changed: new Set() }).map((row) => row.name)).toEqual(['c', 'b', 'a']);
  });
});

describe('the specialised comparator', () => {
  // Keys as a table makes them: strings (lower-cased), numbers with NaN for unknown, many ties.
  const seeded = (seed: number) => () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);
  function keyedRows(key: (random: () => number, i: number) => string | number): Array<Keyed<number>> {
    const random = seeded(42);
    return Array.from({ length: 2_000 }, (_, i) => ({ key: key(random, i), tie: `ns-${Math.floor(random() * 9)}/pod-${i}`, row: i }));
  }
  const order = (rows: Array<Keyed<number>>, compare: (a: Keyed<number>, b: Keyed<number>) => number) => [...rows].sort(compare).map((entry) => entry.row);
  const KEYS = {
    'strings with ties': (random: () => number) => `svc-${Math.floor(random() * 40)}`,
    'numbers with ties, NaN and negatives': (random: () => number, i: number) => (i % 13 === 0 ? Number.NaN : Math.floor(random() * 50) - 25),
    'fractions and zeros': (random: () => number, i: number) => (i % 7 === 0 ? 0 : i % 11 === 0 ? -0 : random()),
    'strings and numbers mixed': (random: () => number, i: number) => (i % 3 === 0 ? Math.floor(random() * 10) : `k${Math.floor(random() * 10)}`),
  };

  for (const [name, key] of Object.entries(KEYS)) {
    it(`orders ${name} exactly as the generic comparator does, either direction`, () => {
      const rows = keyedRows(key);
      for (const direction of ['asc', 'desc'] as const) expect(order(rows, comparatorFor(rows, direction))).toEqual(order(rows, comparator(direction)));
    });
  }

  it('sorts unknown numbers last in both directions and breaks ties by the tie key', () => {
    const rows: Array<Keyed<string>> = [
      { key: Number.NaN, tie: 'a', row: 'unknown-a' },
      { key: 2, tie: 'b', row: 'two-b' },
      { key: 2, tie: 'a', row: 'two-a' },
      { key: 1, tie: 'z', row: 'one' },
    ];
    expect([...rows].sort(comparatorFor(rows, 'asc')).map((entry) => entry.row)).toEqual(['one', 'two-a', 'two-b', 'unknown-a']);
    expect([...rows].sort(comparatorFor(rows, 'desc')).map((entry) => entry.row)).toEqual(['two-a', 'two-b', 'one', 'unknown-a']);
  });

  it('re-sorts pods by every column after live changes exactly as a full sort does, deriving no row again', () => {
    let derived = 0;
    const live = createLiveRows({ derive: (object) => (derived++, podRow(object)), columns: POD_COLUMNS, tieKey: tie });
    const objects = new Map<string, SlimObject>();
    for (let i = 0; i < 300; i += 1) {
      const object = pod(`web-${(i * 7919) % 300}`, { namespace: `ns-${i % 5}`, statuses: [{ name: 'c0', ready: i % 4 !== 0, restartCount: i % 6, state: { running: {} } }] });
      objects.set(object.metadata.uid, object);
    }
    const input = (column: string, direction: 'asc' | 'desc', changed: Set<string> | null) => ({ sort: { column, direction }, all: () => objects.values(), changed, lookup: (uid: string) => objects.get(uid) });
    const full = (column: string, direction: 'asc' | 'desc') => sortRows([...objects.values()].map(podRow), POD_COLUMNS, { column, direction }, tie).map((row) => row.uid);
    live(input('namespace', 'asc', null));
    expect(derived).toBe(300);

    // The sort changes in the same call as a batch: 2 pods changed, 1 deleted, 1 created.
    const changed = new Set<string>();
    for (const object of [...objects.values()].slice(0, 2)) {
      objects.set(object.metadata.uid, nextVersion(object, '9', (copy) => ((copy['status'] as { containerStatuses: Array<{ restartCount: number }> }).containerStatuses[0]!.restartCount = 50)));
      changed.add(object.metadata.uid);
    }
    const gone = [...objects.keys()][10] as string;
    objects.delete(gone);
    changed.add(gone);
    const created = pod('api-new', { namespace: 'ns-0' });
    objects.set(created.metadata.uid, created);
    changed.add(created.metadata.uid);
    expect(live(input('restarts', 'desc', changed)).map((row) => row.uid)).toEqual(full('restarts', 'desc'));
    expect(derived).toBe(303);

    for (const column of POD_COLUMNS.filter((candidate) => candidate.sortKey).map((candidate) => candidate.id)) {
      for (const direction of ['asc', 'desc'] as const) expect(live(input(column, direction, new Set())).map((row) => row.uid), `${column} ${direction}`).toEqual(full(column, direction));
    }
    expect(derived).toBe(303);
  });

  it('keys rows the way the generic sort always has (strings lower-cased)', () => {
    const keyed = keyer((row: { name: string }) => row.name, (row) => row.name)({ name: 'Web-A' });
    expect(keyed).toEqual({ key: 'web-a', tie: 'Web-A', row: { name: 'Web-A' } });
  });
});

describe('change log', () => {
  it('unions the uids changed after a revision, or says it cannot tell', () => {
    const log = createChangeLog(3);
    log.record('Pod', 1, null);
    log.record('Pod', 2, new Set(['a']));
    log.record('Pod', 3, new Set(['b']));
    expect(log.since('Pod', 1, 3)).toEqual(new Set(['a', 'b']));
    expect(log.since('Pod', 3, 3)).toEqual(new Set());
    expect(log.since('Pod', 0, 3)).toBeNull(); // the snapshot at revision 1 replaced everything
    log.record('Pod', 4, new Set(['c']));
    expect(log.since('Pod', 1, 4)).toEqual(new Set(['a', 'b', 'c']));
    log.record('Pod', 5, new Set(['d']));
    expect(log.since('Pod', 1, 5)).toBeNull(); // revision 2 fell out of the log
    expect(log.since('Pod', 2, 5)).toEqual(new Set(['b', 'c', 'd']));
  });
});
