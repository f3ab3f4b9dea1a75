import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const T = (id: string) => typeById(id) as ResourceType;

interface Condition {
  type: string;
  status: string;
  reason?: string;
}

function conditions(object: KubeObject | undefined): Record<string, string> {
  const list = ((object?.['status'] as { conditions?: Condition[] } | undefined)?.conditions ?? []);
  return Object.fromEntries(list.map((c) => [c.type, `${c.status}/${c.reason ?? ''}`]));
}

describe('the demo scenario operators', () => {
  it('install their CRDs, issue certificates through a flaky issuer, and stall and recover orders-db', () => {
    const demo = loadScenario('demo');
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const problems: string[] = [];
    const run = runScenario({
      scenario: demo,
      store,
      clock,
      applyDefaults,
      validate,
      onActionError: (entry, error) => problems.push(`line ${entry.line}: ${String(error)}`),
      onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
    });
    const certificates = store.types.byGVR('cert-manager.io', 'v1', 'certificates') as ResourceType;
    const databases = store.types.byGVR('db.kubedrift.dev', 'v1', 'databases') as ResourceType;
    expect([certificates?.kind, databases?.kind]).toEqual(['Certificate', 'Database']);
    const seen = { certificate: new Set<string>(), database: new Set<string>() };
    let stalledGeneration: unknown;
    for (let s = 0; s < 12 * 60; s += 1) {
      clock.advance(1_000);
      run.manager?.drain();
      const cert = store.find(certificates, 'shop', 'storefront-tls');
      for (const [type, value] of Object.entries(conditions(cert))) seen.certificate.add(`${type}=${value}`);
      const db = store.find(databases, 'shop', 'orders-db');
      for (const [type, value] of Object.entries(conditions(db))) seen.database.add(`${type}=${value}`);
      if (conditions(db)['Stalled'] === 'True/UnsupportedVersion') stalledGeneration = [db?.metadata.generation, (db?.['status'] as { observedGeneration?: number }).observedGeneration];
    }
    run.stop();
    expect(problems).toEqual([]);

    // Issued at start, reissued at 1m (the second request fails, the retry succeeds) and at 10m45s.
    expect(seen.certificate).toEqual(new Set(['Issuing=True/DoesNotExist', 'Ready=False/DoesNotExist', 'Ready=True/Ready', 'Issuing=True/Reissuing', 'Ready=False/Reissuing', 'Issuing=False/Failed']));
    const cert = store.get(certificates, 'shop', 'storefront-tls');
    expect(conditions(cert)).toEqual({ Ready: 'True/Ready' });
    expect((cert['status'] as { revision: number }).revision).toBe(3);
    const secret = store.get(T('secrets'), 'shop', 'storefront-tls');
    expect(secret['type']).toBe('kubernetes.io/tls');

    // Stalled on 17.0 with observedGeneration caught up, reconciled on 16.4 (3 replicas, one stuck on
    // the failed worker-2 until it is back), then scaled back to 2.
    expect(stalledGeneration).toEqual([2, 2]);
    for (const expected of ['Stalled=True/UnsupportedVersion', 'Reconciling=True/Progressing', 'Ready=True/Available', 'Ready=False/UnsupportedVersion']) expect(seen.database).toContain(expected);
    const db = store.get(databases, 'shop', 'orders-db');
    expect(db['status']).toMatchObject({ observedGeneration: 4, readyReplicas: 2, replicas: 2, phase: 'Running' });
    expect(conditions(db)).toEqual({ Ready: 'True/Available', Reconciling: 'False/ReconcileComplete' });
    const owned = (type: ResourceType, name: string) => store.get(type, 'shop', name).metadata.ownerReferences?.[0];
    for (const [type, name] of [[T('statefulsets.apps'), 'orders-db'], [T('services'), 'orders-db'], [T('secrets'), 'orders-db-credentials']] as const) {
      expect(owned(type, name)).toMatchObject({ apiVersion: 'db.kubedrift.dev/v1', kind: 'Database', name: 'orders-db', uid: db.metadata.uid, controller: true });
    }
    expect(store.get(T('statefulsets.apps'), 'shop', 'orders-db')['status']).toMatchObject({ replicas: 2, readyReplicas: 2 });

    const events = store.all(T('events')).map((e) => `${(e['source'] as { component: string }).component}/${String(e['type'])}/${String(e['reason'])}`);
    for (const expected of ['database-operator/Warning/ReconcileFailed', 'database-operator/Normal/Created', 'database-operator/Normal/Updated', 'database-operator/Normal/Ready', 'cert-manager-certificates-issuing/Warning/Failed', 'cert-manager-certificates-issuing/Normal/Issuing', 'cert-manager-certificates-trigger/Normal/Issuing']) {
      expect(events).toContain(expected);
    }
  });
});
