import { makeInformer, type V1Pod } from '@kubernetes/client-node';
import { afterEach, describe, expect, it } from 'vitest';
import { startChurn } from '../../../../electron/engine/simcluster/scenarios/churn.ts';
import { expectConverged } from './convergence.ts';
import { Cleanup, startClientCluster, waitFor } from './harness.ts';
import { startInformer } from './informer.ts';
import { HandlerRecorder } from './recorder.ts';
import { PODS, podManifest, startPodTraffic } from './traffic.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('client-node informer: list and watch', { timeout: 30_000 }, () => {
  it('fires ADD, UPDATE and DELETE for pods created, changed and deleted through the store and over HTTP', async () => {
    const { cluster, kc, api, simErrors } = await startClientCluster(cleanup);
    const informer = makeInformer(kc, '/api/v1/pods', () => api.listPodForAllNamespaces());
    const recorder = new HandlerRecorder<V1Pod>(informer);
    cleanup.add(() => informer.stop());
    await informer.start();
    // The minimal scenario's Deployment makes two pods; the controllers keep changing their status.
    await waitFor('the web Deployment pods', () => informer.list('default').filter((p) => p.metadata?.name?.startsWith('web-')).length === 2);

    const fromStore = cluster.store.create(PODS, podManifest('default', 'from-store'));
    const fromHttp = await api.createNamespacedPod({ namespace: 'default', body: podManifest('default', 'from-http') });
    const storeUid = fromStore.metadata.uid;
    const httpUid = fromHttp.metadata?.uid ?? '';
    await waitFor('ADD of both pods', () => recorder.countsFor(storeUid).add === 1 && recorder.countsFor(httpUid).add === 1);
    expect(informer.get('from-http', 'default')?.metadata?.uid).toBe(httpUid);

    cluster.store.mutate(PODS, 'default', 'from-store', (copy) => {
      copy.metadata.labels = { ...copy.metadata.labels, changed: 'store' };
    });
    await api.patchNamespacedPod({ name: 'from-http', namespace: 'default', body: [{ op: 'add', path: '/metadata/labels/changed', value: 'http' }] });
    await waitFor('UPDATEs carrying the new labels', () => recorder.latest.get(storeUid)?.metadata?.labels?.['changed'] === 'store' && recorder.latest.get(httpUid)?.metadata?.labels?.['changed'] === 'http');
    expect(recorder.countsFor(storeUid).update).toBeGreaterThan(0);
    expect(recorder.countsFor(httpUid).update).toBeGreaterThan(0);

    cluster.store.delete(PODS, 'default', 'from-store');
    await api.deleteNamespacedPod({ name: 'from-http', namespace: 'default', gracePeriodSeconds: 0 });
    await waitFor('DELETE of both pods', () => recorder.countsFor(storeUid).delete === 1 && recorder.countsFor(httpUid).delete === 1);
    expect(informer.get('from-store', 'default')).toBeUndefined();
    expect(informer.get('from-http', 'default')).toBeUndefined();
    expect(recorder.countsFor(storeUid)).toMatchObject({ add: 1, delete: 1 });
    expect(recorder.countsFor(httpUid)).toMatchObject({ add: 1, delete: 1 });

    const server = await expectConverged({ informer, recorder, freshList: () => api.listPodForAllNamespaces() });
    expect(Object.keys(server)).toHaveLength(2);
    expect(simErrors).toEqual([]);
  });

  it('keeps its cache equal to a fresh list while pods are created, modified and deleted', async () => {
    const { cluster, kc, api } = await startClientCluster(cleanup, { controllers: false });
    const churn = startChurn({ store: cluster.store, namespaces: 2, deploymentsPerNamespace: 2, podsPerDeployment: 5, eventsPerSecond: 100 });
    cleanup.add(() => churn.stop());
    const traffic = startPodTraffic(cluster.store);
    cleanup.add(() => traffic.stop());
    const rig = await startInformer(cleanup, kc, { path: '/api/v1/pods', list: () => api.listPodForAllNamespaces(), supervise: false });

    await waitFor('traffic to create, modify and delete pods', () => traffic.counters.deleted >= 10 && churn.counters.modifications >= 100);
    churn.stop();
    traffic.stop();

    const server = await expectConverged(rig);
    expect(Object.keys(server)).toHaveLength(20 + 8);
    const deletedUids = [...rig.recorder.counts].filter(([, counts]) => counts.delete > 0);
    expect(deletedUids.length).toBeGreaterThanOrEqual(10);
    expect(deletedUids.every(([, counts]) => counts.add === 1 && counts.delete === 1)).toBe(true);
    expect(rig.errors).toEqual([]);
    expect(rig.lists).toHaveLength(1);
    expect(rig.watch.calls).toHaveLength(1);
  });
});
