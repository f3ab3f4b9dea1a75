/**
 * What of a cached object the renderer's live store receives. The cache holds the slim form
 * (cluster/informers/slim.ts), which the history recorder, snapshots, the graph and diff read.
 * The live store feeds the tables, and of a Pod they read much less: kubectl's STATUS inputs
 * (phase, reason, three conditions, container states, restarts), the node, the owner and the
 * times.
 * Pods are nearly all of a large cluster, so at 50,000 pods this halves the bytes of a first
 * sync's frames and the renderer's parsing of them. A view of a pod at a past time (history,
 * snapshots, the graph's manifest) is the slim object, read from the engine on demand.
 * Other kinds reach the renderer as they are cached.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import { isObject, pick } from '../cluster/informers/slim-pod.ts';

type Json = Record<string, unknown>;

const pickEach = (list: unknown, fields: readonly string[]): Json[] | undefined => (Array.isArray(list) ? list.map((item) => pick(item, fields)) : undefined);

/** Metadata the tables read (pods are matched to owners and namespaces, aged and marked terminating). */
const POD_METADATA = ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'deletionTimestamp', 'ownerReferences'];
const CONTAINER_STATUS = ['name', 'ready', 'started', 'restartCount'];
const TERMINATED = ['reason', 'exitCode', 'signal', 'finishedAt'];
const CONDITION = ['type', 'status', 'reason'];
/**
 * The conditions kubectl's STATUS reads (shared/kube-status.ts): Ready, Initialized and
 * PodScheduled's SchedulingGated. A running pod also carries ContainersReady and
 * PodReadyToStartContainers, a tenth of its view's bytes that no table shows.
 */
const STATUS_CONDITIONS: ReadonlySet<unknown> = new Set(['Ready', 'Initialized', 'PodScheduled']);

/** A container state as printPod reads it: why it waits or ended, when it ended, whether it runs. */
function containerState(state: unknown): Json | undefined {
  if (!isObject(state)) return undefined;
  const out: Json = {};
  if (isObject(state['waiting'])) out['waiting'] = pick(state['waiting'], ['reason']);
  if (isObject(state['running'])) out['running'] = {};
  if (isObject(state['terminated'])) out['terminated'] = pick(state['terminated'], TERMINATED);
  return out;
}

function containerStatuses(list: unknown): Json[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.map((status: unknown) => {
    const out = pick(status, CONTAINER_STATUS);
    if (!isObject(status)) return out;
    const state = containerState(status['state']);
    if (state) out['state'] = state;
    const last = containerState(status['lastState']);
    if (last) out['lastState'] = last;
    return out;
  });
}

/** Whether `kind` reaches the renderer in a form of its own (else as cached). */
export function hasView(kind: KindKey): boolean {
  return kind === BUILTIN_KEYS.Pod;
}

function podView(pod: SlimObject): SlimObject {
  const { spec, status } = pod as SlimObject & { spec?: Json; status?: Json };
  const viewSpec: Json = {};
  if (spec?.['nodeName'] !== undefined) viewSpec['nodeName'] = spec['nodeName'];
  // The READY column counts containers; sidecar init containers count too (restartPolicy Always).
  viewSpec['containers'] = pickEach(spec?.['containers'], ['name']) ?? [];
  const init = pickEach(spec?.['initContainers'], ['name', 'restartPolicy']);
  if (init) viewSpec['initContainers'] = init;
  const viewStatus = pick(status, ['phase', 'reason']);
  const conditions = status?.['conditions'];
  if (Array.isArray(conditions)) viewStatus['conditions'] = conditions.filter((c) => isObject(c) && STATUS_CONDITIONS.has(c['type'])).map((c) => pick(c, CONDITION));
  for (const field of ['containerStatuses', 'initContainerStatuses']) {
    const list = containerStatuses(status?.[field]);
    if (list) viewStatus[field] = list;
  }
  return { apiVersion: pod.apiVersion, kind: pod.kind, metadata: pick(pod.metadata, POD_METADATA) as SlimObject['metadata'], spec: viewSpec, status: viewStatus };
}

/** The renderer's form of a cached object of kind `kind`: `object` itself unless its kind has a view. */
export function viewObject(object: SlimObject, kind: KindKey): SlimObject {
  return hasView(kind) ? podView(object) : object;
}
