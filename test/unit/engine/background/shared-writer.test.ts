/**
 * Background recorders on a shared PostgreSQL store (a real server this file starts) against the
 * simulated cluster: the writer claim names a background recorder as such, and a second recorder
 * of the same context, refused by the store, says so in its own status ("Recording on this
 * computer only: …", what Settings and the tray show), not only in its log.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backgroundWriterLabel, historyNotice, startContextRecorder, type ContextRecorder } from '../../../../electron/engine/background/context-recorder.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { BackgroundContextStatus } from '../../../../shared/contracts/background.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { until } from '../../../helpers/until.ts';

const postgres = postgresForFile('background_writer');
let sim: SimCluster;
beforeAll(async () => {
  sim = await startSimCluster({ scenario: 'minimal' });
});
afterAll(async () => sim?.stop());

function recorder(dataDir: string, store: string, statuses: BackgroundContextStatus[], writerLabel?: string): ContextRecorder {
  return startContextRecorder({
    context: 'east',
    dataDir,
    clientConfig: async () => sim.kubeconfigObject('east'),
    now: Date.now,
    log: () => undefined,
    limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
    store: () => store,
    onStatus: (status) => statuses.push(status),
    timing: { flushIntervalMs: 100 },
    ...(writerLabel ? { writerLabel } : {}),
  });
}

describe('background recorders on a shared store', () => {
  it('claim a context as "Kubedrift background recording on <host> (pid N)", and a refused one says in its status who writes', async () => {
    const url = await postgres.freshDatabase();
    const { dir: first, cleanup: cleanFirst } = await withTempDir();
    const { dir: second, cleanup: cleanSecond } = await withTempDir();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const writerStatuses: BackgroundContextStatus[] = [];
    const otherStatuses: BackgroundContextStatus[] = [];
    const writer = recorder(first, url, writerStatuses);
    let other: ContextRecorder | undefined;
    try {
      const label = await until(async () => {
        const found = await client.query<{ label: string }>("SELECT label FROM kd_writers WHERE context = 'east'").catch(() => undefined);
        return found?.rows[0]?.label;
      }, 'the background recorder to claim east', { timeoutMs: 20_000 });
      expect(label).toBe(`Kubedrift background recording on ${hostname()} (pid ${process.pid})`);
      expect(label).toBe(backgroundWriterLabel());

      other = recorder(second, url, otherStatuses, 'Kubedrift background recording on laptop-b (pid 7)');
      const notice = await until(() => other?.status().notice, "the second recorder's notice", { timeoutMs: 20_000 });
      expect(other.status().state).toBe('recording');
      expect(notice).toMatch(/^Recording on this computer only: The shared history store \S+ already has a recorder for east: /);
      expect(notice).toContain(`${label} is writing it.`);
      // Published, so the engine's `history:background` stream carries it to Settings and the tray.
      expect(otherStatuses.at(-1)?.notice).toBe(notice);
      expect(writer.status().notice).toBeUndefined();
      expect(writerStatuses.some((status) => status.notice !== undefined)).toBe(false);
      // The claim still names the first recorder.
      expect((await client.query<{ label: string }>("SELECT label FROM kd_writers WHERE context = 'east'")).rows[0]?.label).toBe(label);

      await other.stop();
      expect(other.status().notice).toBeUndefined();
      expect(otherStatuses.at(-1)?.notice).toBeUndefined();
    } finally {
      await other?.stop();
      await writer.stop();
      await client.end();
      await cleanFirst();
      await cleanSecond();
    }
  }, 60_000);
});

describe('historyNotice', () => {
  it('says recording without the shared store is on this computer only, and passes a paused store\'s sentence as it is', () => {
    expect(historyNotice({ state: 'recording' })).toBeUndefined();
    expect(historyNotice({ state: 'recording', message: 'The shared history store db:5432/h cannot be used: connection refused.' })).toBe(
      'Recording on this computer only: The shared history store db:5432/h cannot be used: connection refused.',
    );
    const paused = 'Recording is paused: the disk is full. The live view keeps working; recording resumes by itself once there is space.';
    expect(historyNotice({ state: 'paused', message: paused })).toBe(paused);
  });
});
