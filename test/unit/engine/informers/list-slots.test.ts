/**
 * The turns of a restricted user's per-namespace lists: at most N at once, workloads before the
 * rest, and a namespace that fails (or stops) hands its turn on, so it never holds up the others.
 * NamespacedKinds is driven here with fake reflectors that report what a real one would.
 */
import { describe, expect, it } from 'vitest';
import type { KindHealthState } from '../../../../shared/cluster.ts';
import { HealthBoard } from '../../../../electron/engine/cluster/informers/health.ts';
import { ListSlots, listPriority, NAMESPACE_LISTS_AT_ONCE, type ListTurn } from '../../../../electron/engine/cluster/informers/list-slots.ts';
import { NamespacedKinds, type KindSpec, type ReflectorFactory } from '../../../../electron/engine/cluster/informers/namespaced.ts';
import type { Reflector } from '../../../../electron/engine/cluster/informers/reflector.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { FakeClock } from './helpers.ts';

describe('ListSlots', () => {
  it('runs at most its limit at once and starts the next as each turn is released', () => {
    const slots = new ListSlots(2);
    const started: string[] = [];
    const turns = ['a', 'b', 'c', 'd'].map((name) => slots.request(0, () => started.push(name)));
    expect(started).toEqual(['a', 'b']);
    expect([slots.active, slots.queued]).toEqual([2, 2]);
    turns[1]?.release();
    expect(started).toEqual(['a', 'b', 'c']);
    // A second release of the same turn frees nothing more.
    turns[1]?.release();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(slots.active).toBe(2);
  });

  it('starts waiting turns by priority, then in the order asked', () => {
    const slots = new ListSlots(1);
    const started: string[] = [];
    const turns = new Map<string, ListTurn>();
    const ask = (priority: number, name: string): void => {
      turns.set(name, slots.request(priority, () => started.push(name)));
    };
    ask(1, 'running');
    ask(1, 'events-a');
    ask(0, 'pods-a');
    ask(1, 'events-b');
    ask(0, 'pods-b');
    // Each started turn ends in turn.
    for (let i = 0; i < 5; i += 1) turns.get(started.at(-1) ?? '')?.release();
    expect(started).toEqual(['running', 'pods-a', 'pods-b', 'events-a', 'events-b']);
  });

  it('never starts a turn given up while it waited', () => {
    const slots = new ListSlots(1);
    const started: string[] = [];
    const first = slots.request(0, () => started.push('a'));
    const given = slots.request(0, () => started.push('b'));
    slots.request(0, () => started.push('c'));
    given.release();
    first.release();
    expect(started).toEqual(['a', 'c']);
    expect(slots.queued).toBe(0);
  });

  it('puts the workload kinds first and refuses a limit that is not a positive integer', () => {
    expect(listPriority('pods')).toBeLessThan(listPriority('events'));
    expect(listPriority('deployments.apps')).toBeLessThan(listPriority('configmaps'));
    expect(listPriority('replicasets.apps')).toBeLessThan(listPriority('certificates.cert-manager.io'));
    expect(() => new ListSlots(0)).toThrow('concurrent lists must be a positive integer, got 0');
    expect(NAMESPACE_LISTS_AT_ONCE).toBeGreaterThan(1);
  });
});

/** A reflector that lists nothing by itself: the test says what it reports. */
interface Fake {
  namespace: string;
  started: boolean;
  stopped: boolean;
  /** Reported live once (its list done). */
  done: boolean;
  report(state: KindHealthState, message?: string): void;
  finish(): void;
}

function harness(limit: number) {
  const cache = new ObjectCache();
  const board = new HealthBoard({ kinds: ['pods', 'events'], clock: new FakeClock(), onHealth: () => undefined });
  const fakes: Fake[] = [];
  /** `kind:namespace` in the order the reflectors started. */
  const order: string[] = [];
  const newReflector: ReflectorFactory = (kind, _spec, { namespace, health }) => {
    const fake: Fake = {
      namespace,
      started: false,
      stopped: false,
      done: false,
      report: (state, message) => health.set(kind, state, { count: 0, ...(message !== undefined ? { message } : {}) }),
      finish: () => {
        fake.done = true;
        fake.report('live');
      },
    };
    fakes.push(fake);
    return {
      start: () => {
        fake.started = true;
        order.push(`${kind}:${namespace}`);
        fake.report('syncing');
      },
      stop: async () => {
        fake.stopped = true;
      },
      restart: () => undefined,
    } as unknown as Reflector;
  };
  const kinds = new NamespacedKinds({ cache, board, newReflector, lists: new ListSlots(limit) });
  const started = (): string[] => fakes.filter((f) => f.started && !f.stopped).map((f) => f.namespace);
  return { kinds, board, fakes, order, started };
}

const SPEC: KindSpec = { endpoints: [{ group: '', version: 'v1', resource: 'pods', path: '/api/v1/pods', apiVersion: 'v1', objectKind: 'Pod' } as never], metadataOnly: false };
const TEAMS = ['team-a', 'team-b', 'team-c', 'team-d', 'team-e'];

describe('NamespacedKinds with a bound on lists', () => {
  it('lists only as many namespaces at once as the bound allows; each live one lets the next start', async () => {
    const { kinds, fakes, started } = harness(2);
    await kinds.set('pods', SPEC, TEAMS);
    expect(started()).toEqual(['team-a', 'team-b']);
    fakes[0]?.report('live');
    expect(started()).toEqual(['team-a', 'team-b', 'team-c']);
    // A relist later (410, a restart) reports syncing again without taking a second turn.
    fakes[0]?.report('syncing');
    fakes[1]?.report('live');
    expect(started()).toEqual(['team-a', 'team-b', 'team-c', 'team-d']);
  });

  it('lets the others go on when one namespace fails: its turn passes on while it retries alone', async () => {
    const { kinds, board, fakes, started } = harness(1);
    await kinds.set('pods', SPEC, ['team-a', 'team-b', 'team-c']);
    expect(started()).toEqual(['team-a']);
    fakes[0]?.report('forbidden', 'pods is forbidden: User "dev" cannot list resource "pods" in the namespace "team-a"');
    expect(started()).toEqual(['team-a', 'team-b']);
    fakes[1]?.report('live');
    fakes[2]?.report('live');
    expect(started()).toEqual(['team-a', 'team-b', 'team-c']);
    expect(board.list().find((k) => k.kind === 'pods')).toMatchObject({ state: 'live', message: 'Namespaces team-b, team-c; team-a: pods is forbidden: User "dev" cannot list resource "pods" in the namespace "team-a"' });
  });

  it('never starts a namespace dropped while it waited, and gives a stopped one’s turn to the next', async () => {
    const { kinds, fakes, started } = harness(1);
    await kinds.set('pods', SPEC, ['team-a', 'team-b', 'team-c']);
    await kinds.set('pods', SPEC, ['team-a', 'team-c']);
    expect(fakes.find((f) => f.namespace === 'team-b')).toMatchObject({ started: false, stopped: true });
    await kinds.set('pods', SPEC, ['team-c']);
    expect(started()).toEqual(['team-c']);
  });

  it('lists the workload kinds of waiting namespaces before their Events', async () => {
    const { kinds, fakes, order } = harness(1);
    await kinds.set('events', SPEC, ['team-a', 'team-b']);
    await kinds.set('pods', SPEC, ['team-a', 'team-b']);
    // The first Events list had the free slot; the pods jump the queue ahead of team-b's Events.
    for (let i = 0; i < 3; i += 1) fakes.find((f) => f.started && !f.done)?.finish();
    expect(order).toEqual(['events:team-a', 'pods:team-a', 'pods:team-b', 'events:team-b']);
  });
});
