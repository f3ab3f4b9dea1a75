/**
 * Background recording's finer points, against the simulated cluster: a background context's
 * drift episodes keep their causes as the selected context's do (a cause finder runs on its own
 * cache), and a context the user stops recording in Settings ends its session as "recording off",
 * so the gap after it does not read "app closed".
 */
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackgroundRecording, type BackgroundRecording } from '../../../../electron/engine/background/manager.ts';
import { createCoverageQuery } from '../../../../electron/engine/history/coverage.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { decodeCauses } from '../../../../electron/engine/history/episode-causes.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { builtInScenarioPath, parseScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import type { BackgroundStatus } from '../../../../shared/contracts/background.ts';
import type { EpisodeCause } from '../../../../shared/contracts/history.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let sim: SimCluster;
beforeAll(async () => {
  // The minimal scenario with an image the simulated kubelet cannot pull: `web` drifts at once.
  const text = readFileSync(builtInScenarioPath('minimal'), 'utf8').replace('image: nginx:1.27.2', 'image: nginx:broken').replace('pullDelay: 1s', 'pullDelay: 100ms');
  sim = await startSimCluster({ scenario: parseScenario(text) });
});
afterAll(async () => sim.stop());

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function read<T>(file: string, query: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return query(db);
  } finally {
    db.close();
  }
}

function rig(dataDir: string, chosen: string[]) {
  const statuses: BackgroundStatus[] = [];
  const recording: BackgroundRecording = createBackgroundRecording({
    dataDir,
    now: Date.now,
    log: () => undefined,
    chosen: () => chosen,
    selected: () => null,
    recordable: () => true,
    clientConfig: async (context) => sim.kubeconfigObject(context),
    limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
    onStatus: (status) => statuses.push(status),
    recorder: { timing: { flushIntervalMs: 50 }, causesIntervalMs: 50 },
  });
  recording.reconcile();
  return { recording, latest: (context: string) => statuses.at(-1)?.contexts.find((entry) => entry.context === context) };
}

describe('background recording details', () => {
  it("keeps the cause in a background context's drift episode, as the selected context's episodes do", async () => {
    const { dir, cleanup } = await withTempDir();
    const r = rig(dir, ['east']);
    const file = historyFile(dir, 'east');
    const causes = (): EpisodeCause[] =>
      read(file, (db) => (db.prepare("SELECT causes FROM episodes WHERE causes IS NOT NULL").all() as Array<{ causes: string | null }>).flatMap((row) => decodeCauses(row.causes) ?? []));
    try {
      await until(() => r.latest('east')?.state === 'recording', 'east recording');
      await until(() => {
        void r.recording.flush();
        return causes().some((cause) => cause.code === 'image-pull');
      }, 'the image-pull cause in an episode of east');
      const pull = causes().find((cause) => cause.code === 'image-pull');
      expect(pull?.sentence).toContain('nginx:broken');
      expect(pull?.evidence?.kind).toBe('Pod');
    } finally {
      await r.recording.dispose();
      await cleanup();
    }
  });

  it('ends the session of a context turned off in Settings as "recording off", and one still chosen at quit as "app closed"', async () => {
    const { dir, cleanup } = await withTempDir();
    const chosen = ['east', 'west'];
    const r = rig(dir, chosen);
    try {
      await until(() => r.latest('east')?.state === 'recording' && r.latest('west')?.state === 'recording', 'both recording');
      chosen.splice(chosen.indexOf('east'), 1);
      r.recording.reconcile();
      await r.recording.dispose();
      // As the timeline reads the files an hour later: the gap after each session, and why.
      const later = Date.now() + 3_600_000;
      const gapsOf = (context: string) => read(historyFile(dir, context), (db) => createCoverageQuery(db, { now: () => later, live: () => false })(later - 7_200_000, later));
      expect(gapsOf('east').at(-1)).toMatchObject({ reason: 'recording-off', end: later });
      expect(gapsOf('west').at(-1)).toMatchObject({ reason: 'app-closed', end: later });
    } finally {
      await cleanup();
    }
  });
});
