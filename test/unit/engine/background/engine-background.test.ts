/**
 * The engine with `backgroundContexts` set: a chosen context that is not selected records in the
 * background while the selected one is recorded by the history feature; selecting the recorded
 * one hands it over, and the one switched away from records in the background again. Settings
 * changes start and stop recorders.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../../electron/engine/engine.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { BackgroundStatus } from '../../../../shared/contracts/background.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let sim: SimCluster;
beforeAll(async () => {
  sim = await startSimCluster({ scenario: 'minimal', users: [{ name: 'ops', role: 'cluster-admin' }] });
});
afterAll(async () => sim.stop());

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function samplesIn(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

async function background(engine: Engine): Promise<BackgroundStatus> {
  const result = await engine.dispatch('history:background', {});
  if (!result.ok) throw new Error(result.error.message);
  return result.value as BackgroundStatus;
}

const stateOf = async (engine: Engine, context: string) => (await background(engine)).contexts.find((entry) => entry.context === context)?.state;

describe('the engine records chosen contexts in the background', () => {
  it('records the chosen context that is not selected, hands it over when selected, and takes the other back', async () => {
    const { dir, cleanup } = await withTempDir();
    const dataDir = path.join(dir, 'data');
    const kubeconfig = path.join(dir, 'kubeconfig.yaml');
    await writeFile(kubeconfig, sim.kubeconfigWithUsers());
    await mkdir(dataDir, { recursive: true });
    await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ theme: 'system', lastContext: null, backgroundContexts: ['kubedrift-demo', 'kubedrift-demo-ops'] }));
    const engine = createEngine({ version: '0.0.0-test', dataDir, shell: 'test', kubeconfig, context: 'kubedrift-demo', env: {}, homeDir: dir, log: () => {}, loginShellPath: false, watchKubeconfig: false });
    try {
      await engine.start();
      await until(async () => (await stateOf(engine, 'kubedrift-demo-ops')) === 'recording', 'ops recording in the background');
      expect(await stateOf(engine, 'kubedrift-demo')).toBe('selected');
      const ops = historyFile(dataDir, 'kubedrift-demo-ops');
      await until(() => samplesIn(ops) > 0, 'samples of ops');

      const switched = await engine.dispatch('contexts:select', { name: 'kubedrift-demo-ops' });
      expect(switched.ok).toBe(true);
      await until(async () => (await stateOf(engine, 'kubedrift-demo')) === 'recording', 'kubedrift-demo recording in the background');
      expect(await stateOf(engine, 'kubedrift-demo-ops')).toBe('selected');
      // The history feature now records ops into the same file.
      await until(async () => {
        const status = await engine.dispatch('history:status', {});
        return status.ok && (status.value as { context: string; state: string }).context === 'kubedrift-demo-ops' && (status.value as { state: string }).state === 'recording';
      }, 'the history feature recording ops');

      const off = await engine.dispatch('settings:update', { backgroundContexts: ['kubedrift-demo-ops'] });
      expect(off.ok).toBe(true);
      expect((await background(engine)).contexts.map((entry) => [entry.context, entry.state])).toEqual([['kubedrift-demo-ops', 'selected']]);
      const bad = await engine.dispatch('settings:update', { backgroundContexts: [''] });
      expect(bad.ok).toBe(false);
    } finally {
      await engine.dispose();
      await cleanup();
    }
  }, 60_000);
});
