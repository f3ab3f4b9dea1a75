import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario, parseScenario, ScenarioError, type TimelineEntry } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario, type RunningScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const T = (id: string) => typeById(id) as ResourceType;
const hooks = { applyDefaults, validate: (type: ResourceType, object: KubeObject, old?: KubeObject) => validate(type, object, old) };

function setup(text: string, options: { controllers?: boolean; speed?: number } = {}) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const store = new ObjectStore({ now: () => clock.now() });
  const ran: Array<{ type: string; at: number }> = [];
  const failed: Array<{ entry: TimelineEntry; error: unknown }> = [];
  const errors: unknown[] = [];
  const start = clock.now();
  const run = runScenario({
    scenario: parseScenario(text, 'test.yaml'),
    store,
    clock,
    ...hooks,
    ...options,
    onAction: (entry, at) => ran.push({ type: entry.action.type, at: at - start }),
    onActionError: (entry, error) => failed.push({ entry, error }),
    onControllerError: (_name, error) => errors.push(error),
  });
  const advance = (ms: number, step = 500) => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(step);
      run.manager?.drain();
    }
    if (errors.length > 0) throw errors[0];
  };
  return { clock, store, run, ran, failed, advance };
}

const HEADER = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata:
  name: test
spec:
  nodes:
    - name: node-1
  namespaces: [shop]
`;

const DEPLOYMENT = `---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec:
  replicas: 1
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - { name: web, image: "nginx:1.27.2" }
`;

describe('runScenario', () => {
  it('brings the minimal scenario to two available replicas on its node', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const run: RunningScenario = runScenario({ scenario: loadScenario('minimal'), store, clock, ...hooks });
    for (let i = 0; i < 60; i += 1) {
      clock.advance(500);
      run.manager?.drain();
    }
    const deployment = store.get(T('deployments.apps'), 'default', 'web');
    expect(deployment['status']).toMatchObject({ observedGeneration: 1, replicas: 2, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2 });
    const pods = store.all(T('pods'), 'default');
    expect(pods.map((p) => [(p['spec'] as { nodeName: string }).nodeName, (p['status'] as { phase: string }).phase])).toEqual([
      ['node-1', 'Running'],
      ['node-1', 'Running'],
    ]);
    expect(store.all(T('namespaces')).map((n) => n.metadata.name)).toEqual(['default', 'kube-node-lease', 'kube-public', 'kube-system']);
    const node = store.get(T('nodes'), undefined, 'node-1');
    expect((node['status'] as { conditions: Array<{ type: string; status: string }> }).conditions.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.metadata.labels).toMatchObject({ 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux' });
    run.stop();
  });

  it('runs `at` entries once and `every` entries repeatedly, until stopped', () => {
    const { run, ran, advance } = setup(
      `${HEADER}  timeline:
    - at: 10s
      scale: { namespace: shop, target: deployment/web, replicas: 2 }
    - at: 30s
      every: 1m
      scale: { namespace: shop, target: deployment/web, replicas: 3 }
${DEPLOYMENT}`,
      { controllers: false },
    );
    advance(150_000, 5_000);
    expect(ran).toEqual([
      { type: 'scale', at: 10_000 },
      { type: 'scale', at: 30_000 },
      { type: 'scale', at: 90_000 },
      { type: 'scale', at: 150_000 },
    ]);
    run.stop();
    advance(300_000, 5_000);
    expect(ran).toHaveLength(4);
  });

  it('plays the timeline faster with speed', () => {
    const { ran, advance } = setup(`${HEADER}  timeline:\n    - every: 1m\n      nodeNotReady: node-1\n`, { controllers: false, speed: 4 });
    advance(60_000, 5_000);
    expect(ran.map((r) => r.at)).toEqual([15_000, 30_000, 45_000, 60_000]);
  });

  it('refuses an initial object the API would refuse, naming its line', () => {
    const text = HEADER + DEPLOYMENT.replace('replicas: 1', 'replicas: -1');
    const clock = new ManualClock();
    const store = new ObjectStore({ now: () => clock.now() });
    let error: unknown;
    try {
      runScenario({ scenario: parseScenario(text, 'test.yaml'), store, clock, ...hooks, controllers: false });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ScenarioError);
    expect((error as ScenarioError).message).toBe('test.yaml:10: Deployment shop/web: Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('applies a manifest over an existing object, keeping its status and metadata', () => {
    const { store, run } = setup(HEADER + DEPLOYMENT, { controllers: false });
    const before = store.get(T('deployments.apps'), 'shop', 'web');
    run.run({
      type: 'apply',
      manifest: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', labels: { tier: 'web' } }, spec: { ...(before['spec'] as object), replicas: 5 } },
    });
    const after = store.get(T('deployments.apps'), 'shop', 'web');
    expect(after.metadata.uid).toBe(before.metadata.uid);
    expect(after.metadata.labels).toEqual({ tier: 'web' });
    expect(after.metadata.generation).toBe(2);
    expect((after['spec'] as { replicas: number }).replicas).toBe(5);
  });

  it('reports an action that cannot be done and keeps going', () => {
    const { failed, ran, advance } = setup(
      `${HEADER}  timeline:
    - at: 5s
      setImage: { namespace: shop, target: deployment/web, container: sidecar, image: "busybox:1.36" }
    - at: 10s
      setImage: { namespace: shop, target: deployment/web, container: web, image: "nginx:1.27.3" }
${DEPLOYMENT}`,
      { controllers: false },
    );
    advance(10_000);
    expect(failed.map((f) => [f.entry.line, String(f.error)])).toEqual([[10, 'Error: unable to find container named "sidecar" in deployment/web']]);
    expect(ran).toEqual([{ type: 'setImage', at: 10_000 }]);
  });

  it('deletes one matching pod gracefully, as kubectl delete pod does', () => {
    const { store, run, advance } = setup(HEADER + DEPLOYMENT);
    advance(10_000);
    const [pod] = store.all(T('pods'), 'shop');
    run.run({ type: 'deletePod', namespace: 'shop', selector: 'app=web' });
    expect(store.get(T('pods'), 'shop', pod?.metadata.name ?? '').metadata.deletionGracePeriodSeconds).toBe(30);
    advance(10_000);
    const names = store.all(T('pods'), 'shop').map((p) => p.metadata.name);
    expect(names).toHaveLength(1);
    expect(names).not.toContain(pod?.metadata.name);
  });

  it('runs a job from a CronJob like kubectl create job --from', () => {
    const cronJob = `---
apiVersion: batch/v1
kind: CronJob
metadata: { name: report, namespace: shop }
spec:
  schedule: "0 2 * * *"
  jobTemplate:
    metadata: { labels: { app: report } }
    spec:
      template:
        spec:
          restartPolicy: Never
          containers: [{ name: report, image: "busybox:1.36" }]
`;
    const { store, run } = setup(HEADER + cronJob, { controllers: false });
    run.run({ type: 'runJob', namespace: 'shop', cronJob: 'report' });
    const [job] = store.all(T('jobs.batch'), 'shop');
    expect(job?.metadata.name).toMatch(/^report-manual-[a-z0-9]{5}$/);
    expect(job?.metadata.annotations).toEqual({ 'cronjob.kubernetes.io/instantiate': 'manual' });
    expect(job?.metadata.labels).toEqual({ app: 'report' });
    expect(job?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'CronJob', name: 'report', controller: true });
    expect((job?.['spec'] as { selector: unknown }).selector).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': job?.metadata.uid } });
  });

  it('feeds setLoad to the HPA controller', () => {
    const hpa = `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: web, namespace: shop }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: web }
  minReplicas: 1
  maxReplicas: 5
  metrics: [{ type: Resource, resource: { name: cpu, target: { type: Utilization, averageUtilization: 50 } } }]
`;
    const { store, run, advance } = setup(HEADER + DEPLOYMENT + hpa);
    run.run({ type: 'setLoad', namespace: 'shop', target: { type: T('deployments.apps'), name: 'web' }, cpu: 100 });
    advance(15_000);
    expect((store.get(T('deployments.apps'), 'shop', 'web')['spec'] as { replicas: number }).replicas).toBe(2);
    expect(store.get(T('deployments.apps'), 'shop', 'web').metadata.annotations?.['simcluster.kubedrift.dev/cpu-utilization']).toBeUndefined();
  });

  it('annotates the target with the load when no HPA controller runs', () => {
    const { store, run } = setup(HEADER + DEPLOYMENT, { controllers: false });
    run.run({ type: 'setLoad', namespace: 'shop', target: { type: T('deployments.apps'), name: 'web' }, cpu: 85 });
    expect(store.get(T('deployments.apps'), 'shop', 'web').metadata.annotations).toEqual({ 'simcluster.kubedrift.dev/cpu-utilization': '85' });
  });

  it('stops and restarts a node kubelet', () => {
    const { store, run } = setup(HEADER, { controllers: false });
    run.run({ type: 'nodeNotReady', node: 'node-1' });
    expect(store.get(T('nodes'), undefined, 'node-1').metadata.annotations).toMatchObject({ 'simcluster.kubedrift.dev/heartbeat': 'stopped' });
    run.run({ type: 'nodeReady', node: 'node-1' });
    expect(store.get(T('nodes'), undefined, 'node-1').metadata.annotations?.['simcluster.kubedrift.dev/heartbeat']).toBeUndefined();
  });
});
