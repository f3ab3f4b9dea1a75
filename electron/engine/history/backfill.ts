/**
 * Backfill: what the cluster still holds about its past, read from the objects as listed on
 * connect and turned into inferred history rows (the issue's "what Kubernetes itself keeps"):
 * - rollouts: a Deployment's ReplicaSets, each created for one revision
 *   (`deployment.kubernetes.io/revision`), and ControllerRevisions (StatefulSets, DaemonSets;
 *   their `revision` field, or only their creation when watched as metadata);
 * - condition transitions: each condition's lastTransitionTime (a pod's only while not True:
 *   its True conditions are just how every pod starts);
 * - container terminations: lastState.terminated (and state.terminated), with exit code and
 *   reason; restarts the kubelet kept no termination for say so, with their time unknown;
 * - Job runs: startTime to completionTime (or the Failed condition's time);
 * - object creation (workloads; not every pod, whose creation the rollouts already tell).
 * - Events still within their TTL (backfill-events.ts), on their involved object's workload.
 *
 * Nothing is guessed: a fact whose time the cluster does not give has `at` null. Ids hash the
 * object's uid, the fact, what it is about and its time, so a second backfill of the same
 * cluster writes the same rows (an upsert: a Job that finished since only gains its end).
 */
import { hash } from 'node:crypto';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { InferredFactKind } from '../../../shared/contracts/history.ts';

export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const CONTROLLER_REVISIONS = 'controllerrevisions.apps';

/** One inferred row as the store keeps it (`workloadUid`: the object's topmost controller). */
export interface InferredRow {
  id: string;
  objectUid: string;
  workloadUid: string;
  kind: string;
  namespace: string;
  name: string;
  fact: InferredFactKind;
  at: number | null;
  end: number | null;
  detail: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A Kubernetes timestamp in ms, or null when absent or unreadable (never "now"). */
export function timeOf(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

/**
 * The deterministic id of a fact: the same cluster state always gives the same id. One-shot
 * `hash` (the same SHA-1 hex as a Hash object's) costs about half as much: a connect makes ~20,000.
 */
export function factId(uid: string, fact: InferredFactKind, about: string, at: number | null): string {
  return hash('sha1', `${uid}\u0000${fact}\u0000${about}\u0000${at ?? 'unknown'}`, 'hex').slice(0, 24);
}

/** The kinds whose creation is a fact worth a row (workloads the history records). */
const CREATION_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet, BUILTIN_KEYS.DaemonSet, BUILTIN_KEYS.Job, BUILTIN_KEYS.CronJob, BUILTIN_KEYS.HorizontalPodAutoscaler]);
/** The kinds whose conditions' transitions are rows (a pod's only while not True). */
const CONDITION_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet, BUILTIN_KEYS.DaemonSet, BUILTIN_KEYS.ReplicaSet, BUILTIN_KEYS.Job, BUILTIN_KEYS.Pod]);

function conditionFacts(object: SlimObject, kind: string, add: (fact: InferredFactKind, about: string, at: number | null, end: number | null, detail: string) => void): void {
  const status = isObject((object as Json)['status']) ? ((object as Json)['status'] as Json) : {};
  for (const condition of list(status['conditions'])) {
    const type = text(condition['type']);
    const value = text(condition['status']);
    if (!type || (kind === BUILTIN_KEYS.Pod && value === 'True')) continue;
    const at = timeOf(condition['lastTransitionTime']);
    const reason = text(condition['reason']);
    add('condition', `${type}=${value}`, at, null, `${type} → ${value}${reason ? ` (${reason})` : ''}${at === null ? ', since an unknown time' : ''}`);
  }
}

function containerFacts(object: SlimObject, add: (fact: InferredFactKind, about: string, at: number | null, end: number | null, detail: string) => void): void {
  const status = isObject((object as Json)['status']) ? ((object as Json)['status'] as Json) : {};
  for (const container of [...list(status['initContainerStatuses']), ...list(status['containerStatuses'])]) {
    const name = text(container['name']);
    const restarts = typeof container['restartCount'] === 'number' ? container['restartCount'] : 0;
    let kept = false;
    for (const [where, state] of [['last', container['lastState']], ['now', container['state']]] as const) {
      const terminated = isObject(state) && isObject(state['terminated']) ? state['terminated'] : undefined;
      if (!terminated) continue;
      kept = true;
      const started = timeOf(terminated['startedAt']);
      const finished = timeOf(terminated['finishedAt']);
      const code = typeof terminated['exitCode'] === 'number' ? terminated['exitCode'] : null;
      const reason = text(terminated['reason']);
      const ran = started === null ? 'started at an unknown time' : `started ${new Date(started).toISOString()}`;
      add('terminated', `${where}/${name}/${started ?? ''}`, finished, null, `container ${name} exited${code === null ? '' : ` ${code}`}${reason ? ` (${reason})` : ''}, ${ran}${restarts > 0 ? `; ${restarts} restarts` : ''}`);
    }
    // Restarts the kubelet kept no termination of: they happened, when is not known.
    if (!kept && restarts > 0) add('terminated', `restarts/${name}/${restarts}`, null, null, `container ${name} restarted ${restarts} times; when is unknown`);
  }
}

function jobFacts(object: SlimObject, add: (fact: InferredFactKind, about: string, at: number | null, end: number | null, detail: string) => void): void {
  const status = isObject((object as Json)['status']) ? ((object as Json)['status'] as Json) : {};
  const start = timeOf(status['startTime']);
  const conditions = list(status['conditions']);
  const failed = conditions.find((c) => c['type'] === 'Failed' && c['status'] === 'True');
  const complete = conditions.find((c) => c['type'] === 'Complete' && c['status'] === 'True');
  // completionTime is set on success only; a failed Job's end is its Failed condition's time.
  const end = timeOf(status['completionTime']) ?? (failed ? timeOf(failed['lastTransitionTime']) : null);
  const outcome = complete ? 'succeeded' : failed ? `failed${text(failed['reason']) ? ` (${text(failed['reason'])})` : ''}` : 'still running';
  if (start === null && !complete && !failed) return;
  add('job-run', 'run', start, end, `Job run ${outcome}${start === null ? ', started at an unknown time' : ''}`);
}

/**
 * The facts one object tells (see the file comment). `workloadUid` is its topmost controller's
 * uid (itself when it has none): the workload whose screen shows them.
 */
export function inferFacts(object: SlimObject, kind: string, workloadUid: string): InferredRow[] {
  const { uid, name } = object.metadata;
  const namespace = object.metadata.namespace ?? '';
  const rows: InferredRow[] = [];
  const add = (fact: InferredFactKind, about: string, at: number | null, end: number | null, detail: string) => {
    rows.push({ id: factId(uid, fact, about, at), objectUid: uid, workloadUid, kind: object.kind, namespace, name, fact, at, end, detail });
  };
  const created = timeOf(object.metadata.creationTimestamp);
  if (CREATION_KINDS.has(kind)) add('created', 'created', created, null, `${object.kind} created${created === null ? ' at an unknown time' : ''}`);
  if (kind === BUILTIN_KEYS.ReplicaSet) {
    const revision = object.metadata.annotations?.[REVISION_ANNOTATION];
    if (revision !== undefined) add('rollout', `revision ${revision}`, created, null, `revision ${revision} (ReplicaSet ${name})`);
    else if (workloadUid === uid) add('created', 'created', created, null, 'ReplicaSet created');
  }
  if (kind === CONTROLLER_REVISIONS) {
    const revision = (object as Json)['revision'];
    add('rollout', `revision ${typeof revision === 'number' ? revision : name}`, created, null, `${typeof revision === 'number' ? `revision ${revision}` : 'a revision'} (ControllerRevision ${name})`);
  }
  if (CONDITION_KINDS.has(kind)) conditionFacts(object, kind, add);
  if (kind === BUILTIN_KEYS.Pod) containerFacts(object, add);
  if (kind === BUILTIN_KEYS.Job) jobFacts(object, add);
  return rows;
}

/** The controller's uid of each object that has one (ownerReferences with controller: true). */
export function controllerUids(objects: readonly SlimObject[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const object of objects) {
    const owner = object.metadata.ownerReferences?.find((ref) => ref.controller === true);
    if (owner?.uid) owners.set(object.metadata.uid, owner.uid);
  }
  return owners;
}

/** Who controls whom: a map of child uid to controller uid, or anything that answers like one. */
export type OwnerLookup = Pick<ReadonlyMap<string, string>, 'get'>;

/** The topmost controller of `uid` (a pod -> its ReplicaSet -> its Deployment), or `uid` itself. */
export function topController(uid: string, owners: OwnerLookup): string {
  let current = uid;
  // Owner chains are short; the bound guards against a cycle in malformed data.
  for (let hops = 0; hops < 8; hops += 1) {
    const next = owners.get(current);
    if (!next) break;
    current = next;
  }
  return current;
}
