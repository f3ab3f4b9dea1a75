/**
 * Reconciles inferred from the objects themselves: every metadata.generation bump is a new
 * desired state; status.observedGeneration reaching it is the controller saying "I have seen
 * it" (observe -> diff -> act). The time between the two, as Kubedrift saw the changes arrive,
 * is that controller's reconcile lag. A bump not caught up after `stuckAfterMs` is stuck, shown
 * while it lasts. No Event says any of this; the generations do.
 *
 * Any kind whose status carries observedGeneration counts: the built-in workloads and every
 * custom resource whose operator reports it (Flux, Argo Rollouts, database operators...). Jobs
 * and CronJobs have none (batch/v1 status). A custom kind counts once one of its objects shows
 * the field; until then its objects' generations are followed unseen, so the reconcile of the
 * first object, created before its operator wrote any status, still counts. Built-in kinds are reconciled by their named controllers; any other kind by the
 * controller that reports Events about its objects (`controllerOf`), resolved when asked, so
 * an operator whose first Event comes after its first status write still gets its lag.
 * Memory is bounded: a capped history per object and per kind, deleted objects forgotten first.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { EventsWorkload, LagStats, Reconcile } from '../../../shared/contracts/events.ts';
import { builtinKind } from '../../../shared/builtin-kinds.ts';
import { groupKindKey, groupKindOf } from '../../../shared/kinds.ts';
import type { CacheChange } from '../stream/cache.ts';
import { parseTime } from './normalize.ts';

/**
 * The controller that reconciles each built-in kind (by `Kind.group`: a custom `Deployment` in
 * another group is not the deployment controller's), and whether its status always has
 * observedGeneration (an HPA sets it only on some versions).
 */
export const RECONCILED_KINDS: Readonly<Record<string, { controller: string; alwaysObserved: boolean }>> = {
  'Deployment.apps': { controller: 'deployment-controller', alwaysObserved: true },
  'ReplicaSet.apps': { controller: 'replicaset-controller', alwaysObserved: true },
  'StatefulSet.apps': { controller: 'statefulset-controller', alwaysObserved: true },
  'DaemonSet.apps': { controller: 'daemonset-controller', alwaysObserved: true },
  'HorizontalPodAutoscaler.autoscaling': { controller: 'horizontal-pod-autoscaler', alwaysObserved: false },
  // Pods report it from Kubernetes 1.33 (PodObservedGenerationTracking): the kubelet observes.
  Pod: { controller: 'kubelet', alwaysObserved: false },
};

/** The name a kind's reconciler goes by until an Event names it. */
export const unnamedController = (kindKey: string): string => `(controller of ${kindKey})`;

export const DEFAULT_STUCK_AFTER_MS = 5 * 60_000;
const HISTORY_PER_WORKLOAD = 50;
const HISTORY_PER_KIND = 5_000;
const MAX_WORKLOADS = 20_000;
/** A create seen this soon after its creationTimestamp (second precision) is seen as it happens. */
const FRESH_CREATE_MS = 2_000;

interface Pending {
  generation: number;
  start: number;
  startKnown: boolean;
}

interface Track {
  workload: EventsWorkload;
  /** `Kind.group` of the object. */
  groupKind: string;
  /** The built-in controller, or undefined: resolved by `controllerOf` when asked. */
  builtin: string | undefined;
  kindKey: string;
  generation: number;
  pending: Pending[];
  history: Reconcile[];
  deleted: boolean;
  touched: number;
}

export interface ReconcileQuery {
  controller?: string | undefined;
  uid?: string | undefined;
  from: number;
  to: number;
}

export interface ReconcileTracker {
  observe(change: CacheChange, now: number): boolean;
  /** Completed reconciles that ended in [from, to] and the ongoing ones, ongoing first. */
  list(query: ReconcileQuery, now: number): Reconcile[];
  /** Lag statistics of one controller's reconciles that completed in [from, to]. */
  lag(controller: string, from: number, to: number): LagStats;
  /** Ongoing reconciles of a controller, split into stuck and not yet. */
  ongoing(controller: string, now: number): { stuck: number; pending: number };
  controllers(): string[];
  /** When the next ongoing reconcile turns stuck, or null. */
  nextStuckAt(now: number): number | null;
  clear(): void;
}

export interface ReconcileTrackerOptions {
  stuckAfterMs?: number;
  /** Who reconciles a kind that is not built in (by `Kind.group`), e.g. from its Events. */
  controllerOf?: (groupKind: string) => string | undefined;
}

function generationOf(object: SlimObject): number | undefined {
  const generation = object.metadata.generation;
  return typeof generation === 'number' && Number.isFinite(generation) ? generation : undefined;
}

function observedOf(object: SlimObject): number | undefined {
  const status = (object as { status?: unknown }).status;
  const observed = typeof status === 'object' && status !== null ? (status as Record<string, unknown>)['observedGeneration'] : undefined;
  return typeof observed === 'number' && Number.isFinite(observed) ? observed : undefined;
}

/** Nearest-rank quantiles of lags (ms). */
export function lagStats(lags: readonly number[]): LagStats {
  if (lags.length === 0) return { samples: 0, p50: null, p95: null, max: null };
  const sorted = [...lags].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? null;
  return { samples: sorted.length, p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? null };
}

function pushCapped<T>(list: T[], item: T, cap: number): void {
  list.push(item);
  if (list.length > cap) list.splice(0, list.length - cap);
}

export function createReconcileTracker(options: ReconcileTrackerOptions = {}): ReconcileTracker {
  const stuckAfterMs = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  const controllerOf = options.controllerOf ?? (() => undefined);
  const tracks = new Map<string, Track>();
  /** Completed reconciles per group-kind, with its kind key; the controller is named when asked. */
  const completed = new Map<string, { kindKey: string; builtin: string | undefined; rows: Reconcile[] }>();
  /** Group-kinds an object of which has shown status.observedGeneration. */
  const observing = new Set<string>();

  function nameOf(kind: { groupKind: string; builtin: string | undefined; kindKey: string }): string {
    return kind.builtin ?? controllerOf(kind.groupKind) ?? unnamedController(kind.kindKey);
  }

  /**
   * A custom resource of a kind that has not reported observedGeneration yet: its operator may
   * just not have written status so far (the first Database, just created). A create or a
   * generation bump seen as it happens is kept unseen until the kind reports, so that first
   * reconcile is not lost. Objects merely listed are not (a cluster's thousands of custom
   * resources of kinds that never report would each cost a track). Built-in kinds are known;
   * metadata-only objects (no spec) never report.
   */
  function tentative(object: SlimObject, kindKey: string, previous: SlimObject | undefined, now: number): boolean {
    if (builtinKind(kindKey) !== undefined || (object as { spec?: unknown }).spec === undefined) return false;
    const generation = object.metadata.generation ?? 0;
    if (previous) return generation > (previous.metadata.generation ?? 0);
    const created = parseTime(object.metadata.creationTimestamp);
    return generation === 1 && created !== undefined && now - created <= FRESH_CREATE_MS;
  }

  /** Whether a track's reconciles are shown: its kind reports observedGeneration. */
  const visible = (track: Track): boolean => track.builtin !== undefined || observing.has(track.groupKind);

  function ongoingRow(track: Track, pending: Pending, now: number): Reconcile {
    const lagMs = Math.max(0, now - pending.start);
    return { workload: track.workload, controller: nameOf(track), generation: pending.generation, start: pending.start, startKnown: pending.startKnown, end: null, lagMs, stuck: lagMs >= stuckAfterMs };
  }

  /** A stored row under the name its kind's controller goes by now. */
  const named = (row: Reconcile, name: string): Reconcile => (row.controller === name ? row : { ...row, controller: name });

  function complete(track: Track, observed: number, now: number): void {
    const done = track.pending.filter((p) => p.generation <= observed);
    if (done.length === 0) return;
    track.pending = track.pending.filter((p) => p.generation > observed);
    const perKind = completed.get(track.groupKind) ?? { kindKey: track.kindKey, builtin: track.builtin, rows: [] };
    completed.set(track.groupKind, perKind);
    for (const pending of done) {
      const row: Reconcile = { ...ongoingRow(track, pending, now), end: now, stuck: false };
      pushCapped(track.history, row, HISTORY_PER_WORKLOAD);
      pushCapped(perKind.rows, row, HISTORY_PER_KIND);
    }
  }

  function forget(): void {
    if (tracks.size <= MAX_WORKLOADS) return;
    // Down to 90%, so the sort happens once per few thousand new workloads, not per workload.
    const victims = [...tracks.entries()].sort(([, a], [, b]) => Number(b.deleted) - Number(a.deleted) || a.touched - b.touched);
    for (const [uid] of victims.slice(0, tracks.size - Math.floor(MAX_WORKLOADS * 0.9))) tracks.delete(uid);
  }

  function trackFor(object: SlimObject, kind: { groupKind: string; builtin: string | undefined; kindKey: string }, now: number): Track {
    const { uid, name, namespace } = object.metadata;
    let track = tracks.get(uid);
    if (!track) {
      track = { workload: { kind: object.kind, name, uid, ...(namespace ? { namespace } : {}) }, ...kind, generation: 0, pending: [], history: [], deleted: false, touched: now };
      tracks.set(uid, track);
      forget();
    }
    return track;
  }

  /** `Kind.group` per apiVersion and kind: every change of every object with a generation asks. */
  const groupKinds = new Map<string, string | null>();
  function groupKindOfObject(object: SlimObject): string | null {
    const key = `${object.apiVersion}\u0001${object.kind}`;
    let groupKind = groupKinds.get(key);
    if (groupKind === undefined) {
      const gk = groupKindOf(object);
      groupKind = gk ? groupKindKey(gk) : null;
      groupKinds.set(key, groupKind);
    }
    return groupKind;
  }

  function upsert(object: SlimObject, kindKey: string, previous: SlimObject | undefined, known: Track | undefined, now: number): boolean {
    const generation = generationOf(object);
    const groupKind = generation === undefined ? null : groupKindOfObject(object);
    if (generation === undefined || groupKind === null) return false;
    const spec = RECONCILED_KINDS[groupKind];
    const reported = observedOf(object);
    if (reported !== undefined) observing.add(groupKind);
    else if (!spec?.alwaysObserved && !(spec === undefined && (observing.has(groupKind) || known !== undefined || tentative(object, kindKey, previous, now)))) return false;
    const observed = reported ?? 0;
    const track = trackFor(object, { groupKind, builtin: spec?.controller, kindKey }, now);
    track.touched = now;
    track.deleted = false;
    let changed = false;
    if (generation > track.generation && generation > observed) {
      // First sight of an object that is behind: the bump happened before we watched, unless
      // this is the create itself, seen as it happens.
      const created = parseTime(object.metadata.creationTimestamp);
      const startKnown = known !== undefined || (generation === 1 && created !== undefined && now - created <= FRESH_CREATE_MS);
      track.pending.push({ generation, start: now, startKnown });
      // A kind that never catches up (or never reports) keeps only its latest bumps.
      if (track.pending.length > HISTORY_PER_WORKLOAD) track.pending.splice(0, track.pending.length - HISTORY_PER_WORKLOAD);
      changed = true;
    }
    track.generation = Math.max(track.generation, generation);
    const before = track.pending.length;
    complete(track, observed, now);
    return visible(track) && (changed || track.pending.length !== before);
  }

  return {
    observe(change, now) {
      const known = tracks.get(change.type === 'upsert' ? change.object.metadata.uid : change.ref.uid);
      if (change.type === 'upsert') return upsert(change.object, change.kind, change.previous, known, now);
      if (!known) return false;
      // A deleted workload's pending reconcile is not stuck, it is moot.
      const hadPending = known.pending.length > 0;
      known.pending = [];
      known.deleted = true;
      return hadPending;
    },
    list(query, now) {
      const rows: Reconcile[] = [];
      const candidates = query.uid ? [tracks.get(query.uid)].filter((t): t is Track => t !== undefined) : [...tracks.values()];
      for (const track of candidates) {
        if (!visible(track)) continue;
        const name = nameOf(track);
        if (query.controller && name !== query.controller) continue;
        for (const pending of track.pending) rows.push(ongoingRow(track, pending, now));
        for (const row of track.history) if ((row.end ?? now) >= query.from && row.start <= query.to) rows.push(named(row, name));
      }
      // Ongoing first (stuck first), then newest first.
      const rank = (r: Reconcile) => (r.end === null ? (r.stuck ? 0 : 1) : 2);
      return rows.sort((a, b) => rank(a) - rank(b) || b.start - a.start);
    },
    lag(controller, from, to) {
      const lags: number[] = [];
      for (const [groupKind, perKind] of completed) {
        if (nameOf({ groupKind, ...perKind }) !== controller) continue;
        for (const row of perKind.rows) if (row.end !== null && row.end >= from && row.end <= to) lags.push(row.lagMs);
      }
      return lagStats(lags);
    },
    ongoing(controller, now) {
      let stuck = 0;
      let pending = 0;
      for (const track of tracks.values()) {
        if (track.pending.length === 0 || !visible(track) || nameOf(track) !== controller) continue;
        for (const p of track.pending) if (now - p.start >= stuckAfterMs) stuck += 1;
        else pending += 1;
      }
      return { stuck, pending };
    },
    controllers() {
      const names = new Set<string>();
      for (const [groupKind, perKind] of completed) names.add(nameOf({ groupKind, ...perKind }));
      for (const track of tracks.values()) if (track.pending.length > 0 && visible(track)) names.add(nameOf(track));
      return [...names];
    },
    nextStuckAt(now) {
      let next: number | null = null;
      for (const track of tracks.values()) {
        if (!visible(track)) continue;
        for (const p of track.pending) {
          const at = p.start + stuckAfterMs;
          if (at > now && (next === null || at < next)) next = at;
        }
      }
      return next;
    },
    clear() {
      tracks.clear();
      completed.clear();
      observing.clear();
    },
  };
}
