import { describe, expect, it } from 'vitest';
import { createNamespaceController } from '../../../../electron/engine/simcluster/controllers/namespace.ts';
import { harness, PODS, reapPods, T } from './harness.ts';

const NAMESPACES = T('namespaces');
const CONFIGMAPS = T('configmaps');

function pod(name: string, nodeName?: string) {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop' }, spec: { ...(nodeName ? { nodeName } : {}), containers: [{ name: 'app', image: 'nginx:1.27.2' }] } };
}

describe('namespace-controller', () => {
  it('empties a deleted namespace, then drops the kubernetes finalizer and the namespace', () => {
    const h = harness([createNamespaceController()]);
    h.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    h.create('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: '1' } });
    h.create('pods', pod('idle'));
    h.create('pods', pod('busy', 'worker-1'));
    h.create('pods', { ...pod('other'), metadata: { name: 'other', namespace: 'default' } });

    const { deleted } = h.store.delete(NAMESPACES, undefined, 'shop');
    expect(deleted).toBe(false);
    h.settle();
    const ns = h.store.get(NAMESPACES, undefined, 'shop');
    expect(ns.metadata.deletionTimestamp).toBeDefined();
    expect(ns['status']).toEqual({ phase: 'Terminating' });
    expect(ns['spec']).toEqual({ finalizers: ['kubernetes'] });
    expect(h.store.all(CONFIGMAPS, 'shop')).toEqual([]);
    // The bound pod is in its grace period: the namespace waits for the kubelet.
    expect(h.pods('shop').map((p) => p.metadata.name)).toEqual(['busy']);
    expect(h.pods('shop')[0]?.metadata.deletionTimestamp).toBeDefined();

    reapPods(h, 'shop');
    expect(h.store.find(NAMESPACES, undefined, 'shop')).toBeUndefined();
    expect(h.store.find(PODS, 'default', 'other')).toBeDefined();
  });

  it('leaves namespaces that are not being deleted alone', () => {
    const h = harness([createNamespaceController()]);
    h.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
    h.create('pods', pod('idle'));
    h.advance(10_000);
    expect(h.pods('shop')).toHaveLength(1);
    expect(h.store.get(NAMESPACES, undefined, 'shop')['status']).toEqual({ phase: 'Active' });
  });

  it('deletes a namespace without finalizers at once', () => {
    const h = harness([createNamespaceController()]);
    h.create('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tmp' }, spec: {} });
    expect(h.store.delete(NAMESPACES, undefined, 'tmp').deleted).toBe(true);
  });
});
