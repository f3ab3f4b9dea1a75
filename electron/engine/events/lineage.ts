/**
 * Who descends from whom, remembered past deletion: "who acted" on a workload during a rollout
 * must find the Killing and SuccessfulDelete Events of Pods and ReplicaSets that are gone by the
 * time anyone asks. Live objects come from the cache; deleted ones are kept up to a cap, oldest
 * forgotten first. HPAs are remembered with their scale target: they act on a workload without
 * owning it. A custom resource whose status reports observedGeneration is remembered too: an
 * operator's reconcile of it acts through what it owns (a Database's StatefulSet and its Pods).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { EventsWorkload } from '../../../shared/contracts/events.ts';
import type { CacheChange } from '../stream/cache.ts';

const LINEAGE_KINDS = new Set(['Pod', 'ReplicaSet', 'Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'HorizontalPodAutoscaler']);
const DEFAULT_MAX_DELETED = 20_000;
/** Workload -> ReplicaSet -> Pod, CronJob -> Job -> Pod: never deeper. */
const MAX_DEPTH = 2;

/** A deleted object, kept as what `describe` and `family` need of it. */
interface Gone {
  workload: EventsWorkload;
  owner: string | undefined;
}

/**
 * A live object is its cached self, so a first sync of 50,000 pods allocates nothing per pod
 * here; it becomes a Gone when deleted. Objects are replaced on change, never changed in place.
 */
type Entry = SlimObject | Gone;

export interface Lineage {
  observe(change: CacheChange): void;
  describe(uid: string): EventsWorkload | undefined;
  /**
   * The workload and everything it owns (depth 1: children, 2: grandchildren), plus the HPAs
   * that scale it (depth 0), by uid.
   */
  family(uid: string): Map<string, { workload: EventsWorkload; depth: number }>;
  clear(): void;
}

/** Whether the object's status reports observedGeneration (its reconciles are tracked). */
function reportsObservedGeneration(object: SlimObject): boolean {
  const status = (object as { status?: unknown }).status;
  return typeof status === 'object' && status !== null && typeof (status as Record<string, unknown>)['observedGeneration'] === 'number';
}

function controllerOwner(object: SlimObject): string | undefined {
  const refs = object.metadata.ownerReferences ?? [];
  return (refs.find((ref) => ref.controller) ?? refs[0])?.uid;
}

function scaleTargetOf(object: SlimObject): string | undefined {
  if (object.kind !== 'HorizontalPodAutoscaler') return undefined;
  const spec = (object as { spec?: { scaleTargetRef?: { kind?: unknown; name?: unknown } } }).spec;
  const target = spec?.scaleTargetRef;
  if (typeof target?.kind !== 'string' || typeof target.name !== 'string') return undefined;
  return `${object.metadata.namespace ?? ''}/${target.kind}/${target.name}`;
}

const isGone = (entry: Entry): entry is Gone => !('metadata' in entry);

function workloadOf(entry: Entry): EventsWorkload {
  if (isGone(entry)) return entry.workload;
  const { uid, name, namespace } = entry.metadata;
  return { kind: entry.kind, name, uid, ...(namespace ? { namespace } : {}) };
}

const ownerOf = (entry: Entry | undefined): string | undefined => (entry === undefined ? undefined : isGone(entry) ? entry.owner : controllerOwner(entry));

export const workloadKey = (w: Pick<EventsWorkload, 'kind' | 'namespace' | 'name'>): string => `${w.namespace ?? ''}/${w.kind}/${w.name}`;

export function createLineage(options: { maxDeleted?: number } = {}): Lineage {
  const maxDeleted = options.maxDeleted ?? DEFAULT_MAX_DELETED;
  const entries = new Map<string, Entry>();
  const children = new Map<string, Set<string>>();
  /** Deleted uids, oldest first (insertion order). */
  const deleted = new Set<string>();
  /** HPA uid -> its scale target's key; few, so a query scans them. */
  const scaleTargets = new Map<string, string>();

  function unlink(uid: string, owner: string | undefined): void {
    if (!owner) return;
    const set = children.get(owner);
    set?.delete(uid);
    if (set?.size === 0) children.delete(owner);
  }

  function drop(uid: string): void {
    const entry = entries.get(uid);
    entries.delete(uid);
    scaleTargets.delete(uid);
    unlink(uid, ownerOf(entry));
  }

  return {
    observe(change) {
      const object = change.object;
      const { uid } = object.metadata;
      if (!LINEAGE_KINDS.has(object.kind) && !entries.has(uid) && !reportsObservedGeneration(object)) return;
      if (change.type === 'delete') {
        const entry = entries.get(uid);
        if (!entry) return;
        if (!isGone(entry)) entries.set(uid, { workload: workloadOf(entry), owner: controllerOwner(entry) });
        deleted.delete(uid);
        deleted.add(uid);
        if (deleted.size > maxDeleted) {
          const oldest = deleted.values().next().value;
          if (oldest !== undefined) {
            deleted.delete(oldest);
            drop(oldest);
          }
        }
        return;
      }
      deleted.delete(uid);
      const previous = ownerOf(entries.get(uid));
      const owner = controllerOwner(object);
      if (previous !== owner) unlink(uid, previous);
      const scaleTarget = scaleTargetOf(object);
      entries.set(uid, object);
      if (scaleTarget) scaleTargets.set(uid, scaleTarget);
      else scaleTargets.delete(uid);
      if (owner) {
        const set = children.get(owner) ?? new Set<string>();
        set.add(uid);
        children.set(owner, set);
      }
    },
    describe(uid) {
      const entry = entries.get(uid);
      return entry && workloadOf(entry);
    },
    family(uid) {
      const out = new Map<string, { workload: EventsWorkload; depth: number }>();
      const root = entries.get(uid);
      if (!root) return out;
      const rootWorkload = workloadOf(root);
      out.set(uid, { workload: rootWorkload, depth: 0 });
      let level = [uid];
      for (let depth = 1; depth <= MAX_DEPTH && level.length > 0; depth += 1) {
        const next: string[] = [];
        for (const parent of level) {
          for (const child of children.get(parent) ?? []) {
            const entry = entries.get(child);
            if (!entry || out.has(child)) continue;
            out.set(child, { workload: workloadOf(entry), depth });
            next.push(child);
          }
        }
        level = next;
      }
      const key = workloadKey(rootWorkload);
      for (const [hpaUid, target] of scaleTargets) {
        const hpa = entries.get(hpaUid);
        if (hpa && target === key) out.set(hpaUid, { workload: workloadOf(hpa), depth: 0 });
      }
      return out;
    },
    clear() {
      entries.clear();
      children.clear();
      scaleTargets.clear();
      deleted.clear();
    },
  };
}
