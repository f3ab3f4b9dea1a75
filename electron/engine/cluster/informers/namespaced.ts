/**
 * Kinds watched namespace by namespace, for a user who may not list them cluster-wide: one
 * reflector per (kind, namespace), each on `/api/v1/namespaces/NS/pods` and the like, each
 * failing and retrying on its own, all writing into the kind's one cache bucket (a relist
 * replaces its own namespace only). The kind's health on the board is the sum of its namespaces:
 * live while any namespace is live, with a message naming them ("Namespaces payments, shop") and
 * any that fail with the server's words. Their first lists take turns (list-slots.ts): a few at
 * a time, workloads first, each namespace's watch starting from its own list's resourceVersion.
 */
import type { KindHealthState, KindKey } from '../../../../shared/cluster.ts';
import { collectionPath } from '../../../../shared/kinds.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import type { ResourceEndpoint } from './discovery.ts';
import type { HealthBoard } from './health.ts';
import { ListSlots, listPriority, type ListTurn } from './list-slots.ts';
import type { Reflector } from './reflector.ts';

/** How a kind is read: where it is served (preferred first) and whether as metadata only. */
export interface KindSpec {
  endpoints: readonly ResourceEndpoint[];
  metadataOnly: boolean;
}

/** Builds one reflector; the watcher passes its own (transport, decoder, timings). */
export type ReflectorFactory = (kind: KindKey, spec: KindSpec, options: { namespace: string; health: Pick<HealthBoard, 'set' | 'count' | 'setLag'> }) => Reflector;

/** Options of NamespacedKinds. */
export interface NamespacedKindsOptions {
  cache: ObjectCache;
  board: HealthBoard;
  newReflector: ReflectorFactory;
  /** A namespace's list or watch answered 403 (RBAC changed under it). */
  onForbidden?: (kind: KindKey, namespace: string) => void;
  /** The turns of the first lists; NAMESPACE_LISTS_AT_ONCE at a time by default. */
  lists?: ListSlots;
}

interface Slot {
  reflector: Reflector;
  /** Its first list's turn: released once it is live or has failed, or when it stops. */
  turn: ListTurn;
  state: KindHealthState;
  message?: string;
}

/** The endpoint of a kind in one namespace. */
export function inNamespace(endpoint: ResourceEndpoint, namespace: string): ResourceEndpoint {
  const path = collectionPath({ group: endpoint.group, version: endpoint.version, plural: endpoint.resource, namespaced: true }, namespace);
  return { ...endpoint, path };
}

/** While one namespace is still listing, the kind is syncing; then live if any is; else the least final failure. */
const FAILURE_ORDER: readonly KindHealthState[] = ['reconnecting', 'unavailable', 'forbidden'];

function sorted(names: Iterable<string>): string[] {
  return [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The one health of a kind read in several namespaces. */
export function combineHealth(slots: ReadonlyMap<string, Pick<Slot, 'state' | 'message'>>): { state: KindHealthState; message: string } {
  const names = sorted(slots.keys());
  const inState = (state: KindHealthState): string[] => names.filter((n) => slots.get(n)?.state === state);
  const live = inState('live');
  const syncing = inState('syncing');
  // Reported at every state change of any of fifty namespaces: linear, not a search per name.
  const failing = names.filter((n) => slots.get(n)?.state !== 'live' && slots.get(n)?.state !== 'syncing');
  const covered = [...live, ...syncing];
  const parts = covered.length ? [`Namespaces ${sorted(covered).join(', ')}`] : [];
  for (const name of failing) parts.push(`${name}: ${slots.get(name)?.message ?? slots.get(name)?.state ?? ''}`);
  let state: KindHealthState;
  if (syncing.length) state = 'syncing';
  else if (live.length) state = 'live';
  else state = FAILURE_ORDER.find((s) => failing.some((n) => slots.get(n)?.state === s)) ?? 'reconnecting';
  return { state, message: parts.join('; ') };
}

export class NamespacedKinds {
  private readonly o: NamespacedKindsOptions;
  private readonly kinds = new Map<KindKey, { spec: KindSpec; slots: Map<string, Slot> }>();
  private readonly lists: ListSlots;

  constructor(options: NamespacedKindsOptions) {
    this.o = options;
    this.lists = options.lists ?? new ListSlots();
  }

  /** Whether a kind is read per namespace now. */
  has(kind: KindKey): boolean {
    return this.kinds.has(kind);
  }

  /**
   * Reads `kind` in exactly these namespaces: starts the missing ones, stops (and drops the
   * objects of) the ones no longer named. A changed spec starts every namespace afresh.
   */
  async set(kind: KindKey, spec: KindSpec, namespaces: readonly string[]): Promise<void> {
    let entry = this.kinds.get(kind);
    if (entry && !sameSpec(entry.spec, spec)) {
      await this.drop(kind, { keepObjects: false });
      entry = undefined;
    }
    if (!entry) {
      entry = { spec, slots: new Map() };
      this.kinds.set(kind, entry);
    }
    const wanted = new Set(namespaces);
    const gone = [...entry.slots].filter(([name]) => !wanted.has(name));
    for (const [name] of gone) entry.slots.delete(name);
    for (const name of wanted) if (!entry.slots.has(name)) entry.slots.set(name, this.start(kind, spec, name));
    this.report(kind);
    await Promise.all(gone.map(([, slot]) => stopSlot(slot)));
    const stillGone = gone.map(([name]) => name).filter((name) => this.kinds.get(kind)?.slots.has(name) !== true);
    // No longer read there (access withdrawn, or the namespace left the list): the objects left the view.
    if (stillGone.length) this.o.cache.leave(kind, (object) => !stillGone.includes(object.metadata.namespace ?? ''));
  }

  /**
   * Stops every namespace of a kind. `keepObjects`: the kind goes on cluster-wide, whose list
   * replaces them; otherwise (hidden now, or read afresh) they leave the cache as having left the
   * view, not as deleted (ObjectCache.leave).
   */
  async drop(kind: KindKey, options: { keepObjects: boolean }): Promise<void> {
    const entry = this.kinds.get(kind);
    if (!entry) return;
    this.kinds.delete(kind);
    await Promise.all([...entry.slots.values()].map(stopSlot));
    if (options.keepObjects) return;
    // A `set` for the kind may have begun meanwhile: the namespaces it reads keep their objects.
    const names = new Set(entry.slots.keys());
    const current = this.kinds.get(kind)?.slots;
    this.o.cache.leave(kind, (object) => {
      const namespace = object.metadata.namespace ?? '';
      return !names.has(namespace) || current?.has(namespace) === true;
    });
  }

  restartAll(reason: string): void {
    for (const entry of this.kinds.values()) for (const slot of entry.slots.values()) slot.reflector.restart(reason);
  }

  async stop(): Promise<void> {
    const all = [...this.kinds.values()].flatMap((entry) => [...entry.slots.values()]);
    this.kinds.clear();
    await Promise.all(all.map(stopSlot));
  }

  private start(kind: KindKey, spec: KindSpec, namespace: string): Slot {
    const scoped: KindSpec = { ...spec, endpoints: spec.endpoints.map((e) => inNamespace(e, namespace)) };
    const slot = { state: 'syncing' } as Slot;
    const health: Pick<HealthBoard, 'set' | 'count' | 'setLag'> = {
      set: (_kind, state, details) => {
        // Only a slot still in use speaks: a stopped one may report once more on its way out.
        if (this.kinds.get(kind)?.slots.get(namespace) !== slot) return;
        const wasForbidden = slot.state === 'forbidden';
        slot.state = state;
        // Listed and watching, or failed (it retries on its own): either way the next list may go.
        if (state !== 'syncing') slot.turn.release();
        if (details.message !== undefined) slot.message = details.message;
        else delete slot.message;
        this.report(kind);
        if (state === 'forbidden' && !wasForbidden) this.o.onForbidden?.(kind, namespace);
      },
      count: () => {
        if (this.kinds.get(kind)?.slots.get(namespace) === slot) this.o.board.count(kind, this.o.cache.size(kind));
      },
      // One kind, many namespaces: the namespace that is behind speaks for the kind until it catches up.
      setLag: (_kind, lag) => {
        if (this.kinds.get(kind)?.slots.get(namespace) === slot) this.o.board.setLag(kind, lag);
      },
    };
    slot.reflector = this.o.newReflector(kind, scoped, { namespace, health });
    slot.turn = this.lists.request(listPriority(kind), () => slot.reflector.start());
    return slot;
  }

  private report(kind: KindKey): void {
    const entry = this.kinds.get(kind);
    if (!entry || entry.slots.size === 0) return;
    const { state, message } = combineHealth(entry.slots);
    this.o.board.set(kind, state, { count: this.o.cache.size(kind), message });
  }
}

/** Gives up the slot's turn (a waiting one never starts) and stops its reflector. */
function stopSlot(slot: Slot): Promise<void> {
  slot.turn.release();
  return slot.reflector.stop();
}

function sameSpec(a: KindSpec, b: KindSpec): boolean {
  return a.metadataOnly === b.metadataOnly && a.endpoints.length === b.endpoints.length && a.endpoints.every((e, i) => e.path === b.endpoints[i]?.path && e.objectKind === b.endpoints[i]?.objectKind);
}
