/**
 * What a pod's containers say is wrong, in the kubelet's words: an image it cannot pull, a
 * container crash-looping (its last exit code and reason, its restarts), a container that cannot
 * start (CreateContainerConfigError...), a failed pod's exit, and a running container whose
 * readiness probe fails. Where the kubelet's detailed message lived only in an Event that has
 * expired, the sentence says so and quotes what the pod status still holds.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { firstOf, latestEvent } from './events.ts';
import { section, text } from './objects.ts';
import { be, containerStatuses, imageOf, phaseOf, podCondition, these, type ContainerStatus, type PodContext, type PodProblem } from './pod-problem.ts';

const PULL_REASONS: ReadonlySet<string> = new Set(['ErrImagePull', 'ImagePullBackOff', 'ErrImageNeverPull', 'RegistryUnavailable']);
/** Waiting reasons that are a pod's normal way to start, not a cause by themselves. */
const STARTING_REASONS: ReadonlySet<string> = new Set(['ContainerCreating', 'PodInitializing']);
/** The kubelet's bare back-off message, which names the image but not what went wrong. */
const BARE_BACK_OFF = /^Back-off pulling image "[^"]*"\.?$/;

/**
 * The innermost clause of a wrapped pull error: the text after the last `": "` of
 * `Failed to pull image "x": rpc error: ... failed to resolve reference "x": x: not found`.
 */
function innermost(message: string): string {
  const at = message.lastIndexOf('": ');
  return at < 0 ? message : message.slice(at + 3);
}

function imagePull(pod: SlimObject, container: ContainerStatus, reason: string, message: string | undefined, context: PodContext): PodProblem {
  const image = imageOf(pod, container);
  // The Failed Event keeps the registry's answer; the status often only says "Back-off pulling".
  // This container's image first: in a pod of several containers each pull fails on its own.
  const failed = latestEvent(context.events, ['Failed'], `Failed to pull image "${image}"`) ?? latestEvent(context.events, ['Failed'], 'Failed to pull image');
  const detailed = failed?.message ?? (message !== undefined && !BARE_BACK_OFF.test(message) ? message : undefined);
  const since = firstOf(context.events, ['Failed', 'BackOff'], ['Failed to pull image', 'Back-off pulling image']);
  if (detailed !== undefined) {
    const clause = innermost(detailed);
    const what = clause.startsWith(image) ? clause : `${image}: ${clause}`;
    return { code: 'image-pull', key: `${image}\u0000${clause}`, pod, detail: `container ${container.name}: ${detailed}`, ...(since ? { since } : {}), say: () => `can't pull ${what}` };
  }
  const reported = message !== undefined ? `${reason}: ${message}` : reason;
  return {
    code: 'image-pull',
    key: `${image}\u0000${reported}`,
    pod,
    detail: `container ${container.name}: ${reported}`,
    ...(since ? { since } : {}),
    say: (group) => `can't pull ${image}; no Events left for ${these(group)}; kubelet reported ${reported}`,
  };
}

function exitText(terminated: { exitCode?: number; reason?: string } | undefined): string {
  if (!terminated) return 'no last exit recorded';
  const code = typeof terminated.exitCode === 'number' ? `code ${terminated.exitCode}` : 'an unknown code';
  return terminated.reason ? `${code} (${terminated.reason})` : code;
}

function restartsText(group: readonly PodProblem[]): string {
  const counts = group.map((problem) => problem.restarts ?? 0);
  const low = Math.min(...counts);
  const high = Math.max(...counts);
  if (low === high) return high === 1 ? 'restarted once' : `restarted ${high} times`;
  return `restarted ${low}–${high} times`;
}

function crashLoop(pod: SlimObject, container: ContainerStatus, context: PodContext): PodProblem {
  const last = container.lastState?.terminated;
  const exit = exitText(last);
  const restarts = typeof container.restartCount === 'number' ? container.restartCount : 0;
  const finished = last?.finishedAt ? Date.parse(last.finishedAt) : Number.NaN;
  const since = firstOf(context.events, ['BackOff'], ['Back-off restarting']);
  const words = last ? `last exited with ${exit}` : `is in CrashLoopBackOff (${exit})`;
  return {
    code: 'crash-loop',
    key: `${container.name}\u0000${exit}`,
    pod,
    detail: `container ${container.name} ${words}${last?.message ? `: ${last.message}` : ''}; ${restarts} restarts${Number.isFinite(finished) ? `, last at ${last?.finishedAt}` : ''}`,
    restarts,
    ...(since ? { since } : {}),
    say: (group) => `${be(group)} crash-looping: container ${container.name} ${words}, ${restartsText(group)}`,
  };
}

function waiting(pod: SlimObject, container: ContainerStatus, reason: string, message: string | undefined): PodProblem {
  const reported = message !== undefined ? `${reason}: ${message}` : reason;
  return { code: 'container-waiting', key: `${container.name}\u0000${reported}`, pod, detail: `container ${container.name} ${reported}`, say: (group) => `${be(group)} waiting: container ${container.name} ${reported}` };
}

function failedPod(pod: SlimObject, statuses: readonly ContainerStatus[]): PodProblem {
  const status = section(pod, 'status');
  const reason = text(status['reason']);
  const message = text(status['message']);
  const exited = statuses.find((container) => (container.state?.terminated?.exitCode ?? 0) !== 0);
  const words = exited
    ? `container ${exited.name} exited with ${exitText(exited.state?.terminated)}`
    : reason
      ? `${reason}${message ? `: ${message}` : ''}`
      : 'no exit code or reason recorded';
  return { code: 'pod-failed', key: words, pod, detail: words, say: () => `failed: ${words}` };
}

/** The probes whose failures keep a running container unready, the readiness probe first. */
const PROBES = ['Readiness probe', 'Startup probe'];

/** IP addresses differ pod by pod in probe messages; the rest of the message groups them. */
const maskAddresses = (message: string): string => message.replace(/\b\d{1,3}(\.\d{1,3}){3}(:\d+)?\b/g, '<ip>');

function readiness(pod: SlimObject, context: PodContext): PodProblem | undefined {
  // "Readiness probe failed" or "errored"; a startup probe also keeps a running container unready.
  const probe = PROBES.find((prefix) => latestEvent(context.events, ['Unhealthy'], prefix));
  const unhealthy = probe ? latestEvent(context.events, ['Unhealthy'], probe) : undefined;
  if (!probe || !unhealthy) return undefined;
  const since = firstOf(context.events, ['Unhealthy'], [probe]) ?? podCondition(pod, 'Ready')?.lastTransition;
  return {
    code: 'readiness-probe',
    key: maskAddresses(unhealthy.message),
    pod,
    detail: `${unhealthy.message} (${unhealthy.count} times)`,
    ...(since ? { since } : {}),
    say: (group) => `${be(group)} Running but not Ready: ${unhealthy.message}`,
  };
}

/** What the pod's containers say, or undefined when they say nothing wrong. */
export function containerProblem(pod: SlimObject, context: PodContext): PodProblem | undefined {
  const statuses = containerStatuses(pod);
  const phase = phaseOf(pod);
  if (phase === 'Failed') return failedPod(pod, statuses);
  for (const container of statuses) {
    const state = container.state?.waiting;
    const reason = text(state?.reason);
    if (!reason || STARTING_REASONS.has(reason)) continue;
    const message = text(state?.message);
    if (PULL_REASONS.has(reason)) return imagePull(pod, container, reason, message, context);
    if (reason === 'InvalidImageName') {
      const image = imageOf(pod, container);
      const reported = message ?? 'InvalidImageName';
      return { code: 'invalid-image', key: `${image}\u0000${reported}`, pod, detail: `container ${container.name}: ${reported}`, say: () => `can't start: image ${image} is not a valid name: ${innermost(reported)}` };
    }
    if (reason === 'CrashLoopBackOff') return crashLoop(pod, container, context);
    return waiting(pod, container, reason, message);
  }
  if (phase === 'Running' && podCondition(pod, 'Ready')?.status !== 'True') return readiness(pod, context);
  return undefined;
}
