/**
 * End to end: a background recorder connecting to an aged simulated cluster (a StatefulSet and a
 * DaemonSet rolled out three times over 72 h) lists its ControllerRevisions through the same
 * informers as every kind, and its backfill writes one rollout row per revision, at the
 * revision's creation, numbered, on its StatefulSet's or DaemonSet's workload.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { startContextRecorder, type ContextRecorder } from '../../../../electron/engine/background/context-recorder.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { parseScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const AGED = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata:
  name: aged
spec:
  nodes:
    - name: node-1
  history:
    age: 72h
    revisions: 3
`;

const T = (id: string) => typeById(id) as ResourceType;
const logs: string[] = [];
let sim: SimCluster | undefined;
let recorder: ContextRecorder | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await recorder?.stop();
  await sim?.stop();
  await cleanup?.();
  recorder = sim = cleanup = undefined;
  logs.length = 0;
});

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; log:\n${logs.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a background recorder connecting to an aged cluster', () => {
  it('backfills a rollout row per StatefulSet and DaemonSet revision from the ControllerRevisions it lists', async () => {
    const temp = await withTempDir();
    cleanup = temp.cleanup;
    const cluster = await startSimCluster({ scenario: parseScenario(AGED, 'aged.yaml'), tls: false, onError: () => undefined });
    sim = cluster;
    recorder = startContextRecorder({
      context: 'aged',
      dataDir: temp.dir,
      clientConfig: async () => cluster.kubeconfigObject('aged'),
      now: Date.now,
      log: (message) => logs.push(message),
      limits: () => ({ maxAgeMs: 30 * 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      timing: { flushIntervalMs: 50 },
    });
    await until(() => logs.some((line) => /backfill read \d+ objects into \d+ inferred rows/.test(line)), 'the backfill');
    await recorder.stop();
    recorder = undefined;

    const revisions = cluster.store.all(T('controllerrevisions.apps'));
    expect(revisions).toHaveLength(6);
    const owners = new Map([...cluster.store.all(T('statefulsets.apps')), ...cluster.store.all(T('daemonsets.apps'))].map((o) => [o.metadata.uid, o.metadata.name]));
    const db = new DatabaseSync(historyFile(temp.dir, 'aged'), { readOnly: true });
    try {
      const rows = db.prepare("SELECT name, workload_uid AS workload, at, detail FROM inferred WHERE fact = 'rollout' AND kind = 'ControllerRevision' ORDER BY name").all() as Array<{ name: string; workload: string; at: number; detail: string }>;
      const expected = revisions
        .map((r) => ({ name: r.metadata.name, owner: r.metadata.ownerReferences?.[0]?.name, at: Date.parse(String(r.metadata.creationTimestamp)), detail: `revision ${String(r['revision'])} (ControllerRevision ${r.metadata.name})` }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      expect(rows.map((row) => ({ name: row.name, owner: owners.get(row.workload), at: row.at, detail: row.detail }))).toEqual(expected);
      // Three days of revisions, not the moment the recorder connected.
      expect(Math.min(...rows.map((row) => row.at))).toBeLessThan(Date.now() - 48 * 3_600_000);
    } finally {
      db.close();
    }
  });
});
