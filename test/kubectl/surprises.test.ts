/**
 * The four reconcile surprises, each provoked with the real kubectl against the simulated
 * cluster while the engine watches it (LiveCluster + the surprises feature), and each detected
 * within 5 s: a deleted pod that comes back, `kubectl scale` fighting an HPA over replicas,
 * `kubectl annotate` (an update without a rollout) and a broken image (a stalled rollout).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecentSurprises, Surprise } from '../../shared/contracts/surprises.ts';
import type { EngineContext } from '../../electron/engine/features.ts';
import { StreamHub } from '../../electron/engine/hub.ts';
import { LiveCluster } from '../../electron/engine/live-cluster.ts';
import { createSurprisesFeature } from '../../electron/engine/surprises/feature.ts';
import { kubectlMissing } from './kubectl.ts';
import { eventually, useKubectlTest, type KubectlSession } from './session.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';

/** Detection must follow the provoking command within this (the issue's bar). */
const DETECT_MS = 5_000;

describe.skipIf(kubectlMissing !== undefined)(`surprises provoked with the real kubectl${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  let k: KubectlSession;
  let ns: string;
  let cluster: SimCluster;
  let live: LiveCluster;
  let hub: StreamHub;
  let dispose: () => void;
  useKubectlTest(32, 'surprise', (state) => ({ k, ns, cluster } = state));

  beforeEach(async () => {
    hub = new StreamHub();
    live = new LiveCluster({ hub, log: () => undefined });
    await live.reset('sim');
    const listeners = new Set<(context: { name: string } | null) => void>();
    const context = {
      now: () => Date.now(),
      log: () => undefined,
      hub,
      cache: live.cache,
      selected: () => ({ name: 'sim' }),
      onContextChange: (listener: (context: { name: string } | null) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      clientConfig: async () => cluster.kubeconfigObject('sim'),
    } as unknown as EngineContext;
    const feature = createSurprisesFeature(context);
    dispose = () => void feature.dispose();
    await live.watch(cluster.kubeconfigObject('sim'));
    const created = await k.run(['create', 'deployment', 'web', '--image=nginx:1.27.2', '--replicas=2', '-n', ns]);
    expect(created.code).toBe(0);
    await eventually(async () => (live.cache.list('pods').filter((p) => p.metadata.namespace === ns && (p['status'] as { phase?: string })?.phase === 'Running').length === 2 ? true : undefined), { what: 'two running web pods' });
  });

  afterEach(async () => {
    dispose();
    await live.stop();
  });

  const surprises = (): Surprise[] => ((hub.last('surprises:changed') as RecentSurprises | undefined)?.surprises ?? []).filter((s) => s.workload.namespace === ns);

  /** Waits for a surprise of `type` on this test's namespace, at most DETECT_MS after `since`. */
  async function detected(type: Surprise['type'], since: number): Promise<Surprise> {
    const found = await eventually(async () => surprises().find((s) => s.type === type), { what: `a ${type} surprise`, timeoutMs: DETECT_MS + 2_000, last: () => JSON.stringify(surprises(), null, 1) });
    expect(Date.now() - since).toBeLessThan(DETECT_MS);
    return found;
  }

  it('a deleted pod comes back: recreated by replicaset-controller, on the Deployment', async () => {
    const pod = live.cache.list('pods').find((p) => p.metadata.namespace === ns);
    const at = Date.now();
    const deleted = await k.run(['delete', 'pod', pod?.metadata.name ?? '', '-n', ns, '--wait=false']);
    expect(deleted.code).toBe(0);
    const surprise = await detected('recreated', at);
    expect(surprise).toMatchObject({ actor: 'replicaset-controller', object: { kind: 'pods', name: pod?.metadata.name }, workload: { kind: 'deployments.apps', name: 'web' } });
    expect(surprise.message).toMatch(new RegExp(`^Pod ${ns}/${pod?.metadata.name} was deleted and replicaset-controller replaced it with web-\\S+ \\d+\\.\\d s later`));
  });

  it('kubectl scale against an HPA is a fight over spec.replicas, naming both managers', async () => {
    // `kubectl autoscale` posts autoscaling/v1, which the simulator does not serve; the same HPA in v2:
    const manifest = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: ${ns}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 3
  maxReplicas: 5
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 80}}}]
`;
    const hpa = await k.run(['apply', '-f', '-'], manifest);
    expect([hpa.code, hpa.stderr]).toEqual([0, '']);
    await eventually(async () => (live.cache.list('deployments.apps').find((d) => d.metadata.namespace === ns && (d['spec'] as { replicas?: number }).replicas === 3) ? true : undefined), { what: 'the HPA scaling web to 3' });
    expect((await k.run(['scale', 'deployment', 'web', '--replicas=1', '-n', ns])).code).toBe(0);
    await eventually(async () => (live.cache.list('deployments.apps').find((d) => d.metadata.namespace === ns && (d['spec'] as { replicas?: number }).replicas === 3 && d.metadata.generation! >= 3) ? true : undefined), { what: 'the HPA scaling web back to 3' });
    const at = Date.now();
    expect((await k.run(['scale', 'deployment', 'web', '--replicas=1', '-n', ns])).code).toBe(0);
    const fight = await detected('fight', at);
    expect(fight.field).toBe('spec.replicas');
    const managers = new Set(fight.writes?.map((w) => w.manager));
    expect(managers.has('kube-controller-manager')).toBe(true);
    expect([...managers].some((m) => m.startsWith('kubectl'))).toBe(true);
    expect(fight.writes?.find((w) => w.manager === 'kube-controller-manager')).toMatchObject({ subresource: 'scale', value: '3' });
    expect(fight.message).toContain(`spec.replicas of Deployment ${ns}/web is fought over`);
  });

  it('kubectl annotate updates the Deployment without a rollout, and says so', async () => {
    const at = Date.now();
    expect((await k.run(['annotate', 'deployment', 'web', 'team=storefront', '-n', ns])).code).toBe(0);
    const surprise = await detected('no-rollout', at);
    expect(surprise.workload).toMatchObject({ kind: 'deployments.apps', name: 'web' });
    expect(surprise.message).toBe(`Deployment ${ns}/web was updated (annotation team), but its pod template did not change, so no rollout happened; to restart its pods, change the template (kubectl rollout restart).`);
  });

  it('a broken image stalls the rollout: Progressing=False with ProgressDeadlineExceeded, and since when', async () => {
    expect((await k.run(['patch', 'deployment', 'web', '-n', ns, '-p', '{"spec":{"progressDeadlineSeconds":2}}'])).code).toBe(0);
    expect((await k.run(['set', 'image', 'deployment/web', 'nginx=registry.example.com/nginx:does-not-exist', '-n', ns])).code).toBe(0);
    // The deadline is the cluster's (2 s of simulated time); detection is timed from the stall itself.
    const stalled = await eventually(async () => surprises().find((s) => s.type === 'stalled'), { what: 'a stalled surprise', timeoutMs: 20_000 });
    expect(Date.now() - stalled.at).toBeLessThan(DETECT_MS);
    expect(stalled.message).toMatch(new RegExp(`^The rollout of Deployment ${ns}/web stalled \\(ProgressDeadlineExceeded\\): ReplicaSet "web-\\w+" has timed out progressing\\.`));
    expect(stalled.since).toEqual(expect.any(Number));
  });
});
