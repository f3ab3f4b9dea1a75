import { afterEach, describe, expect, it } from 'vitest';
import { attachCrdController } from '../../../../electron/engine/simcluster/crd/controller.ts';
import { withApiExtensions } from '../../../../electron/engine/simcluster/crd/strategy.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { EventRecorder } from '../../../../electron/engine/simcluster/controllers/events.ts';
import { GarbageCollector } from '../../../../electron/engine/simcluster/controllers/garbage-collector.ts';
import { createNamespaceController } from '../../../../electron/engine/simcluster/controllers/namespace.ts';
import { ControllerManager, ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { certificate, certificateCrd } from './fixtures.ts';
import { settle } from './helpers.ts';

const strategy = withApiExtensions({ applyDefaults, validate });
const builtIn = (id: string) => typeById(id) as ResourceType;
let manager: ControllerManager | undefined;
afterEach(() => manager?.stop());

/** A store serving the Certificate CRD, with the garbage collector and namespace controller running. */
function cluster() {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const store = new ObjectStore({ now: () => clock.now() });
  attachCrdController(store, { now: () => clock.now() });
  const create = (type: ResourceType, object: IncomingObject) => store.create(type, strategy.applyDefaults(type, object as never));
  for (const name of ['default', 'shop']) create(builtIn('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, spec: { finalizers: ['kubernetes'] } });
  create(builtIn('customresourcedefinitions.apiextensions.k8s.io'), certificateCrd() as IncomingObject);
  const certificates = store.types.byGVR('cert-manager.io', 'v1', 'certificates') as ResourceType;
  manager = new ControllerManager({ store, clock, events: new EventRecorder(store, () => clock.now()) }, [new GarbageCollector(), createNamespaceController()]);
  manager.start();
  return { store, clock, create, certificates };
}

describe('controllers and custom resources', () => {
  it('the garbage collector deletes what a deleted custom resource owns, matched by group, kind and uid', async () => {
    const { store, create, certificates } = cluster();
    const owner = create(certificates, certificate('web', 'shop') as IncomingObject);
    const configMaps = builtIn('configmaps');
    const ref = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', name: 'web', uid: owner.metadata.uid };
    create(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', namespace: 'shop', ownerReferences: [ref] } });
    create(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'other-kind', namespace: 'shop', ownerReferences: [{ ...ref, apiVersion: 'batch/v1', kind: 'Job' }] } });
    await settle();
    // The Certificate resolves as the owner; a batch/v1 Job of that name and uid does not exist.
    expect(store.find(configMaps, 'shop', 'owned')).toBeDefined();
    expect(store.find(configMaps, 'shop', 'other-kind')).toBeUndefined();
    store.delete(certificates, 'shop', 'web', { propagationPolicy: 'Background' });
    await settle();
    expect(store.find(configMaps, 'shop', 'owned')).toBeUndefined();
    expect(store.all(certificates)).toEqual([]);
  });

  it('deleting the CRD deletes its custom resources, and the garbage collector what they owned', async () => {
    const { store, create, certificates } = cluster();
    const owner = create(certificates, certificate('web', 'shop') as IncomingObject);
    const configMaps = builtIn('configmaps');
    create(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', namespace: 'shop', ownerReferences: [{ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', name: 'web', uid: owner.metadata.uid }] } });
    const crds = builtIn('customresourcedefinitions.apiextensions.k8s.io');
    store.delete(crds, undefined, 'certificates.cert-manager.io');
    await settle();
    expect(store.find(configMaps, 'shop', 'owned')).toBeUndefined();
    expect(store.find(crds, undefined, 'certificates.cert-manager.io')).toBeUndefined();
    expect(store.types.byGVR('cert-manager.io', 'v1', 'certificates')).toBeUndefined();
  });

  it('the namespace controller deletes the custom resources of a deleted namespace', async () => {
    const { store, create, certificates, clock } = cluster();
    create(certificates, certificate('web', 'shop') as IncomingObject);
    store.delete(builtIn('namespaces'), undefined, 'shop');
    await settle();
    clock.advance(5_000);
    await settle();
    expect(store.all(certificates, 'shop')).toEqual([]);
    expect(store.find(builtIn('namespaces'), undefined, 'shop')).toBeUndefined();
  });
});
