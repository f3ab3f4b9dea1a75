/**
 * Reconcile lag of custom resources: any kind whose status reports observedGeneration, named
 * after the controller that reports Events about it. Objects are Flux and cert-manager shapes
 * as `kubectl get -o json` shows them (trimmed to what the tracker reads, plus some noise).
 */
import { describe, expect, it } from 'vitest';
import { normalizeEvent } from '../../../../electron/engine/events/normalize.ts';
import { createReconcileTracker, unnamedController } from '../../../../electron/engine/events/reconciles.ts';
import { createReporterIndex } from '../../../../electron/engine/events/reporters.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { CacheChange } from '../../../../electron/engine/stream/cache.ts';

const T0 = Date.parse('2025-05-02T10:00:00Z');
const KUSTOMIZATIONS = 'kustomizations.kustomize.toolkit.fluxcd.io';

let rv = 100;

function kustomization(name: string, generation: number, observedGeneration: number | undefined, created = '2025-05-02T09:00:00Z'): SlimObject {
  rv += 1;
  const status = observedGeneration === undefined
    ? undefined
    : {
        observedGeneration,
        lastAppliedRevision: 'main@sha1:8a4c2e1f',
        conditions: [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:8a4c2e1f', lastTransitionTime: '2025-05-02T09:00:05Z', observedGeneration }],
      };
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { name, namespace: 'flux-system', uid: `k-${name}`, resourceVersion: String(rv), generation, creationTimestamp: created, finalizers: ['finalizers.fluxcd.io'] },
    spec: { interval: '10m', path: `./apps/${name}`, prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' } },
    ...(status ? { status } : {}),
  } as SlimObject;
}

function upsert(kind: string, object: SlimObject): CacheChange {
  return { type: 'upsert', kind, object, previous: undefined };
}

function fluxEvent(about: SlimObject, reason: string): SlimObject {
  rv += 1;
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.18a2`, namespace: 'flux-system', uid: `e-${rv}`, resourceVersion: String(rv), creationTimestamp: '2025-05-02T10:00:01Z' },
    involvedObject: { apiVersion: 'kustomize.toolkit.fluxcd.io/v1', kind: 'Kustomization', name: about.metadata.name, namespace: 'flux-system', uid: about.metadata.uid },
    reason,
    message: 'Deployment/apps/podinfo configured',
    source: { component: 'kustomize-controller' },
    reportingComponent: 'kustomize-controller',
    reportingInstance: 'kustomize-controller-5f7d8c9b4-x2k9p',
    firstTimestamp: '2025-05-02T10:00:01Z',
    lastTimestamp: '2025-05-02T10:00:01Z',
    count: 1,
    type: 'Normal',
  } as unknown as SlimObject;
}

function setup() {
  const reporters = createReporterIndex();
  const tracker = createReconcileTracker({ controllerOf: (gk) => reporters.controllerFor(gk) });
  return { reporters, tracker };
}

describe('reconciles of custom resources', () => {
  it('measures a Kustomization from its generation bump until observedGeneration catches up', () => {
    const { tracker, reporters } = setup();
    tracker.observe(upsert(KUSTOMIZATIONS, kustomization('podinfo', 3, 3)), T0);
    expect(tracker.observe(upsert(KUSTOMIZATIONS, kustomization('podinfo', 4, 3)), T0 + 1_000)).toBe(true);
    // No Event yet: the kind's reconciler has no name but its kind.
    expect(tracker.ongoing(unnamedController(KUSTOMIZATIONS), T0 + 2_000)).toEqual({ stuck: 0, pending: 1 });
    expect(tracker.observe(upsert(KUSTOMIZATIONS, kustomization('podinfo', 4, 4)), T0 + 3_500)).toBe(true);

    reporters.note(normalizeEvent(fluxEvent(kustomization('podinfo', 4, 4), 'ReconciliationSucceeded'), T0));
    expect(tracker.controllers()).toEqual(['kustomize-controller']);
    expect(tracker.lag('kustomize-controller', T0, T0 + 10_000)).toEqual({ samples: 1, p50: 2_500, p95: 2_500, max: 2_500 });
    expect(tracker.list({ controller: 'kustomize-controller', from: T0, to: T0 + 10_000 }, T0 + 10_000)).toEqual([
      { workload: { kind: 'Kustomization', name: 'podinfo', namespace: 'flux-system', uid: 'k-podinfo' }, controller: 'kustomize-controller', generation: 4, start: T0 + 1_000, startKnown: true, end: T0 + 3_500, lagMs: 2_500, stuck: false },
    ]);
  });

  it('counts the first object of a kind, created before its operator wrote any status', () => {
    const { tracker } = setup();
    const created = new Date(T0).toISOString();
    expect(tracker.observe(upsert(KUSTOMIZATIONS, kustomization('infra', 1, undefined, created)), T0)).toBe(false);
    expect(tracker.controllers()).toEqual([]);
    tracker.observe(upsert(KUSTOMIZATIONS, kustomization('infra', 1, 1, created)), T0 + 800);
    expect(tracker.list({ from: T0, to: T0 + 1_000 }, T0 + 1_000)).toMatchObject([{ generation: 1, start: T0, startKnown: true, end: T0 + 800, lagMs: 800 }]);
  });

  it('does not follow objects merely listed before their kind reports observedGeneration', () => {
    const { tracker } = setup();
    // Listed at start-up, long created, no status yet: nothing to say it is being reconciled now.
    expect(tracker.observe(upsert(KUSTOMIZATIONS, kustomization('old', 5, undefined)), T0)).toBe(false);
    tracker.observe(upsert(KUSTOMIZATIONS, kustomization('podinfo', 2, 2)), T0 + 100);
    expect(tracker.list({ from: T0, to: T0 + 1_000 }, T0 + 1_000)).toEqual([]);
    expect(tracker.nextStuckAt(T0 + 1_000)).toBeNull();
  });

  it('counts nothing for a kind whose status never reports observedGeneration', () => {
    const { tracker } = setup();
    // A cert-manager Certificate: conditions, no status.observedGeneration.
    const certificate = {
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'storefront-tls', namespace: 'shop', uid: 'c-1', resourceVersion: '7', generation: 2, creationTimestamp: '2025-05-02T09:00:00Z' },
      spec: { secretName: 'storefront-tls', dnsNames: ['shop.example.com'], issuerRef: { name: 'letsencrypt', kind: 'Issuer' } },
      status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 2 }], notAfter: '2025-07-31T09:00:00Z' },
    } as unknown as SlimObject;
    expect(tracker.observe(upsert('certificates.cert-manager.io', certificate), T0)).toBe(false);
    expect(tracker.controllers()).toEqual([]);
    expect(tracker.nextStuckAt(T0)).toBeNull();
  });

  it('does not take a custom Deployment in another group for the deployment controller\'s', () => {
    const { tracker } = setup();
    const custom = { apiVersion: 'platform.example.com/v1alpha1', kind: 'Deployment', metadata: { name: 'web', namespace: 'shop', uid: 'x-1', resourceVersion: '3', generation: 2 }, spec: { app: 'web' }, status: { observedGeneration: 1 } } as unknown as SlimObject;
    tracker.observe(upsert('deployments.platform.example.com', custom), T0);
    expect(tracker.controllers()).toEqual([unnamedController('deployments.platform.example.com')]);
  });

  it('never counts a Job: batch/v1 status has no observedGeneration', () => {
    const { tracker } = setup();
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: 'shop', uid: 'j-1', resourceVersion: '4', generation: 1, creationTimestamp: new Date(T0).toISOString() }, spec: { template: {} }, status: { active: 1 } } as unknown as SlimObject;
    expect(tracker.observe(upsert('jobs.batch', job), T0)).toBe(false);
    expect(tracker.nextStuckAt(T0)).toBeNull();
    expect(tracker.controllers()).toEqual([]);
  });
});
