/**
 * kubelet: one logical controller standing in for the kubelet of every node. For each pod bound
 * to a node whose kubelet runs, it drives the simulated runtime (kubelet-runtime.ts) with the
 * configured delays, writes kubelet-shaped pod status, emits kubelet events (source host = the
 * node), and finishes graceful deletions. Images tagged `broken` never pull; `crash` exits 1;
 * `oom` is OOMKilled (exit 137); `unready` fails its readinessProbe (HTTP 503, or connection
 * refused for a TCP probe) for as long as it runs.
 */
import type { Change } from '../changelog.ts';
import { objectKey } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { NODES, PODS } from './kinds.ts';
import { advancePod, goDuration, newPodRun, nextWake, stopAll, type ContainerRun, type PodRun, type RuntimeEnv } from './kubelet-runtime.ts';
import { podStatus, qualifiedImage } from './kubelet-status.ts';
import { adoptRun, PodIPAllocator } from './kubelet-adopt.ts';
import { isKubeletRunning, nodeInternalIP } from './nodes.ts';
import { isPodTerminal, podNodeName } from './pods.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { DEFAULT_KUBERNETES_VERSION, minorOf } from './version.ts';

export const KUBELET = 'kubelet';
/** Pod (template) annotation: the app containers exit after this many seconds. */
export const RUN_SECONDS_ANNOTATION = 'simcluster.kubedrift.dev/run-seconds';
/** Pod (template) annotation: the exit code of containers that exit on their own. */
export const EXIT_CODE_ANNOTATION = 'simcluster.kubedrift.dev/exit-code';
/** Exit code of a container killed by the kernel's OOM killer (128 + SIGKILL), as containerd reports it. */
const OOM_EXIT_CODE = 137;
/** The prober's default period (periodSeconds unset). */
const DEFAULT_PROBE_PERIOD_SECONDS = 10;

export interface KubeletOptions {
  /** Divides every delay below (and back-offs, grace periods): 10 runs ten times faster. Default 1. */
  speed?: number;
  /** Image pull duration. Default 1500. */
  pullDelayMs?: number;
  /** Sandbox set-up plus container create/start. Default 1000. */
  startDelayMs?: number;
  /** From container start to Ready, unless a readinessProbe's initialDelaySeconds is longer. Default 1000. */
  readinessDelayMs?: number;
  /** Run time of pods with restartPolicy Never/OnFailure (Jobs). Default 10000. */
  jobRunMs?: number;
  /** Run time of a `crash`-tagged container before it exits 1. Default 3000. */
  crashAfterMs?: number;
  /** From deletion to removal, capped by the pod's grace period. Default 1000. */
  killDelayMs?: number;
  /** The version the cluster reports; picks version-specific event texts. */
  kubernetesVersion?: string;
}

function imageTag(image: string): string | undefined {
  const last = image.split('/').pop() ?? image;
  const at = last.indexOf('@');
  const named = at >= 0 ? last.slice(0, at) : last;
  return named.includes(':') ? named.split(':').pop() : undefined;
}

function imageSize(image: string): number {
  let h = 0x811c9dc5;
  for (const ch of image) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
  return 20_000_000 + (h % 180_000_000);
}

export class Kubelet implements Controller {
  readonly name = KUBELET;
  private readonly options: Required<Omit<KubeletOptions, 'kubernetesVersion'>>;
  private readonly minor: number;
  private readonly runs = new Map<string, PodRun>();
  private readonly podsByNode = new Map<string, Set<string>>();
  private readonly images = new Map<string, Set<string>>();
  private readonly ips = new PodIPAllocator();

  constructor(options: KubeletOptions = {}) {
    this.options = {
      speed: options.speed ?? 1,
      pullDelayMs: options.pullDelayMs ?? 1500,
      startDelayMs: options.startDelayMs ?? 1000,
      readinessDelayMs: options.readinessDelayMs ?? 1000,
      jobRunMs: options.jobRunMs ?? 10_000,
      crashAfterMs: options.crashAfterMs ?? 3000,
      killDelayMs: options.killDelayMs ?? 1000,
    };
    this.minor = minorOf(options.kubernetesVersion ?? DEFAULT_KUBERNETES_VERSION);
  }

  keysFor(change: Change): ReconcileKey[] {
    if (change.resource === 'nodes') {
      const before = change.old ? isKubeletRunning(change.old) : false;
      const after = change.type !== 'DELETED' && isKubeletRunning(change.object);
      if (before === after && change.type !== 'DELETED') return [];
      return [...(this.podsByNode.get(change.object.metadata.name) ?? [])].map((key) => this.keyOf(key));
    }
    if (change.resource !== 'pods') return [];
    const node = change.type === 'DELETED' ? undefined : podNodeName(change.object);
    this.index(change.key, node);
    return node || this.runs.has(change.key) ? [this.keyOf(change.key)] : [];
  }

  initialKeys(ctx: ControllerContext): ReconcileKey[] {
    const keys: ReconcileKey[] = [];
    for (const pod of ctx.store.all(PODS)) {
      const node = podNodeName(pod);
      if (!node) continue;
      const key = objectKey(pod.metadata.namespace, pod.metadata.name);
      this.index(key, node);
      keys.push(this.keyOf(key));
    }
    return keys;
  }

  private keyOf(key: string): ReconcileKey {
    const [namespace = '', name = ''] = key.split('/');
    return { resource: 'pods', namespace, name };
  }

  private index(key: string, node: string | undefined): void {
    for (const [name, set] of this.podsByNode) if (name !== node) set.delete(key);
    if (!node) return;
    let set = this.podsByNode.get(node);
    if (!set) this.podsByNode.set(node, (set = new Set()));
    set.add(key);
  }

  private scaled(ms: number): number {
    return ms / this.options.speed;
  }

  private forget(key: string): void {
    const run = this.runs.get(key);
    if (run?.podIP) this.ips.release(run.node, run.podIP);
    this.runs.delete(key);
  }

  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
    const id = objectKey(key.namespace, key.name);
    const pod = ctx.store.find(PODS, key.namespace, key.name);
    let run = this.runs.get(id);
    if (run && run.uid !== pod?.metadata.uid) {
      this.forget(id);
      run = undefined;
    }
    const nodeName = pod && podNodeName(pod);
    if (!pod || !nodeName) return;
    const node = ctx.store.find(NODES, undefined, nodeName);
    if (!node) {
      // PodGC removes pods bound to nodes that no longer exist.
      ctx.store.delete(PODS, key.namespace, key.name, { gracePeriodSeconds: 0 });
      return;
    }
    if (!isKubeletRunning(node)) return;
    const now = ctx.clock.now();
    if (pod.metadata.deletionTimestamp) return this.terminate(ctx, pod, node, run, now);
    if (!run && isPodTerminal(pod)) return;
    const env = this.env(ctx, pod, node);
    if (!run) {
      run = adoptRun(pod, nodeName, now, { scaled: (ms) => this.scaled(ms), env, ips: this.ips, images: this.imagesOf(nodeName) })
        ?? newPodRun({ uid: pod.metadata.uid, node: nodeName, now, sandboxAt: now + this.scaled(this.options.startDelayMs / 2), containers: containersOf(pod) });
      this.runs.set(id, run);
    }
    advancePod(run, env, now);
    if (run.sandboxReady && !run.podIP) {
      const hostNetwork = (pod['spec'] as { hostNetwork?: boolean }).hostNetwork === true;
      run.podIP = hostNetwork ? nodeInternalIP(node) : this.ips.allocate(node);
    }
    this.writeStatus(ctx, pod, node, run, now);
    if (isPodTerminal(ctx.store.find(PODS, key.namespace, key.name) ?? pod)) {
      if (run.podIP) this.ips.release(nodeName, run.podIP);
      return;
    }
    const wake = nextWake(run, now);
    return wake === undefined ? undefined : Math.max(0, wake - now);
  }

  private writeStatus(ctx: ControllerContext, pod: KubeObject, node: KubeObject, run: PodRun, now: number): void {
    const status = podStatus({ pod, run, now, hostIP: nodeInternalIP(node) ?? '', podRef: podRef(pod), minor: this.minor });
    if (JSON.stringify(status) === JSON.stringify(pod['status'] ?? {})) return;
    ctx.store.update(PODS, { ...pod, status }, { subresource: 'status' });
  }

  private terminate(ctx: ControllerContext, pod: KubeObject, node: KubeObject, run: PodRun | undefined, now: number): number | void {
    const { namespace, name } = pod.metadata;
    const id = objectKey(namespace, name);
    const live = run?.containers.filter((c) => c.phase === 'running') ?? [];
    if (run && live.length > 0 && !run.killing) {
      const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 30) * 1000;
      run.killing = { at: now, removeAt: now + this.scaled(Math.min(this.options.killDelayMs, graceMs)) };
      const env = this.env(ctx, pod, node);
      for (const c of live) env.emit(c, 'Normal', 'Killing', `Stopping container ${c.name}`);
    }
    if (run?.killing && now < run.killing.removeAt) return run.killing.removeAt - now;
    if (run?.killing) {
      stopAll(run, now);
      this.writeStatus(ctx, pod, node, run, now);
    }
    this.forget(id);
    if (ctx.store.find(PODS, namespace, name)) ctx.store.delete(PODS, namespace, name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
  }

  private imagesOf(node: string): Set<string> {
    let set = this.images.get(node);
    if (!set) this.images.set(node, (set = new Set()));
    return set;
  }

  private env(ctx: ControllerContext, pod: KubeObject, node: KubeObject): RuntimeEnv {
    const o = this.options;
    const spec = pod['spec'] as { restartPolicy?: string; containers?: ContainerSpec[]; initContainers?: ContainerSpec[] };
    const specOf = (c: ContainerRun): ContainerSpec | undefined => (c.init ? spec.initContainers : spec.containers)?.find((s) => s.name === c.name);
    const annotations = pod.metadata.annotations ?? {};
    const restartPolicy = spec.restartPolicy ?? 'Always';
    const images = this.imagesOf(node.metadata.name);
    const exitCode = Number(annotations[EXIT_CODE_ANNOTATION] ?? 0) || 0;
    return {
      scaled: (ms) => this.scaled(ms),
      pullMs: o.pullDelayMs,
      startMs: o.startDelayMs,
      restartPolicy,
      podRef: podRef(pod),
      needsPull: (c) => {
        const policy = specOf(c)?.imagePullPolicy ?? 'IfNotPresent';
        return imageTag(c.image) === 'broken' || policy === 'Always' || (policy !== 'Never' && !images.has(c.image));
      },
      imagePulled: (image) => images.add(image),
      readinessMs: (c) => {
        const delay = specOf(c)?.readinessProbe?.initialDelaySeconds ?? 0;
        return this.scaled(Math.max(o.readinessDelayMs, delay * 1000));
      },
      exitPlan: (c) => {
        if (c.init) return { afterMs: o.startDelayMs, exitCode: 0 };
        if (imageTag(c.image) === 'crash') return { afterMs: o.crashAfterMs, exitCode: 1 };
        if (imageTag(c.image) === 'oom') return { afterMs: o.crashAfterMs, exitCode: OOM_EXIT_CODE, reason: 'OOMKilled' };
        const runSeconds = annotations[RUN_SECONDS_ANNOTATION];
        if (runSeconds !== undefined) return { afterMs: Number(runSeconds) * 1000, exitCode };
        return restartPolicy === 'Always' ? undefined : { afterMs: o.jobRunMs, exitCode };
      },
      readinessFailure: (c) => {
        const container = specOf(c);
        const probe = container?.readinessProbe;
        if (c.init || !container || !probe || imageTag(c.image) !== 'unready') return undefined;
        return { output: probeOutput(container, probe, this.runs.get(objectKey(pod.metadata.namespace, pod.metadata.name))?.podIP), periodMs: this.scaled((probe.periodSeconds ?? DEFAULT_PROBE_PERIOD_SECONDS) * 1000) };
      },
      pullError: (image) => {
        if (imageTag(image) !== 'broken') return undefined;
        const ref = qualifiedImage(image);
        const detail = `failed to pull and unpack image "${ref}": failed to resolve reference "${ref}": ${ref}: not found`;
        return this.minor >= 30 ? detail : `rpc error: code = NotFound desc = ${detail}`;
      },
      pulledMessage: (image) => {
        const took = goDuration(o.pullDelayMs);
        if (this.minor >= 30) return `Successfully pulled image "${image}" in ${took} (${took} including waiting). Image size: ${imageSize(image)} bytes.`;
        return `Successfully pulled image "${image}" in ${took} (${took} including waiting)`;
      },
      createdMessage: (c) => (this.minor >= 32 ? `Created container: ${c.name}` : `Created container ${c.name}`),
      emit: (c, type, reason, message) => {
        const fieldPath = `spec.${c.init ? 'initContainers' : 'containers'}{${c.name}}`;
        ctx.events.record({ regarding: pod, type, reason, message, component: KUBELET, host: node.metadata.name, fieldPath });
      },
    };
  }
}

interface ContainerSpec {
  name: string;
  image?: string;
  imagePullPolicy?: string;
  readinessProbe?: Probe;
  ports?: Array<{ name?: string; containerPort?: number }>;
}

interface Probe {
  initialDelaySeconds?: number;
  periodSeconds?: number;
  httpGet?: { port?: number | string };
  tcpSocket?: { port?: number | string };
  grpc?: { port?: number };
  exec?: { command?: string[] };
}

/** What kubelet's prober says of a failed probe, by its handler (pkg/probe/http, tcp, grpc, exec). */
function probeOutput(container: ContainerSpec, probe: Probe, podIP: string | undefined): string {
  if (probe.httpGet) return 'HTTP probe failed with statuscode: 503';
  if (probe.grpc) return 'service unhealthy (responded with "NOT_SERVING")';
  if (probe.tcpSocket) {
    // A named port is resolved against the container's ports, as the prober does.
    const port = probe.tcpSocket.port;
    const number = typeof port === 'string' ? (container.ports?.find((p) => p.name === port)?.containerPort ?? port) : port;
    return `dial tcp ${podIP ?? '127.0.0.1'}:${String(number)}: connect: connection refused`;
  }
  // An exec probe's output is what the command printed; a failing health script often prints nothing.
  return '';
}

function containersOf(pod: KubeObject): Array<{ name: string; image: string; init: boolean }> {
  const spec = pod['spec'] as { containers?: ContainerSpec[]; initContainers?: ContainerSpec[] };
  return [
    ...(spec.initContainers ?? []).map((c) => ({ name: c.name, image: c.image ?? '', init: true })),
    ...(spec.containers ?? []).map((c) => ({ name: c.name, image: c.image ?? '', init: false })),
  ];
}

/** kubelet's format.Pod: `name_namespace(uid)`. */
function podRef(pod: KubeObject): string {
  return `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
}
