import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { SurpriseDetector } from '../../../../electron/engine/surprises/detect.ts';
import { writerOf } from '../../../../electron/engine/surprises/writers.ts';

const template = (image: string) => ({ metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image }] } });

function deployment(resourceVersion: string, generation: number, spec: Record<string, unknown>, extra: { annotations?: Record<string, string>; status?: Record<string, unknown> } = {}): SlimObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { uid: 'd-1', name: 'web', namespace: 'shop', resourceVersion, generation, ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { replicas: 2, template: template('nginx:1.27'), ...spec },
    status: extra.status ?? { observedGeneration: generation, replicas: 2 },
  };
}

const update = (before: SlimObject, after: SlimObject) => ({ type: 'upsert' as const, kind: 'deployments.apps', object: after, previous: before });

describe('the surprise detector', () => {
  const detector = () => new SurpriseDetector(() => undefined);

  it('calls a scale, a status change or a controller’s revision annotation no surprise', () => {
    const d = detector();
    const base = deployment('1', 1, {});
    expect(d.observe(update(base, deployment('2', 2, { replicas: 4 })), 1_000)).toEqual([]);
    expect(d.observe(update(base, deployment('3', 1, {}, { status: { observedGeneration: 1, replicas: 3 } })), 1_000)).toEqual([]);
    expect(d.observe(update(base, deployment('4', 1, {}, { annotations: { 'deployment.kubernetes.io/revision': '2' } })), 1_000)).toEqual([]);
  });

  it('says a spec change that left the template alone rolled nothing out, and a paused one waits', () => {
    const d = detector();
    const [plain] = d.observe(update(deployment('1', 1, {}), deployment('2', 2, { minReadySeconds: 10 })), 1_000);
    expect(plain).toMatchObject({ type: 'no-rollout', message: expect.stringContaining('was updated (spec.minReadySeconds), but its pod template did not change') });
    const [paused] = d.observe(update(deployment('2', 2, { paused: true }), deployment('3', 3, { paused: true, template: template('nginx:1.28') })), 2_000);
    expect(paused?.message).toBe("Deployment shop/web's pod template changed, but it is paused: no rollout happens until it is resumed (kubectl rollout resume).");
  });

  it('reports a stall once, when Progressing turns False, with the time the controller gave up', () => {
    const d = detector();
    const stalled = { observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-7d9" has timed out progressing.', lastTransitionTime: '2026-11-27T10:00:00Z' }] };
    const going = { observedGeneration: 2, conditions: [{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' }] };
    const [found] = d.observe(update(deployment('1', 2, {}, { status: going }), deployment('2', 2, {}, { status: stalled })), 5_000);
    expect(found).toMatchObject({ type: 'stalled', since: Date.parse('2026-11-27T10:00:00Z') });
    // One full stop between the controller's sentence and ours, not two.
    expect(found?.message).toBe('The rollout of Deployment shop/web stalled (ProgressDeadlineExceeded): ReplicaSet "web-7d9" has timed out progressing. The controller reports no progress within its deadline; it stays so until the cause is fixed or the spec changes.');
    expect(d.observe(update(deployment('2', 2, {}, { status: stalled }), deployment('3', 2, {}, { status: stalled })), 6_000)).toEqual([]);
  });

  it('needs two reversals by two managers for a fight; one correction is not one', () => {
    const d = detector();
    const web = deployment('1', 1, {});
    const write = (manager: string, value: string, at: number) => d.recordWrite('deployments.apps', web, 'spec.replicas', { manager, value, at });
    expect(write('kube-controller-manager', '3', 0)).toBeUndefined();
    expect(write('kubectl', '1', 1_000)).toBeUndefined();
    expect(write('kube-controller-manager', '3', 2_000)).toBeUndefined();
    const fight = write('kubectl', '1', 3_000);
    expect(fight).toMatchObject({ type: 'fight', field: 'spec.replicas', writes: [{ value: '3' }, { value: '1' }, { value: '3' }, { value: '1' }] });
    // Later writes update the same fight.
    expect(write('kube-controller-manager', '3', 4_000)?.id).toBe(fight?.id);
  });
});

describe('recreated pods', () => {
  const rs = (replicas: number): SlimObject => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { uid: 'rs-1', name: 'web-7d9', namespace: 'shop', resourceVersion: String(replicas) }, spec: { replicas } });
  const pod = (uid: string, name: string, extra: Record<string, unknown> = {}): SlimObject => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { uid, name, namespace: 'shop', resourceVersion: '1', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9', uid: 'rs-1', controller: true }], ...extra },
  });

  it('names the controller that replaced a deleted pod, and how fast', () => {
    const owner = rs(2);
    const d = new SurpriseDetector(() => ({ kind: 'replicasets.apps', object: owner }));
    const old = pod('p-1', 'web-7d9-abcde');
    expect(d.observe({ type: 'upsert', kind: 'pods', object: pod('p-1', 'web-7d9-abcde', { deletionTimestamp: '2026-11-27T10:00:00Z' }), previous: old }, 10_000)).toEqual([]);
    const [found] = d.observe({ type: 'upsert', kind: 'pods', object: pod('p-2', 'web-7d9-fghij'), previous: undefined }, 10_400);
    expect(found).toMatchObject({ type: 'recreated', actor: 'replicaset-controller', delayMs: 400, object: { uid: 'p-1' }, workload: { kind: 'replicasets.apps', uid: 'rs-1' } });
    expect(found?.message).toBe('Pod shop/web-7d9-abcde was deleted and replicaset-controller replaced it with web-7d9-fghij 0.4 s later: ReplicaSet web-7d9 keeps its pod count, so a deleted pod comes back.');
  });

  it('calls a scale-down followed by a scale-up no recreation', () => {
    let owner = rs(1);
    const d = new SurpriseDetector(() => ({ kind: 'replicasets.apps', object: owner }));
    d.observe({ type: 'delete', kind: 'pods', ref: { kind: 'pods', uid: 'p-1' }, object: pod('p-1', 'web-7d9-abcde') }, 10_000);
    owner = rs(3);
    expect(d.observe({ type: 'upsert', kind: 'pods', object: pod('p-2', 'web-7d9-fghij'), previous: undefined }, 12_000)).toEqual([]);
  });

  it('calls pods that left the view (access withdrawn) and came back no recreation', () => {
    const owner = rs(2);
    const d = new SurpriseDetector(() => ({ kind: 'replicasets.apps', object: owner }));
    const pods = [pod('p-1', 'web-7d9-abcde'), pod('p-2', 'web-7d9-fghij')];
    for (const p of pods) expect(d.observe({ type: 'delete', kind: 'pods', ref: { kind: 'pods', uid: p.metadata.uid }, object: p, left: true }, 10_000)).toEqual([]);
    for (const p of pods) expect(d.observe({ type: 'upsert', kind: 'pods', object: p, previous: undefined }, 11_000)).toEqual([]);
    // A pod really deleted after that is still one its controller replaces.
    d.observe({ type: 'delete', kind: 'pods', ref: { kind: 'pods', uid: 'p-1' }, object: pods[0] as SlimObject }, 12_000);
    expect(d.observe({ type: 'upsert', kind: 'pods', object: pod('p-3', 'web-7d9-klmno'), previous: undefined }, 12_500)).toMatchObject([{ type: 'recreated', object: { uid: 'p-1' } }]);
  });
});

describe('writerOf', () => {
  it('names the manager that owns the field, with its subresource', () => {
    const live = {
      metadata: {
        managedFields: [
          { manager: 'kubectl-client-side-apply', operation: 'Update', time: '2026-11-27T10:00:00Z', fieldsV1: { 'f:spec': { 'f:template': {} } } },
          { manager: 'kube-controller-manager', operation: 'Update', subresource: 'scale', time: '2026-11-27T10:00:05Z', fieldsV1: { 'f:spec': { 'f:replicas': {} } } },
        ],
      },
    };
    expect(writerOf(live, ['spec', 'replicas'], '3', 42)).toEqual({ manager: 'kube-controller-manager', subresource: 'scale', value: '3', at: 42 });
    expect(writerOf(live, ['spec', 'paused'], 'true', 42)).toBeUndefined();
  });
});
