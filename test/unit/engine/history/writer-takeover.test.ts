/**
 * Taking over a context in the shared PostgreSQL store (postgres/takeover.ts, writer-claim.ts),
 * on a real server this file starts: a recorder of ANOTHER history file (a fresh volume, another
 * machine) continues a context whose writer stopped, from the database's copy, so its rows follow
 * the old ones without overwriting any, and a reader sees both stretches with the gap between
 * them; while the writer is alive it is refused as before; the old writer coming back finds the
 * claim lost and records locally only.
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPool } from '../../../../electron/engine/history/postgres/connection.ts';
import { installOutbox } from '../../../../electron/engine/history/postgres/outbox.ts';
import { ClaimLostError, pushOnce } from '../../../../electron/engine/history/postgres/push.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment } from './fixtures.ts';
import { type SharedRecorder, sharedRecorders } from './shared-recorders.ts';

const postgres = postgresForFile('takeover');

const CONTEXT = 'prod';
const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };
const START = 1_700_000_000_000;
const MINUTE = 60_000;

type Recorder = SharedRecorder;
const open = sharedRecorders(CONTEXT);

/** A recorder of CONTEXT into `url` from a new data folder of its own, its clock at `start`. */
function recorder(url: string, label: string, start: number, record = true): Promise<Recorder> {
  return open(url, label, { start, record });
}

/** Has `r` see one drifting Deployment change (its ready count) and sync. */
async function record(r: Recorder, name: string, ready = 0): Promise<void> {
  upsertBuiltin(r.cache, deployment(name, `uid-${name}`, { ready }));
  r.clock.advance(2_000);
  // As the feature's tick does: the session's end moves on.
  r.store.tick();
  await r.store.flush();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** The numbered rows the shared database holds for CONTEXT, as JSON text by table and id. */
async function numberedRows(url: string): Promise<Map<string, string>> {
  const rows = new Map<string, string>();
  for (const table of ['sessions', 'workloads', 'episodes', 'sample_blocks', 'delta_batches', 'keyframes']) {
    for (const row of await query<{ id: number }>(url, `SELECT * FROM kd_${table} WHERE context = $1 ORDER BY id`, [CONTEXT])) {
      const { rev: _rev, ...content } = row as { id: number; rev: number };
      rows.set(`${table}/${row.id}`, JSON.stringify(content));
    }
  }
  return rows;
}

/** `web`'s ready counts as a store reads them (sampled moments only). */
function readySamples(store: HistoryStore, to: number): Array<[number, number]> {
  const points = store.series({ uid: 'uid-web', from: START - MINUTE, to })?.series.find((s) => s.name === 'ready')?.points ?? [];
  return points.filter((point): point is [number, number] => point[1] !== null).map(([at, value]) => [at, value]);
}

/** The writer stops without a word (a crash, a lost volume): its heartbeat ages past the time-to-live on the database's clock. */
async function silence(url: string, seconds = 31): Promise<void> {
  await query(url, `UPDATE kd_writers SET heartbeat_at = clock_timestamp() - interval '${seconds} seconds' WHERE context = $1`, [CONTEXT]);
}

describe('taking over a context from a history file whose recorder stopped', () => {
  it('continues the history in the shared store: the old rows stay as they were, the new ids follow them, and a reader sees both stretches with the gap between', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    await record(cluster, 'web', 1);
    const before = await numberedRows(url);
    const oldSamples = readySamples(cluster.store, START + 5_000);
    expect(oldSamples.length).toBeGreaterThan(0);
    expect([...before.keys()].filter((key) => key.startsWith('workloads/'))).toHaveLength(1);
    await silence(url);

    // Ten minutes later, another machine with a history file of its own (it saw `api` first).
    const laptop = await recorder(url, 'the laptop app', START + 10 * MINUTE);
    await record(laptop, 'api');
    expect(laptop.store.status().message).toBeUndefined();
    expect(laptop.logs.join('\n')).toContain(`kubedrift record in the cluster (another history file) stopped writing it; this recorder continues ${CONTEXT}'s history`);
    await record(laptop, 'api', 1);
    await record(laptop, 'web', 2);

    // Every row the first recorder wrote is still there under its own id, as it was, but for what
    // its successor continues as the same recorder restarted would: an episode it left open is
    // closed at its last observed moment, its last sample block gets the next samples.
    const after = await numberedRows(url);
    for (const [key, content] of before) {
      const was = JSON.parse(content) as Record<string, unknown>;
      const now = JSON.parse(after.get(key) ?? 'null') as Record<string, unknown> | null;
      if (key.startsWith('episodes/') && was.end_at === null && now) {
        expect(Number(now.end_at), key).toBeLessThanOrEqual(START + 4_000);
        was.end_at = now.end_at;
      }
      if (key.startsWith('sample_blocks/') && now) {
        expect(Number(now.count), key).toBeGreaterThanOrEqual(Number(was.count));
        for (const column of ['count', 'data', 'end_at']) was[column] = now[column];
      }
      expect(now, key).toEqual(was);
    }
    // ...and the new recorder's rows came after them: its own numbering continued the database's.
    const added = [...after.keys()].filter((key) => !before.has(key));
    expect(added.length).toBeGreaterThan(0);
    for (const key of added) {
      const [table, id] = key.split('/') as [string, string];
      const oldIds = [...before.keys()].filter((k) => k.startsWith(`${table}/`)).map((k) => Number(k.split('/')[1]));
      expect(Number(id), key).toBeGreaterThan(Math.max(0, ...oldIds));
    }
    // One workload row per object: `web` continued on the first recorder's row.
    expect((await query<{ uid: string }>(url, 'SELECT uid FROM kd_workloads WHERE context = $1 ORDER BY uid', [CONTEXT])).map((row) => row.uid)).toEqual(['uid-api', 'uid-web']);
    const claim = await query<{ label: string; superseded: string[] }>(url, 'SELECT label, superseded FROM kd_writers WHERE context = $1', [CONTEXT]);
    expect(claim[0]?.label).toBe('the laptop app');
    expect(claim[0]?.superseded).toHaveLength(1);

    // An app reading the database sees the first stretch, the second, and nobody observing between.
    const reader = await recorder(url, 'an app reading', START + 20 * MINUTE, false);
    await reader.store.flush();
    // The first recorder's samples are all there, the new ones after them.
    const samples = readySamples(reader.store, START + 20 * MINUTE);
    expect(samples.slice(0, oldSamples.length)).toEqual(oldSamples);
    expect(samples.slice(oldSamples.length).every(([at]) => at >= START + 10 * MINUTE)).toBe(true);
    expect(samples.length).toBeGreaterThan(oldSamples.length);
    const episodes = reader.store.episodes.episodes(ALL);
    // `web` drifted before the gap (the first recorder's episode), `api` after it (the laptop's).
    expect(episodes.episodes.map((e) => [e.workload.name, e.start < START + MINUTE ? 'before' : e.start >= START + 10 * MINUTE ? 'after' : 'within'])).toEqual(
      expect.arrayContaining([
        ['web', 'before'],
        ['api', 'after'],
      ]),
    );
    expect(episodes.episodes).toHaveLength(2);
    const gap = reader.store.gaps(START, START + 10 * MINUTE + 10_000).find((g) => g.start > START);
    expect(gap).toMatchObject({ start: START + 4_000, end: START + 10 * MINUTE + 2_000, reason: 'stopped' });

    // The laptop's own timeline shows the same: nothing of the file it recorded into before (its
    // `api` numbered 1, as the database's `web`) stayed in what it reads.
    const shown = (store: HistoryStore) => store.episodes.episodes(ALL).episodes.map((e) => `${e.workload.name}@${e.start}`).sort();
    expect(shown(laptop.store)).toEqual(shown(reader.store));
    expect(readySamples(laptop.store, START + 20 * MINUTE)).toEqual(samples);

    // What the laptop recorded before it took over is kept beside its history file, not deleted.
    const folder = path.dirname(laptop.file);
    expect(readdirSync(folder).some((name) => name.startsWith(`${path.basename(laptop.file)}.before-takeover-`))).toBe(true);
    expect(existsSync(`${laptop.file}.takeover`)).toBe(false);
  });

  it('still refuses another history file while the writer is alive, and takes over only once it has been silent past the time-to-live', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    const laptop = await recorder(url, 'the laptop app', START);
    await record(laptop, 'api');
    expect(laptop.store.status().message).toContain('already has a recorder for prod: kubedrift record in the cluster is writing it.');
    // Silent, but not yet for 30 s: still refused.
    await silence(url, 20);
    await record(laptop, 'api', 1);
    expect(laptop.store.status().message).toContain('already has a recorder for prod: kubedrift record in the cluster is writing it.');
    expect((await query<{ uid: string }>(url, 'SELECT uid FROM kd_workloads WHERE context = $1', [CONTEXT])).map((row) => row.uid)).toEqual(['uid-web']);
    // The writer is not disturbed.
    await record(cluster, 'web', 1);
    expect(cluster.store.status().message).toBeUndefined();
  });

  it('says a writer that closed has stopped and when this recorder takes over, then does', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    const laptop = await recorder(url, 'the laptop app', START);
    cluster.store.close();
    const end = Date.now() + 10_000;
    while (Date.now() < end && !laptop.store.status().message?.includes('has stopped')) await record(laptop, 'api');
    expect(laptop.store.status().message).toContain(
      'kubedrift record in the cluster wrote it from another history file and has stopped; this recorder takes over and continues that history once it has been silent 30 s.',
    );
    expect(laptop.statuses.at(-1)?.message).toBe(laptop.store.status().message);
    await silence(url);
    await record(laptop, 'api', 1);
    expect(laptop.store.status().message).toBeUndefined();
    expect(laptop.statuses.at(-1)?.message).toBeUndefined();
  });

  it('refuses the old writer coming back after the takeover: it is told it was taken over, records locally and writes nothing over the new rows', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    // Cut off (not closed) past the time-to-live; the laptop takes over and records.
    await silence(url);
    const laptop = await recorder(url, 'the laptop app', START + 10 * MINUTE);
    await record(laptop, 'api');
    await record(laptop, 'api', 1);
    const taken = await numberedRows(url);

    // The first recorder answers again with changes of its own.
    await record(cluster, 'db');
    await record(cluster, 'db', 1);
    expect(cluster.store.status().message).toBe(
      `The shared history store ${new URL(url).username}@127.0.0.1:${new URL(url).port}${new URL(url).pathname} already has a recorder for ${CONTEXT}: the laptop app took it over after this history file's recorder stopped, and writes it now (this file's rows up to then stay in the shared store). Only one recorder may write a context's history, so this one records into this computer's history file only, and the timeline shows what the shared store holds.`,
    );
    expect(cluster.store.status().state).toBe('recording');
    expect((cluster.store.db.prepare('SELECT uid FROM workloads ORDER BY uid').all() as Array<{ uid: string }>).map((row) => row.uid)).toEqual(['uid-db', 'uid-web']);
    // Nothing of it reached the database: the rows are the laptop's history, untouched.
    expect(await numberedRows(url)).toEqual(taken);
    expect((await query<{ uid: string }>(url, 'SELECT uid FROM kd_workloads WHERE context = $1 ORDER BY uid', [CONTEXT])).map((row) => row.uid)).toEqual(['uid-api', 'uid-web']);
    // The laptop goes on writing.
    await record(laptop, 'api', 2);
    expect(laptop.store.status().message).toBeUndefined();
  });

  it('lets the first history file take the context back once its successor stopped too, continuing both stretches', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    await silence(url);
    const laptop = await recorder(url, 'the laptop app', START + 10 * MINUTE);
    await record(laptop, 'api');
    await record(laptop, 'api', 1);
    const taken = await numberedRows(url);
    // The laptop dies too; the first recorder comes back and continues what both wrote.
    await silence(url);
    await record(cluster, 'db');
    await record(cluster, 'db', 1);
    expect(cluster.store.status().message).toBeUndefined();
    const after = await numberedRows(url);
    const maxOf = (rows: Map<string, string>, table: string) => Math.max(0, ...[...rows.keys()].filter((k) => k.startsWith(`${table}/`)).map((k) => Number(k.split('/')[1])));
    for (const key of after.keys()) {
      const [table, id] = key.split('/') as [string, string];
      if (!taken.has(key)) expect(Number(id), key).toBeGreaterThan(maxOf(taken, table));
    }
    expect((await query<{ uid: string }>(url, 'SELECT uid FROM kd_workloads WHERE context = $1 ORDER BY uid', [CONTEXT])).map((row) => row.uid)).toEqual(['uid-api', 'uid-db', 'uid-web']);
    const claim = await query<{ label: string; superseded: string[] }>(url, 'SELECT label, superseded FROM kd_writers WHERE context = $1', [CONTEXT]);
    expect(claim[0]).toMatchObject({ label: 'kubedrift record in the cluster' });
    expect(claim[0]?.superseded).toHaveLength(2);
    // Three sessions: the first recorder's, the laptop's, the first recorder's again.
    expect(await query(url, 'SELECT id FROM kd_sessions WHERE context = $1 ORDER BY id', [CONTEXT])).toHaveLength(3);
  });

  it('restarts the recording on the copy as it was: a recorder whose informers had listed writes a keyframe of the cluster into the continued history', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    const laptop = await recorder(url, 'the laptop app', START + 10 * MINUTE);
    upsertBuiltin(laptop.cache, deployment('web', 'uid-web', { ready: 1 }));
    await record(laptop, 'api');
    // Listed while refused (the backfill of its own file).
    await laptop.store.synced();
    expect(laptop.store.status().message).toContain('kubedrift record in the cluster is writing it');
    await silence(url);
    await record(laptop, 'api', 1);
    expect(laptop.store.status().message).toBeUndefined();
    for (let i = 0; i < 3; i += 1) await record(laptop, 'api', 1);
    const keyframes = await query<{ at: number; objects: number }>(url, 'SELECT at, objects FROM kd_keyframes WHERE context = $1 AND complete = 1 ORDER BY id', [CONTEXT]);
    expect(keyframes.filter((k) => Number(k.at) >= START + 10 * MINUTE).map((k) => Number(k.objects))).toContain(2);
    // The state at a moment after the takeover is read from the shared store: both Deployments.
    const reader = await recorder(url, 'an app reading', START + 20 * MINUTE, false);
    await reader.store.flush();
    const objects = await reader.store.objectsAt(laptop.clock.now());
    expect(objects.map((o) => o.metadata.name).sort()).toEqual(['api', 'web']);
  });

  it('commits no push of a recorder that lost the claim (checked under the context lock the takeover takes)', async () => {
    const url = await postgres.freshDatabase();
    const cluster = await recorder(url, 'kubedrift record in the cluster', START);
    await record(cluster, 'web');
    await silence(url);
    const laptop = await recorder(url, 'the laptop app', START + MINUTE);
    await record(laptop, 'api');
    const taken = await numberedRows(url);
    const pool = createPool(url, () => undefined);
    try {
      const journal = cluster.store.db;
      const layout = installOutbox(journal, `${new URL(url).username}@127.0.0.1:${new URL(url).port}${new URL(url).pathname}`);
      journal.exec("INSERT INTO meta (key, value) VALUES ('late', 'x')");
      await expect(pushOnce(journal, pool, CONTEXT, layout, Date.now, 'a writer that lost the claim')).rejects.toThrow(ClaimLostError);
    } finally {
      await pool.end();
    }
    expect(await numberedRows(url)).toEqual(taken);
    expect(await query(url, "SELECT 1 FROM kd_meta WHERE context = $1 AND key = 'late'", [CONTEXT])).toEqual([]);
  });
});
