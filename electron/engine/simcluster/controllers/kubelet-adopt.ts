/**
 * What a restarted kubelet recovers from the API: pod IPs per node (host-local IPAM over the
 * node's podCIDR) and, for pods already reported running, their runtime state, so a manager
 * restart or a scenario that creates pods as Running does not restart their containers.
 */
import type { KubeObject } from '../types.ts';
import type { ContainerRun, PodRun, RuntimeEnv, Termination } from './kubelet-runtime.ts';
import { nodePodCIDR } from './nodes.ts';

const FIRST_HOST = 2;
const LAST_HOST = 254;

/** Sequential, wrapping allocation in each node's /24, like the host-local CNI plugin. */
export class PodIPAllocator {
  private readonly used = new Map<string, Set<string>>();
  private readonly cursor = new Map<string, number>();

  private usedOn(node: string): Set<string> {
    let set = this.used.get(node);
    if (!set) this.used.set(node, (set = new Set()));
    return set;
  }

  allocate(node: KubeObject): string | undefined {
    const cidr = nodePodCIDR(node) ?? '10.244.0.0/24';
    const prefix = (cidr.split('/')[0] ?? '10.244.0.0').split('.').slice(0, 3).join('.');
    const name = node.metadata.name;
    const used = this.usedOn(name);
    const start = this.cursor.get(name) ?? FIRST_HOST - 1;
    for (let i = 1; i <= LAST_HOST - FIRST_HOST + 1; i += 1) {
      const host = ((start - FIRST_HOST + i) % (LAST_HOST - FIRST_HOST + 1)) + FIRST_HOST;
      const ip = `${prefix}.${host}`;
      if (used.has(ip)) continue;
      used.add(ip);
      this.cursor.set(name, host);
      return ip;
    }
    return undefined;
  }

  reserve(node: string, ip: string): void {
    this.usedOn(node).add(ip);
  }

  release(node: string, ip: string): void {
    this.used.get(node)?.delete(ip);
  }
}

interface StatusContainer {
  name: string;
  ready?: boolean;
  restartCount?: number;
  containerID?: string;
  state?: { running?: { startedAt?: string }; terminated?: RawTermination };
  lastState?: { terminated?: RawTermination };
}

interface RawTermination {
  exitCode?: number;
  reason?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}

function toTermination(raw: RawTermination, fallback: number): Termination {
  return {
    exitCode: raw.exitCode ?? 0,
    reason: raw.reason ?? 'Completed',
    startedAt: Date.parse(raw.startedAt ?? '') || fallback,
    finishedAt: Date.parse(raw.finishedAt ?? '') || fallback,
    containerID: raw.containerID ?? '',
  };
}

export interface AdoptContext {
  scaled(ms: number): number;
  env: RuntimeEnv;
  ips: PodIPAllocator;
  images: Set<string>;
}

/**
 * A runtime rebuilt from a pod whose status shows every container started (running or
 * exited), or undefined when the pod has to be started from scratch.
 */
export function adoptRun(pod: KubeObject, node: string, now: number, ctx: AdoptContext): PodRun | undefined {
  const status = (pod['status'] as { podIP?: string; startTime?: string; containerStatuses?: StatusContainer[]; initContainerStatuses?: StatusContainer[] } | undefined) ?? {};
  const spec = pod['spec'] as { containers?: Array<{ name: string; image?: string }>; initContainers?: Array<{ name: string; image?: string }> };
  const reported = [...(status.initContainerStatuses ?? []).map((s) => ({ s, init: true })), ...(status.containerStatuses ?? []).map((s) => ({ s, init: false }))];
  const specs = [...(spec.initContainers ?? []).map((c) => ({ c, init: true })), ...(spec.containers ?? []).map((c) => ({ c, init: false }))];
  if (!status.podIP || specs.length === 0 || reported.length !== specs.length) return undefined;
  const containers: ContainerRun[] = [];
  for (const { c, init } of specs) {
    const s = reported.find((r) => r.init === init && r.s.name === c.name)?.s;
    if (!s || (!s.state?.running && !s.state?.terminated)) return undefined;
    const run: ContainerRun = { name: c.name, image: c.image ?? '', init, phase: 'running', restartCount: s.restartCount ?? 0, crashes: s.restartCount ?? 0, pullFailures: 0 };
    if (s.containerID) run.containerID = s.containerID;
    if (s.lastState?.terminated) run.last = toTermination(s.lastState.terminated, now);
    if (s.state.terminated) {
      run.phase = 'done';
      run.current = toTermination(s.state.terminated, now);
    } else {
      run.startedAt = Date.parse(s.state.running?.startedAt ?? '') || now;
      // A failing readiness probe keeps probing (and the container unready) after a restart too.
      if (!init && ctx.env.readinessFailure(run)) run.probeAt = Math.max(now, run.startedAt + ctx.env.readinessMs(run));
      else if (!init) run.readyAt = s.ready ? run.startedAt : run.startedAt + ctx.env.readinessMs(run);
      const plan = ctx.env.exitPlan(run);
      if (plan) {
        run.plannedExitCode = plan.exitCode;
        if (plan.reason) run.plannedReason = plan.reason;
        run.nextAt = Math.max(now, run.startedAt + ctx.scaled(plan.afterMs));
      }
    }
    ctx.images.add(run.image);
    containers.push(run);
  }
  ctx.ips.reserve(node, status.podIP);
  const startTime = Date.parse(status.startTime ?? '') || now;
  return { uid: pod.metadata.uid, node, startTime, sandboxAt: startTime, sandboxReady: true, podIP: status.podIP, containers };
}
