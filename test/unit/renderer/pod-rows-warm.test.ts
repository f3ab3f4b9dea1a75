/**
 * The Pods table's rows are kept per cluster store, not per visit, and prepared in idle time
 * after a sync (pod-rows.ts, live-rows.ts `prepare`): the warm-up makes every row and their tie
 * order in slices that each stop after about 5 ms, then every column's order; a first click on
 * any header afterwards sorts nothing, coming back to the screen derives nothing again, and what
 * changed since the warm-up began is patched in.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SlimObject } from '../../../shared/cluster.ts';
import { ColumnOrder } from '../../../renderer/components/table/column-order.ts';
import { podRow } from '../../../renderer/stores/rows/pods.ts';
import { POD_COLUMNS } from '../../../renderer/views/pods/pod-columns.ts';
import { DEFAULT_POD_SORT, podRows, podsListed } from '../../../renderer/views/pods/pod-rows.ts';
import { pod } from './cluster-fixtures.ts';

const PODS = 3_000;
/** live-rows.ts's idle slice, ms. */
const SLICE_MS = 5;

/** A cluster store of PODS pods (as `objects`, `revision` and `changedSince` answer), changed by `change`. */
function store() {
  const objects = new Map<string, SlimObject>();
  for (let i = 0; i < PODS; i += 1) {
    const object = pod(`web-${String(i).padStart(4, '0')}`, { namespace: `ns-${i % 7}`, node: `node-${(i * 31) % 50}` });
    objects.set(object.metadata.uid, object);
  }
  let revision = 1;
  const log: Array<{ revision: number; uid: string }> = [];
  return {
    objects: () => objects,
    revision: () => revision,
    changedSince: (_kind: string, since: number) => new Set(log.filter((entry) => entry.revision > since).map((entry) => entry.uid)),
    change(object: SlimObject) {
      objects.set(object.metadata.uid, object);
      revision += 1;
      log.push({ revision, uid: object.metadata.uid });
    },
  };
}

/** The first pod of `cluster` moved to node `node` (a new version of the same object). */
function moveFirst(cluster: ReturnType<typeof store>, node: string): SlimObject {
  const [first] = cluster.objects().values();
  return pod('web-0000', { namespace: (first as SlimObject).metadata.namespace ?? '', uid: (first as SlimObject).metadata.uid, resourceVersion: node, node });
}

/** Idle tasks queued, run one at a time; a clock that each derived row moves by 0.05 ms, and each reading by `perRead` ms. */
function harness(perRead = 0) {
  const tasks: Array<() => void> = [];
  let clock = 0;
  let derived = 0;
  const options = {
    idle: (task: () => void) => tasks.push(task),
    now: () => (clock += perRead),
    derive: (object: SlimObject) => {
      derived += 1;
      clock += 0.05;
      return podRow(object);
    },
  };
  return {
    options,
    tasks,
    derived: () => derived,
    /** Runs the queued tasks (and those they queue) in order; the rows each one derived. */
    drain(): number[] {
      const perTask: number[] = [];
      while (tasks.length > 0) {
        const before = derived;
        (tasks.shift() as () => void)();
        perTask.push(derived - before);
      }
      return perTask;
    },
  };
}

/** A store of PODS pods, its harness and its Pods rows (of a store of their own: none kept from another test). */
function setUp(perRead = 0) {
  const cluster = store();
  const h = harness(perRead);
  return { cluster, h, rows: podRows(cluster, h.options) };
}

afterEach(() => vi.restoreAllMocks());

describe('the Pods rows', () => {
  it('are the same rows and orders on every visit of the screen', () => {
    const { cluster, h, rows: first } = setUp();
    expect(first.rows(DEFAULT_POD_SORT)).toHaveLength(PODS);
    expect(h.derived()).toBe(PODS);
    // The screen opened again: the same rows, nothing derived or sorted again.
    const build = vi.spyOn(ColumnOrder, 'build');
    expect(podRows(cluster)).toBe(first);
    expect(podRows(cluster).rows(DEFAULT_POD_SORT)).toHaveLength(PODS);
    expect(h.derived()).toBe(PODS);
    expect(build).not.toHaveBeenCalled();
  });

  it('are prepared in idle slices after a sync, so that no first click sorts', () => {
    const { h, rows } = setUp();
    rows.warm();
    rows.warm();
    const perTask = h.drain();
    expect(h.derived()).toBe(PODS);
    // Each slice stops once SLICE_MS have passed (checking the clock every 128 rows).
    const slices = perTask.filter((n) => n > 0);
    expect(slices.length).toBeGreaterThan(1);
    for (const n of slices) expect(n).toBeLessThanOrEqual(Math.ceil(SLICE_MS / 0.05 / 128) * 128);

    const build = vi.spyOn(ColumnOrder, 'build');
    for (const column of POD_COLUMNS) {
      const sorted = rows.rows({ column: column.id, direction: 'asc' });
      expect(sorted, column.id).toHaveLength(PODS);
    }
    expect(build).not.toHaveBeenCalled();
    expect(rows.rows({ column: 'name', direction: 'asc' })[0]?.name).toBe('web-0000');
    expect(h.derived()).toBe(PODS);
  });

  it('merge what changed after the warm-up into the orders it prepared', () => {
    const { cluster, h, rows } = setUp();
    rows.warm();
    h.drain();
    cluster.change(moveFirst(cluster, 'node-zz'));
    const build = vi.spyOn(ColumnOrder, 'build');
    const byNode = rows.rows({ column: 'node', direction: 'desc' });
    expect(byNode[0]?.name).toBe('web-0000');
    expect(byNode[0]?.node).toBe('node-zz');
    expect(build).not.toHaveBeenCalled();
    expect(h.derived()).toBe(PODS + 1);
  });

  it('patch in what changed while the warm-up ran', () => {
    const { cluster, h, rows } = setUp();
    rows.warm();
    for (let i = 0; i < 3; i += 1) (h.tasks.shift() as () => void)();
    expect(h.derived()).toBeLessThan(PODS);
    cluster.change(moveFirst(cluster, 'node-zz'));
    h.drain();
    expect(rows.rows({ column: 'node', direction: 'desc' })[0]?.node).toBe('node-zz');
    expect(rows.rows(DEFAULT_POD_SORT)).toHaveLength(PODS);
  });

  it('are built at once when the screen opens during the warm-up, which then stops', () => {
    const { h, rows } = setUp();
    rows.warm();
    for (let i = 0; i < 3; i += 1) (h.tasks.shift() as () => void)();
    const shown = rows.rows(DEFAULT_POD_SORT);
    expect(shown).toHaveLength(PODS);
    h.drain();
    // Had the warm-up gone on, it would have put its own rows in place: a new list here.
    expect(rows.rows(DEFAULT_POD_SORT)).toBe(shown);
  });
});

describe('a warm-up started while the screen is shown', () => {
  it('stops at the screen’s next call, which keeps its rows current itself', () => {
    // Rows already made are not derived again: here the clock moves as it is read.
    const { h, rows } = setUp(1);
    rows.rows(DEFAULT_POD_SORT);
    h.drain();
    rows.warm();
    (h.tasks.shift() as () => void)();
    expect(h.tasks).toHaveLength(1);
    const shown = rows.rows(DEFAULT_POD_SORT);
    h.drain();
    expect(rows.rows(DEFAULT_POD_SORT)).toBe(shown);
  });
});

describe('the warm-up', () => {
  const health = (state: 'syncing' | 'live' | 'forbidden', count: number) => [
    { kind: 'deployments.apps', state: 'live' as const, count: 3, since: 0 },
    { kind: 'pods', state, count, since: 0 },
  ];

  it('waits until the engine has listed the pods and this window holds them', () => {
    expect(podsListed(false, health('live', 10), 10)).toBe(false);
    expect(podsListed(true, health('syncing', 4), 4)).toBe(false);
    expect(podsListed(true, health('live', 10), 9)).toBe(false);
    expect(podsListed(true, health('live', 10), 10)).toBe(true);
    expect(podsListed(true, health('forbidden', 0), 0)).toBe(false);
    expect(podsListed(true, [], 0)).toBe(false);
  });
});
