/**
 * One writer per context in the shared PostgreSQL store (postgres/writer-claim.ts), on a real
 * server this file starts: a second recorder of the same context name is refused with a status
 * naming the one that writes, records into its own file only, and none of its rows reach the
 * database or the timeline it shows; the recorder started again from the writer's history file
 * takes the claim back at once; a writer that stopped is said to have stopped.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../../../electron/engine/history/postgres/connection.ts';
import { claimWriter } from '../../../../electron/engine/history/postgres/writer-claim.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { until } from '../../../helpers/until.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment } from './fixtures.ts';
import { type SharedRecorder, sharedRecorders } from './shared-recorders.ts';

const postgres = postgresForFile('claims');

const freshDatabase = postgres.freshDatabase;

const CONTEXT = 'prod';
const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };
const drifting = (store: HistoryStore) => store.episodes.episodes(ALL).episodes.map((e) => e.workload.name).sort();

type Recorder = SharedRecorder;
const open = sharedRecorders(CONTEXT);

/** A recorder of CONTEXT into `url`, from its own data folder unless `dir` is given, named `label` to others (a store not recording with `record: false`). */
function recorder(url: string, label: string, dir?: string, record = true): Promise<Recorder> {
  return open(url, label, { dir, record });
}

/** Has `r` record one drifting Deployment and sync. */
async function record(r: Recorder, name: string): Promise<void> {
  upsertBuiltin(r.cache, deployment(name, `uid-${name}`, { ready: 0 }));
  r.clock.advance(2_000);
  await r.store.flush();
}

/** The workloads the shared database holds for CONTEXT (any recorder's). */
async function sharedWorkloads(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ uid: string }>('SELECT uid FROM kd_workloads WHERE context = $1 ORDER BY uid', [CONTEXT])).rows.map((row) => row.uid);
  } finally {
    await client.end();
  }
}

const refusedBecause = (url: string, who: string) =>
  `The shared history store ${new URL(url).username}@127.0.0.1:${new URL(url).port}${new URL(url).pathname} already has a recorder for ${CONTEXT}: ${who}. Only one recorder may write a context's history, so this one records into this computer's history file only, and the timeline shows what the shared store holds.`;

describe('one writer per context in the shared store', () => {
  it('refuses a second recorder of the same context: its status names the writer, it records locally, and none of its rows reach the database or its timeline', async () => {
    const url = await freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster');
    await record(cluster, 'web');
    const laptop = await recorder(url, 'the laptop app');
    await record(laptop, 'api');

    expect(laptop.store.status().message).toBe(refusedBecause(url, 'kubedrift record in the cluster is writing it'));
    expect(laptop.statuses.at(-1)?.message).toBe(laptop.store.status().message);
    expect(laptop.store.status().state).toBe('recording');
    // Recording goes on into its own file...
    expect((laptop.store.db.prepare('SELECT uid FROM workloads ORDER BY uid').all() as Array<{ uid: string }>).map((row) => row.uid)).toEqual(['uid-api']);
    // ...while the database and the timeline it shows hold the writer's history only.
    expect(await sharedWorkloads(url)).toEqual(['uid-web']);
    expect(drifting(laptop.store)).toEqual(['web']);
    // A second sync says nothing new.
    await record(laptop, 'api');
    expect(laptop.logs.filter((line) => line.includes('already has a recorder'))).toHaveLength(1);
    // The writer is not disturbed.
    await record(cluster, 'web');
    expect(cluster.store.status().message).toBeUndefined();
    expect(drifting(cluster.store)).toEqual(['web']);
  });

  it('lets the recorder started again from the same history file take the claim back at once, and copies what it recorded meanwhile', async () => {
    const url = await freshDatabase();
    const first = await recorder(url, 'kubedrift record, first run');
    await record(first, 'web');
    // Not closed: a crash leaves a claim that still looks alive.
    const again = await recorder(url, 'kubedrift record, second run', first.dir);
    await record(again, 'api');
    expect(again.store.status().message).toBeUndefined();
    expect(await sharedWorkloads(url)).toEqual(['uid-api', 'uid-web']);
  });

  it('says the writer has stopped once it closed, and still keeps another history file from writing over it within the time-to-live', async () => {
    const url = await freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster');
    await record(cluster, 'web');
    const laptop = await recorder(url, 'the laptop app');
    await record(laptop, 'api');
    cluster.store.close();
    // close() releases the claim once its last sync is done.
    const end = Date.now() + 10_000;
    while (Date.now() < end && !laptop.store.status().message?.includes('has stopped')) await record(laptop, 'api');
    expect(laptop.store.status().message).toBe(
      refusedBecause(url, 'kubedrift record in the cluster wrote it from another history file and has stopped; this recorder takes over and continues that history once it has been silent 30 s'),
    );
    expect(await sharedWorkloads(url)).toEqual(['uid-web']);
  });

  it('lets another history file take over from a writer silent past the time-to-live (a crash), on the database clock (writer-takeover.test.ts has the rest)', async () => {
    const url = await freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster');
    await record(cluster, 'web');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query("UPDATE kd_writers SET heartbeat_at = clock_timestamp() - interval '31 seconds' WHERE context = $1", [CONTEXT]);
    await admin.end();
    const laptop = await recorder(url, 'the laptop app');
    await record(laptop, 'api');
    expect(laptop.store.status().message).toBeUndefined();
    expect(laptop.logs.join('\n')).toContain('kubedrift record in the cluster (another history file) stopped writing it');
    expect(await sharedWorkloads(url)).toEqual(['uid-web']);
    await record(laptop, 'api');
    expect(await sharedWorkloads(url)).toEqual(['uid-api', 'uid-web']);
  });

  it('copies what a recording left queued when the store opens again not recording, as the writer', async () => {
    const url = await freshDatabase();
    const first = await recorder(url, 'the laptop app');
    await record(first, 'web');
    await postgres.server().stop();
    try {
      await record(first, 'api');
      expect(first.store.status().message).toMatch(/unreachable/);
      first.store.close();
    } finally {
      await postgres.server().start();
    }
    const reading = await recorder(url, 'the laptop app, recording off', first.dir, false);
    await reading.store.flush();
    expect(reading.store.status().message).toBeUndefined();
    expect(await sharedWorkloads(url)).toEqual(['uid-api', 'uid-web']);
  });

  it('gives the claim to exactly one of two recorders asking together', async () => {
    const url = await freshDatabase();
    const warm = await recorder(url, 'migrates the database');
    await warm.store.flush();
    warm.store.close();
    const pools = [createPool(url, () => undefined), createPool(url, () => undefined)];
    try {
      const results = await Promise.all(pools.map((pool, i) => claimWriter(pool, 'staging', { id: `writer-${i}`, lineage: `file-${i}`, label: `recorder ${i}` })));
      expect(results.filter((result) => result.held)).toHaveLength(1);
      const refused = results.find((result) => !result.held);
      expect(refused && !refused.held && refused.holder).toMatchObject({ label: expect.stringMatching(/^recorder [01]$/), stopped: false });
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('decides on the claim as it is when it renews it: a change committed while it waited is not overwritten', async () => {
    const url = await freshDatabase();
    const warm = await recorder(url, 'migrates the database');
    await warm.store.flush();
    warm.store.close();
    const pool = createPool(url, () => undefined);
    const me = { id: 'writer-1', lineage: 'file-1', label: 'recorder 1' };
    const admin = new pg.Client({ connectionString: url });
    const watcher = new pg.Client({ connectionString: url });
    await Promise.all([admin.connect(), watcher.connect()]);
    try {
      expect((await claimWriter(pool, 'staging', me)).held).toBe(true);
      // The claim changes hands in a transaction that takes no advisory lock, still open while the renewal asks.
      await admin.query('BEGIN');
      await admin.query("UPDATE kd_writers SET writer = 'laptop', lineage = 'laptop-file', label = 'the laptop app' WHERE context = 'staging'");
      const renewal = claimWriter(pool, 'staging', me);
      const waiting = async () => Number((await watcher.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows[0]?.n ?? 0);
      await until(async () => ((await waiting()) > 0 ? true : undefined), 'the renewal waiting for the row');
      await admin.query('COMMIT');
      const result = await renewal;
      expect(result.held).toBe(false);
      expect(!result.held && result.holder).toMatchObject({ label: 'the laptop app', stopped: false });
      expect((await watcher.query<{ label: string }>("SELECT label FROM kd_writers WHERE context = 'staging'")).rows[0]?.label).toBe('the laptop app');
    } finally {
      await Promise.all([admin.end(), watcher.end(), pool.end()]);
    }
  });
});
