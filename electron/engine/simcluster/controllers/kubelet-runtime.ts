/**
 * The simulated container runtime behind the kubelet: per pod, a sandbox then containers that
 * step through pull -> create -> run -> exit, with image-pull and crash back-offs, emitting the
 * events kubelet emits at each step. Pure state plus a clock value: the kubelet controller
 * advances it to `now` on every reconcile and turns it into pod status.
 */

export type ContainerPhase = 'pending' | 'pulling' | 'pull-error' | 'pull-backoff' | 'creating' | 'running' | 'crash-backoff' | 'done';

export interface Termination {
  exitCode: number;
  reason: string;
  startedAt: number;
  finishedAt: number;
  containerID: string;
}

export interface ContainerRun {
  name: string;
  image: string;
  init: boolean;
  phase: ContainerPhase;
  /** When the current phase ends, if it ends by itself. */
  nextAt?: number;
  restartCount: number;
  /** Exits that asked for a restart: drives the crash back-off. */
  crashes: number;
  pullFailures: number;
  pullFailedAt?: number;
  /** The last pull error, ErrImagePull's waiting message. */
  pullError?: string;
  backoffMs?: number;
  startedAt?: number;
  readyAt?: number;
  plannedExitCode?: number;
  /** The termination reason of the planned exit (OOMKilled); Error/Completed by the exit code when unset. */
  plannedReason?: string;
  /** When a failing readiness probe runs next (the container then stays unready). */
  probeAt?: number;
  containerID?: string;
  imageID?: string;
  current?: Termination;
  last?: Termination;
}

export interface PodRun {
  uid: string;
  node: string;
  startTime: number;
  sandboxAt: number;
  sandboxReady: boolean;
  podIP?: string;
  containers: ContainerRun[];
  /** Set once the pod is being deleted: Killing was emitted; the pod goes at `removeAt`. */
  killing?: { at: number; removeAt: number };
}

/** What the runtime needs from its kubelet for one pod. */
export interface RuntimeEnv {
  /** Simulated ms -> clock ms (divides by the speed factor). */
  scaled(ms: number): number;
  pullMs: number;
  startMs: number;
  restartPolicy: string;
  /** Pod in `name_namespace(uid)` form, as kubelet's format.Pod prints it. */
  podRef: string;
  needsPull(container: ContainerRun): boolean;
  imagePulled(image: string): void;
  /** Ms (clock) from start until the container reports ready. */
  readinessMs(container: ContainerRun): number;
  /** When (simulated ms after start) and how the container exits on its own, if it does. */
  exitPlan(container: ContainerRun): { afterMs: number; exitCode: number; reason?: string } | undefined;
  /**
   * A readiness probe that fails: the prober's output (`HTTP probe failed with statuscode: 503`)
   * and its period in clock ms; undefined when the probe passes (or the container has none).
   */
  readinessFailure(container: ContainerRun): { output: string; periodMs: number } | undefined;
  pullError(image: string): string | undefined;
  pulledMessage(image: string): string;
  createdMessage(container: ContainerRun): string;
  emit(container: ContainerRun, type: 'Normal' | 'Warning', reason: string, message: string): void;
}

const MAX_BACKOFF_MS = 300_000;
const INITIAL_BACKOFF_MS = 10_000;
/** How long ErrImagePull shows before kubelet's next sync turns it into ImagePullBackOff. */
const ERR_IMAGE_PULL_VISIBLE_MS = 1_000;

/** Go's time.Duration.String() for whole milliseconds: `313ms`, `1.2s`, `1m20s`, `5m0s`. */
export function goDuration(ms: number): string {
  const whole = Math.round(ms);
  if (whole < 1000) return `${whole}ms`;
  const minutes = Math.floor(whole / 60_000);
  const seconds = ((whole % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '');
  return minutes > 0 ? `${minutes}m${seconds}s` : `${seconds}s`;
}

function backoff(n: number): number {
  return Math.min(INITIAL_BACKOFF_MS * 2 ** Math.max(0, n - 1), MAX_BACKOFF_MS);
}

function hex(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += Math.floor(Math.random() * 16).toString(16);
  return out;
}

export function newPodRun(options: { uid: string; node: string; now: number; sandboxAt: number; containers: Array<{ name: string; image: string; init: boolean }> }): PodRun {
  return {
    uid: options.uid,
    node: options.node,
    startTime: options.now,
    sandboxAt: options.sandboxAt,
    sandboxReady: false,
    containers: options.containers.map((c) => ({ ...c, phase: 'pending', restartCount: 0, crashes: 0, pullFailures: 0 })),
  };
}

function beginPull(c: ContainerRun, env: RuntimeEnv, at: number): void {
  if (env.needsPull(c)) {
    env.emit(c, 'Normal', 'Pulling', `Pulling image "${c.image}"`);
    c.phase = 'pulling';
    c.nextAt = at + env.scaled(env.pullMs);
  } else {
    env.emit(c, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`);
    c.phase = 'creating';
    c.nextAt = at + env.scaled(env.startMs / 2);
  }
}

/** Starts the next init container, or every app container once the init ones are done. */
function startNext(run: PodRun, env: RuntimeEnv, at: number): void {
  const init = run.containers.filter((c) => c.init);
  const pendingInit = init.find((c) => !(c.phase === 'done' && c.current?.exitCode === 0));
  if (pendingInit) {
    if (pendingInit.phase === 'pending') beginPull(pendingInit, env, at);
    return;
  }
  for (const c of run.containers) if (!c.init && c.phase === 'pending') beginPull(c, env, at);
}

function restart(c: ContainerRun, env: RuntimeEnv, at: number): void {
  c.last = c.current;
  delete c.current;
  c.restartCount += 1;
  beginPull(c, env, at);
}

function transition(run: PodRun, c: ContainerRun, env: RuntimeEnv, at: number): void {
  switch (c.phase) {
    case 'pulling': {
      const error = env.pullError(c.image);
      if (error) {
        c.pullFailures += 1;
        c.pullFailedAt = at;
        c.pullError = error;
        env.emit(c, 'Warning', 'Failed', `Failed to pull image "${c.image}": ${error}`);
        env.emit(c, 'Warning', 'Failed', 'Error: ErrImagePull');
        c.phase = 'pull-error';
        c.nextAt = at + env.scaled(ERR_IMAGE_PULL_VISIBLE_MS);
      } else {
        env.imagePulled(c.image);
        env.emit(c, 'Normal', 'Pulled', env.pulledMessage(c.image));
        c.phase = 'creating';
        c.nextAt = at + env.scaled(env.startMs / 2);
      }
      return;
    }
    case 'pull-error':
      env.emit(c, 'Normal', 'BackOff', `Back-off pulling image "${c.image}"`);
      env.emit(c, 'Warning', 'Failed', 'Error: ImagePullBackOff');
      c.phase = 'pull-backoff';
      c.nextAt = Math.max(at, (c.pullFailedAt ?? at) + env.scaled(backoff(c.pullFailures)));
      return;
    case 'pull-backoff':
      beginPull(c, env, at);
      return;
    case 'creating': {
      c.containerID = `containerd://${hex(64)}`;
      env.emit(c, 'Normal', 'Created', env.createdMessage(c));
      env.emit(c, 'Normal', 'Started', `Started container ${c.name}`);
      c.phase = 'running';
      c.startedAt = at;
      delete c.readyAt;
      delete c.probeAt;
      // A failing readiness probe keeps the container unready: the first probe runs when it would
      // have become ready, and every period after that (the prober's initial result is failure).
      if (!c.init) {
        if (env.readinessFailure(c)) c.probeAt = at + env.readinessMs(c);
        else c.readyAt = at + env.readinessMs(c);
      }
      const plan = env.exitPlan(c);
      if (plan) {
        c.plannedExitCode = plan.exitCode;
        if (plan.reason) c.plannedReason = plan.reason;
        else delete c.plannedReason;
        c.nextAt = at + env.scaled(plan.afterMs);
      }
      return;
    }
    case 'running': {
      const exitCode = c.plannedExitCode ?? 0;
      c.current = { exitCode, reason: c.plannedReason ?? (exitCode === 0 ? 'Completed' : 'Error'), startedAt: c.startedAt ?? at, finishedAt: at, containerID: c.containerID ?? '' };
      delete c.readyAt;
      delete c.probeAt;
      const policy = c.init && env.restartPolicy === 'Always' ? 'OnFailure' : env.restartPolicy;
      const restarts = policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
      if (!restarts) {
        c.phase = 'done';
        if (c.init && exitCode === 0) startNext(run, env, at);
        return;
      }
      c.crashes += 1;
      // kubelet restarts a container at once the first time; later exits wait out a doubling
      // back-off (10s, 20s, 40s ... 5m).
      if (c.crashes === 1) {
        restart(c, env, at);
        return;
      }
      c.backoffMs = backoff(c.crashes - 1);
      env.emit(c, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${env.podRef}`);
      c.phase = 'crash-backoff';
      c.nextAt = at + env.scaled(c.backoffMs);
      return;
    }
    case 'crash-backoff':
      restart(c, env, at);
      return;
    default:
      return;
  }
}

/**
 * One failing readiness probe, as kubelet's prober records it: an Unhealthy Event
 * `Readiness probe failed: <output>`, then the next probe a period later. A probe that passes
 * again (the image was fixed in place) makes the container ready.
 */
function probe(c: ContainerRun, env: RuntimeEnv, at: number): void {
  const failure = env.readinessFailure(c);
  if (!failure) {
    delete c.probeAt;
    c.readyAt = at;
    return;
  }
  env.emit(c, 'Warning', 'Unhealthy', `Readiness probe failed: ${failure.output}`);
  c.probeAt = at + failure.periodMs;
}

/** The container's next step: a phase change (`nextAt`) or a readiness probe (`probeAt`), the earlier. */
function dueAt(c: ContainerRun): { at: number; probe: boolean } | undefined {
  if (c.nextAt !== undefined && (c.probeAt === undefined || c.nextAt <= c.probeAt)) return { at: c.nextAt, probe: false };
  return c.probeAt !== undefined ? { at: c.probeAt, probe: true } : undefined;
}

/** Replays every runtime step due by `now`, in time order. */
export function advancePod(run: PodRun, env: RuntimeEnv, now: number): void {
  if (run.killing) return;
  if (!run.sandboxReady) {
    if (run.sandboxAt > now) return;
    run.sandboxReady = true;
    startNext(run, env, run.sandboxAt);
  }
  for (let guard = 0; guard < 10_000; guard += 1) {
    let next: ContainerRun | undefined;
    let due: { at: number; probe: boolean } | undefined;
    for (const c of run.containers) {
      const step = dueAt(c);
      if (step && step.at <= now && (due === undefined || step.at < due.at)) {
        next = c;
        due = step;
      }
    }
    if (!next || !due) return;
    if (due.probe) {
      probe(next, env, due.at);
      continue;
    }
    delete next.nextAt;
    transition(run, next, env, due.at);
  }
}

/** The next clock time at which this pod's status changes by itself. */
export function nextWake(run: PodRun, now: number): number | undefined {
  const times: number[] = [];
  if (run.killing) times.push(run.killing.removeAt);
  else if (!run.sandboxReady) times.push(run.sandboxAt);
  for (const c of run.containers) {
    if (c.nextAt !== undefined) times.push(c.nextAt);
    if (c.probeAt !== undefined) times.push(c.probeAt);
    if (c.phase === 'running' && c.readyAt !== undefined && c.readyAt > now) times.push(c.readyAt);
  }
  const future = times.filter((t) => t >= now);
  return future.length > 0 ? Math.min(...future) : undefined;
}

/** Stops every running container at `at` (the pod is being deleted). */
export function stopAll(run: PodRun, at: number): void {
  for (const c of run.containers) {
    if (c.phase === 'running') {
      c.current = { exitCode: 0, reason: 'Completed', startedAt: c.startedAt ?? at, finishedAt: at, containerID: c.containerID ?? '' };
      c.phase = 'done';
    }
    delete c.nextAt;
    delete c.readyAt;
    delete c.probeAt;
  }
}
