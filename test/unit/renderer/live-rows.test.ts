import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import { createLiveRows } from '../../../renderer/components/table/live-rows.ts';
import { sortRows } from '../../../renderer/components/table/sort.ts';
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
