import { describe, expect, it } from 'vitest';
import { createCauseView, findCause, findCauses, isDrifting } from '../../../../electron/engine/causes/index.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { causeCluster } from '../../../bench/cause-find.ts';
import { deployment, IMAGE, NS, pod, replicaSet, uid } from './fixtures.ts';

describe('causes when the cluster says little', () => {
  it('describes a Deployment with no conditions at all from its counts and the pods that are not ready', () => {
    const catalog = deployment('catalog', { status: { readyReplicas: 2, conditions: undefined } });
    const rs = replicaSet(catalog, 2, { status: { readyReplicas: 2 } });
    const unready = ['abc', 'def'].map((suffix) => pod(rs, suffix, { ready: false }));
    const [cause, ...rest] = findCause(catalog, createCauseView([catalog, rs, pod(rs, 'ok1'), pod(rs, 'ok2'), ...unready]));
    expect(rest).toEqual([]);
    expect(cause?.code).toBe('not-ready');
    expect(cause?.sentence).toBe('2 of 4 replicas not ready; pods catalog-7d9f8b6c2d-abc, catalog-7d9f8b6c2d-def Running but not Ready (no Events left for these pods)');
    expect(cause?.evidence.map((e) => e.kind)).toEqual(['Deployment', 'Pod', 'Pod']);
    expect(cause?.chain.map((link) => link.kind)).toEqual(['Deployment', 'ReplicaSet']);
  });

  it('says no ReplicaSet is in the cache yet instead of guessing why a Deployment waits', () => {
    const catalog = deployment('catalog', { status: { readyReplicas: 0 } });
    const [cause] = findCause(catalog, createCauseView([catalog]));
    expect(cause).toMatchObject({ code: 'not-in-cache', sentence: 'No ReplicaSet of Deployment catalog is in the cache yet, so its pods can\'t be read' });
  });

  it('says the pods of a ReplicaSet are not in the cache when it has none and no Event explains it', () => {
    const catalog = deployment('catalog', { status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { status: { replicas: 0, readyReplicas: 0 } });
    expect(findCause(catalog, createCauseView([catalog, rs]))[0]?.sentence).toBe(`4 of 4 replicas not ready; no pods of ReplicaSet ${rs.metadata.name} in the cache`);
  });

  it('finds nothing for a converged Deployment, and only the newest ReplicaSet counts for a Deployment', () => {
    const catalog = deployment('catalog');
    const old = replicaSet(catalog, 1, { replicas: 0, status: { replicas: 0, readyReplicas: 0 } });
    const current = replicaSet(catalog, 2);
    const leftover = pod(old, 'old', { ready: false, phase: 'Pending', containerStatuses: [{ name: 'catalog', image: IMAGE, ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } }] });
    const view = createCauseView([catalog, old, current, leftover, ...['a', 'b', 'c', 'd'].map((s) => pod(current, s))]);
    expect(findCause(catalog, view)).toEqual([]);
    expect(findCauses(view)).toEqual([]);
  });

  it('picks the newest ReplicaSet by creation time when the revision annotation is missing', () => {
    const catalog = deployment('catalog', { status: { readyReplicas: 3 } });
    const older = replicaSet(catalog, 1);
    const newer = replicaSet(catalog, 2);
    for (const rs of [older, newer]) delete rs.metadata.annotations?.['deployment.kubernetes.io/revision'];
    const stuck = pod(newer, 'x', { ready: false });
    expect(findCause(catalog, createCauseView([catalog, older, newer, stuck]))[0]?.chain.at(-1)?.name).toBe(newer.metadata.name);
  });
});

describe('findCause on a pod', () => {
  it('answers for one pod asked about, its chain the pod itself', () => {
    const catalog = deployment('catalog', { replicas: 1 });
    const rs = replicaSet(catalog, 2, { replicas: 1 });
    const stuck = pod(rs, 'x', { ready: false, phase: 'Pending', containerStatuses: [{ name: 'catalog', image: IMAGE, ready: false, restartCount: 0, state: { waiting: { reason: 'CreateContainerConfigError', message: 'configmap "catalog-config" not found' } } }] });
    const [cause] = findCause(stuck, createCauseView([catalog, rs, stuck]));
    expect(cause).toMatchObject({ code: 'container-waiting', sentence: '1 pod is waiting: container catalog CreateContainerConfigError: configmap "catalog-config" not found' });
    expect(cause?.chain.map((link) => link.name)).toEqual([stuck.metadata.name]);
    expect(findCause(pod(rs, 'fine'), createCauseView([catalog, rs]))).toEqual([]);
  });
});

describe('findCauses', () => {
  it('reports every drifting workload once: a ReplicaSet under its Deployment is left to the Deployment', () => {
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0 } });
    const rs = replicaSet(catalog, 2, { replicas: 1, status: { readyReplicas: 0 } });
    const cart = deployment('cart');
    const cartRs = replicaSet(cart, 1);
    const bareRs = { ...replicaSet(cart, 5, { replicas: 1, status: { readyReplicas: 0 } }), metadata: { name: 'bare', namespace: NS, uid: uid(), resourceVersion: '1' } } as SlimObject;
    const view = createCauseView([catalog, rs, pod(rs, 'x', { ready: false }), cart, cartRs, ...['a', 'b', 'c', 'd'].map((s) => pod(cartRs, s)), bareRs]);
    const reports = findCauses(view);
    expect(reports.map((report) => `${report.target.kind}/${report.target.name}`)).toEqual(['Deployment/catalog', 'ReplicaSet/bare']);
    expect(reports[1]?.causes[0]?.sentence).toBe('1 of 1 replicas not ready; no pods of ReplicaSet bare in the cache');
    expect(isDrifting(cart)).toBe(false);
  });

  it('finds the right cause for each drifting workload of a 10,000-pod cluster', () => {
    const cluster = causeCluster();
    expect(cluster.objects.filter((object) => object.kind === 'Pod')).toHaveLength(10_000);
    const reports = findCauses(createCauseView(cluster.objects));
    const found = new Map(reports.map((report) => [report.target.name, report.causes]));
    expect([...found.keys()].sort()).toEqual([...cluster.expected.keys()].sort());
    for (const [name, expected] of cluster.expected) {
      const causes = found.get(name) ?? [];
      expect(causes.map((cause) => cause.code), name).toEqual([expected.code]);
      expect(causes[0]?.sentence, name).toBe(expected.sentence);
    }
  });
});
