import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const T = (id: string) => typeById(id) as ResourceType;
const CYCLE_MS = 12 * 60_000;

describe('the demo scenario', () => {
  const demo = loadScenario('demo');
  const kinds = (kind: string) => demo.objects.filter((o) => o.type.kind === kind).map((o) => o.manifest as KubeObject);

  it('looks like a small shop: four nodes, four namespaces and a dozen services', () => {
    expect(demo.nodes.map((n) => [n.name, n.role])).toEqual([
      ['control-plane', 'control-plane'],
      ['worker-1', 'worker'],
      ['worker-2', 'worker'],
      ['worker-3', 'worker'],
    ]);
    expect(demo.namespaces).toEqual(['shop', 'payments', 'platform', 'monitoring']);
    const deployments = kinds('Deployment');
    expect(deployments.length).toBeGreaterThanOrEqual(12);
    expect(deployments.map((d) => d.metadata.name)).toEqual(expect.arrayContaining(['frontend', 'cart', 'checkout', 'catalog', 'search', 'recommendations', 'payments-api', 'fraud-check', 'notifications', 'gateway', 'auth']));
    for (const d of deployments) {
      const images = ((d['spec'] as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers).map((c) => c.image);
      for (const image of images) expect(image).toMatch(/^[a-z0-9./-]+:[\w.-]+$/);
    }
    expect(kinds('StatefulSet').map((s) => [s.metadata.name, (s['spec'] as { replicas: number }).replicas])).toEqual([['postgres', 3]]);
    expect(kinds('DaemonSet').map((d) => d.metadata.name)).toEqual(['node-exporter']);
    expect(kinds('CronJob').map((c) => c.metadata.name)).toEqual(['nightly-report']);
    expect(kinds('Job')).toHaveLength(1);
    expect(kinds('HorizontalPodAutoscaler').map((h) => (h['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name)).toEqual(['frontend']);
    expect(kinds('Service').length).toBeGreaterThanOrEqual(12);
  });

  it('has something happen every minute, in a repeating cycle', () => {
    expect(demo.timeline.every((e) => e.everyMs === CYCLE_MS)).toBe(true);
    const times = demo.timeline.map((e) => e.atMs).sort((a, b) => a - b);
    const gaps = times.map((t, i) => (i === 0 ? t + CYCLE_MS - (times.at(-1) ?? 0) : t - (times[i - 1] ?? 0)));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(60_000);
    expect(new Set(demo.timeline.map((e) => e.action.type))).toEqual(new Set(['deletePod', 'setImage', 'setLoad', 'nodeNotReady', 'nodeReady', 'scale', 'runJob', 'apply', 'delete', 'pauseRollout', 'resumeRollout', 'metricsUnavailable']));
    const images = demo.timeline.flatMap((e) => (e.action.type === 'setImage' ? [e.action.image] : []));
    expect(images.some((i) => i.endsWith(':broken'))).toBe(true);
    expect(images.some((i) => i.endsWith(':crash'))).toBe(true);
    expect(images.some((i) => i.endsWith(':unready'))).toBe(true);
  });

  it('plays one cycle with every story visible in events and everything healthy again at the end', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const problems: string[] = [];
    const run = runScenario({
      scenario: demo,
      store,
      clock,
      applyDefaults,
      validate: (type, object, old) => validate(type, object, old),
      onActionError: (entry, error) => problems.push(`line ${entry.line}: ${String(error)}`),
      onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
    });
    let sawProgressDeadline = false;
    for (let s = 0; s < CYCLE_MS / 1000 + 60; s += 1) {
      clock.advance(1_000);
      run.manager?.drain();
      const payments = store.get(T('deployments.apps'), 'payments', 'payments-api')['status'] as { conditions?: Array<{ type: string; reason: string }> };
      if (payments.conditions?.some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')) sawProgressDeadline = true;
    }
    run.stop();
    expect(problems).toEqual([]);
    const reasons = new Set(store.all(T('events')).map((e) => `${(e['source'] as { component: string }).component}/${String(e['reason'])}`));
    for (const expected of [
      'horizontal-pod-autoscaler/SuccessfulRescale',
      'node-controller/NodeNotReady',
      'taint-eviction-controller/TaintManagerEviction',
      'kubelet/BackOff',
      'statefulset-controller/SuccessfulCreate',
      'daemonset-controller/SuccessfulCreate',
      'cronjob-controller/SuccessfulCreate',
      'job-controller/Completed',
      'deployment-controller/ScalingReplicaSet',
      'persistentvolume-controller/ProvisioningFailed',
      'kubelet/Unhealthy',
    ]) {
      expect(reasons).toContain(expected);
    }
    expect(sawProgressDeadline).toBe(true);
    const rescales = store.all(T('events')).filter((e) => e['reason'] === 'SuccessfulRescale').map((e) => String(e['message']));
    expect(rescales.some((m) => m.endsWith('above target'))).toBe(true);
    expect(rescales.some((m) => m.endsWith('All metrics below target'))).toBe(true);
    const stuck = store.all(T('pods')).filter((p) => p.metadata.deletionTimestamp || (p['status'] as { phase: string }).phase === 'Pending');
    expect(stuck.map((p) => p.metadata.name)).toEqual([]);
    expect(store.get(T('statefulsets.apps'), 'payments', 'postgres')['status']).toMatchObject({ readyReplicas: 3, availableReplicas: 3 });
    expect(store.get(T('daemonsets.apps'), 'monitoring', 'node-exporter')['status']).toMatchObject({ desiredNumberScheduled: 4, numberReady: 4 });
  });
});
