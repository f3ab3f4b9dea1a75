/**
 * Pod status as kubelet reports it (generateAPIPodStatus): phase from the container states,
 * the PodReadyToStartContainers / Initialized / Ready / ContainersReady conditions, IPs, start
 * time, and containerStatuses with waiting / running / terminated states, in the field order
 * kube-apiserver serialises.
 */
import type { KubeObject } from '../types.ts';
import { setCondition, timestamp, type Condition } from './conditions.ts';
import type { ContainerRun, PodRun, Termination } from './kubelet-runtime.ts';
import { goDuration } from './kubelet-runtime.ts';

const KUBELET_CONDITIONS = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

export interface StatusInputs {
  pod: KubeObject;
  run: PodRun;
  now: number;
  hostIP: string;
  /** `name_namespace(uid)`. */
  podRef: string;
  /** Kubernetes minor version: PodReadyToStartContainers exists from 1.29. */
  minor: number;
}

/** `nginx:1.27` -> `docker.io/library/nginx:1.27`, as containerd reports images. */
export function qualifiedImage(image: string): string {
  const parts = image.split('/');
  const first = parts[0] ?? '';
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let name = hasRegistry ? image : parts.length === 1 ? `docker.io/library/${image}` : `docker.io/${image}`;
  const last = name.split('/').pop() ?? '';
  if (!last.includes(':') && !last.includes('@')) name += ':latest';
  return name;
}

function digest(image: string): string {
  let h1 = 0x811c9dc5;
  let out = '';
  for (let round = 0; round < 8; round += 1) {
    for (const ch of `${round}${image}`) h1 = Math.imul(h1 ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h1.toString(16).padStart(8, '0');
  }
  return out;
}

function terminated(t: Termination): Record<string, unknown> {
  return { exitCode: t.exitCode, reason: t.reason, startedAt: timestamp(t.startedAt), finishedAt: timestamp(t.finishedAt), containerID: t.containerID };
}

function stateOf(c: ContainerRun, inputs: StatusInputs, initPending: boolean): Record<string, unknown> {
  switch (c.phase) {
    case 'running':
      return { running: { startedAt: timestamp(c.startedAt ?? inputs.now) } };
    case 'done':
      return c.current ? { terminated: terminated(c.current) } : { waiting: { reason: 'ContainerCreating' } };
    case 'pull-error':
      return { waiting: { reason: 'ErrImagePull', message: c.pullError ?? '' } };
    case 'pull-backoff':
      return { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image}"` } };
    case 'pulling':
      return c.pullFailures > 0 ? { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${c.image}"` } } : { waiting: { reason: 'ContainerCreating' } };
    case 'crash-backoff':
      return { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${goDuration(c.backoffMs ?? 10_000)} restarting failed container=${c.name} pod=${inputs.podRef}` } };
    default:
      return { waiting: { reason: !c.init && initPending ? 'PodInitializing' : 'ContainerCreating' } };
  }
}

function isReady(c: ContainerRun, now: number): boolean {
  if (c.init) return c.phase === 'done' && c.current?.exitCode === 0;
  return c.phase === 'running' && c.readyAt !== undefined && c.readyAt <= now;
}

function containerStatus(c: ContainerRun, inputs: StatusInputs, initPending: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    name: c.name,
    state: stateOf(c, inputs, initPending),
    lastState: c.last ? { terminated: terminated(c.last) } : {},
    ready: isReady(c, inputs.now),
    restartCount: c.restartCount,
    image: qualifiedImage(c.image),
    imageID: c.containerID ? `${qualifiedImage(c.image).replace(/:[^:/]+$/, '')}@sha256:${digest(c.image)}` : '',
  };
  if (c.containerID) out['containerID'] = c.containerID;
  out['started'] = c.phase === 'running';
  return out;
}

/** kubelet's getPhase. */
function phaseOf(run: PodRun, restartPolicy: string): string {
  const init = run.containers.filter((c) => c.init);
  const failedInit = init.some((c) => c.phase === 'done' && (c.current?.exitCode ?? 0) !== 0);
  if (failedInit && restartPolicy === 'Never') return 'Failed';
  if (init.some((c) => !(c.phase === 'done' && c.current?.exitCode === 0))) return 'Pending';
  let running = 0;
  let waiting = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const c of run.containers.filter((x) => !x.init)) {
    if (c.phase === 'running') running += 1;
    else if (c.phase === 'done' && c.current) {
      stopped += 1;
      if (c.current.exitCode === 0) succeeded += 1;
    } else if (c.last) stopped += 1;
    else waiting += 1;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  if (restartPolicy === 'Always') return 'Running';
  if (succeeded === stopped) return 'Succeeded';
  return restartPolicy === 'Never' ? 'Failed' : 'Running';
}

/** The status kubelet would write for this pod now. */
export function podStatus(inputs: StatusInputs): Record<string, unknown> {
  const { pod, run, now } = inputs;
  const current = (pod['status'] as Record<string, unknown> | undefined) ?? {};
  const restartPolicy = (pod['spec'] as { restartPolicy?: string } | undefined)?.restartPolicy ?? 'Always';
  const phase = phaseOf(run, restartPolicy);
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  const init = run.containers.filter((c) => c.init);
  const app = run.containers.filter((c) => !c.init);
  const initPending = init.filter((c) => !isReady(c, now));
  const unready = app.filter((c) => !isReady(c, now));
  const holder: Record<string, unknown> = { conditions: ((current['conditions'] as Condition[] | undefined) ?? []).map((c) => ({ ...c })) };
  const set = (type: string, ok: boolean, reason?: string, message?: string): void => {
    setCondition(holder, type, ok ? 'True' : 'False', reason, message, now, { updateTimeField: 'lastProbeTime' });
  };
  const list = (cs: ContainerRun[]): string => `[${cs.map((c) => c.name).join(' ')}]`;
  if (inputs.minor >= 29) set('PodReadyToStartContainers', run.sandboxReady && !terminal);
  if (terminal) set('Initialized', true, 'PodCompleted');
  else if (initPending.length > 0) set('Initialized', false, 'ContainersNotInitialized', `containers with incomplete status: ${list(initPending)}`);
  else set('Initialized', true);
  for (const type of ['Ready', 'ContainersReady']) {
    if (terminal) set(type, false, 'PodCompleted');
    else if (unready.length > 0) set(type, false, 'ContainersNotReady', `containers with unready status: ${list(unready)}`);
    else set(type, true);
  }
  if (!(holder['conditions'] as Condition[]).some((c) => c.type === 'PodScheduled')) set('PodScheduled', true);
  const conditions = holder['conditions'] as Condition[];
  const rank = (c: Condition): number => (KUBELET_CONDITIONS.includes(c.type) ? KUBELET_CONDITIONS.indexOf(c.type) : KUBELET_CONDITIONS.length);
  const status: Record<string, unknown> = { phase, conditions: [...conditions].sort((a, b) => rank(a) - rank(b)) };
  status['hostIP'] = inputs.hostIP;
  status['hostIPs'] = [{ ip: inputs.hostIP }];
  if (run.podIP) {
    status['podIP'] = run.podIP;
    status['podIPs'] = [{ ip: run.podIP }];
  }
  status['startTime'] = timestamp(run.startTime);
  if (init.length > 0) status['initContainerStatuses'] = init.map((c) => containerStatus(c, inputs, initPending.length > 0));
  status['containerStatuses'] = app.map((c) => containerStatus(c, inputs, initPending.length > 0));
  if (current['qosClass'] !== undefined) status['qosClass'] = current['qosClass'];
  return status;
}
