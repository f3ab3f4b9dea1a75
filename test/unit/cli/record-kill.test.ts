/**
 * kill -9 of the real `kubedrift record` loses at most the last second: the command records a
 * simulated cluster whose Deployment is scaled every few tens of milliseconds, is killed with
 * SIGKILL, and its database, reopened, needs no recovery and holds everything the recorder saw
 * until a second before the kill (its flushes run every 500 ms). Twice over the same directory,
 * as a restarted recorder would find it. The machinery is the history store's kill test's
 * (test/helpers/sigkill.ts).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFile } from '../../../electron/engine/history/db.ts';
import { createSampleReader } from '../../../electron/engine/history/sample-read.ts';
import { startSimCluster, type SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { typeById } from '../../../electron/engine/simcluster/resources.ts';
import { CLI } from '../../helpers/cli.ts';
import { reopenIntact, runUntilKilled } from '../../helpers/sigkill.ts';
import { withTempDir } from '../../helpers/tmp.ts';

/** How often the test scales the Deployment while the recorder runs. */
const CHANGE_EVERY_MS = 40;
/**
 * The time a change takes from the simulated API server to the recorder's cache (a watch event
 * on loopback; generous for a loaded machine). Samples carry when the recorder saw a change, so
 * the cluster's value at a time is recorded at most this much later.
 */
const DELIVERY_SLACK_MS = 500;

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimCluster;
let kubeconfig: string;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  // No controllers: the Deployment changes only when the test scales it, so every value is known.
  sim = await startSimCluster({ scenario: 'minimal', controllers: false });
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  await writeFile(kubeconfig, sim.kubeconfig('killed'));
}, 60_000);
afterAll(async () => {
  await sim.stop();
  await cleanup();
});

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The samples in `file` (0 before it exists). */
function samplesIn(file: string): number {
  try {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      return Number((db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks').get() as { n: number }).n);
    } finally {
      db.close();
    }
  } catch {
    return 0;
  }
}

describe('kill -9 of kubedrift record', () => {
  it('loses at most the last second of what it recorded, and the database opens cleanly, every time', async () => {
    const deployments = typeById('deployments.apps');
    if (!deployments) throw new Error('no deployments type');
    const dataDir = path.join(dir, 'data');
    let replicas = (sim.store.get(deployments, 'default', 'web')['spec'] as { replicas: number }).replicas;
    for (const runMs of [1_800, 2_400]) {
      /** [when the test set it, the replicas it set], increasing. */
      const set: Array<[number, number]> = [];
      let timer: NodeJS.Timeout | undefined;
      const before = samplesIn(historyFile(dataDir, 'killed'));
      const scale = () => {
        replicas += 1;
        sim.store.mutate(deployments, 'default', 'web', (copy) => {
          (copy['spec'] as { replicas: number }).replicas = replicas;
        });
        set.push([Date.now(), replicas]);
      };
      const { killedAt, stderr } = await runUntilKilled({
        args: [CLI, 'record', '--context', 'killed', '--kubeconfig', kubeconfig, '--data-dir', dataDir],
        ready: /^recording killed since /,
        runMs,
        onReady: async () => {
          // The clock starts once the first list is recorded (the line comes before the informers start).
          await until(() => samplesIn(historyFile(dataDir, 'killed')) > before, 'the first samples on disk');
          timer = setInterval(scale, CHANGE_EVERY_MS);
        },
      }).finally(() => clearInterval(timer));
      expect(stderr).not.toMatch(/paused|failed/);

      const db = reopenIntact(historyFile(dataDir, 'killed'));
      try {
        const uid = sim.store.get(deployments, 'default', 'web').metadata.uid;
        const workload = db.prepare('SELECT id FROM workloads WHERE uid = ?').get(uid) as { id: number } | undefined;
        expect(workload).toBeDefined();
        const reader = createSampleReader(db);
        const last = reader.at(workload?.id as number, Number.MAX_SAFE_INTEGER);
        // What the recorder saw until a second before the kill is on disk...
        const cut = killedAt - 1_000;
        expect(last?.at ?? 0).toBeGreaterThanOrEqual(cut);
        expect(last?.at ?? Infinity).toBeLessThanOrEqual(killedAt);
        // ...and it is the cluster's own state then: the replicas set before `cut`, less the delivery time.
        const atCut = reader.at(workload?.id as number, cut);
        const setBefore = set.filter(([at]) => at <= cut - DELIVERY_SLACK_MS).at(-1)?.[1] ?? 0;
        expect(atCut?.desired ?? 0).toBeGreaterThanOrEqual(setBefore);
        expect(set.some(([, value]) => value === last?.desired)).toBe(true);
      } finally {
        db.close();
      }
    }
  }, 90_000);
});
