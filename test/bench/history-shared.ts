/**
 * The PostgreSQL side of the timeline benchmarks (history-timeline.ts), on a real server started
 * for the run (test/helpers/postgres.ts: Debian's binaries, fsync off as in the tests):
 * - `history_write_samples_per_s_sqlite` / `_postgres`: recording-shaped flushes (every workload
 *   one sample a second, one flush a second) through the production writer; for PostgreSQL each
 *   flush also reaches the replica from the journal (echo.ts), is copied to the database, and
 *   the replica reads what others wrote, the work the shared store's sync does per flush
 *   (postgres/shared-store.ts).
 * - `history_postgres_copy_24h_1k_workloads_s`: the day's fixture copied from its file into the
 *   database (a backlog after an outage, or a store switched to PostgreSQL).
 * - `history_postgres_pull_24h_1k_workloads_s`: an app's first read of that day from the
 *   database into its replica.
 * - `timeline_query_24h_1k_workloads_postgres_ms`: the timeline query on the shared store, the
 *   median of the same runs as SQLite's (it reads the replica: the same query code).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { openHistoryDb } from '../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../electron/engine/history/open-store.ts';
import { createPool, parseStoreLocation } from '../../electron/engine/history/postgres/connection.ts';
import { createEcho } from '../../electron/engine/history/postgres/echo.ts';
import { migrateShared, type TableLayout } from '../../electron/engine/history/postgres/layout.ts';
import { installOutbox } from '../../electron/engine/history/postgres/outbox.ts';
import { pullOnce } from '../../electron/engine/history/postgres/pull.ts';
import { pushOnce } from '../../electron/engine/history/postgres/push.ts';
import { emptyBatch } from '../../electron/engine/history/records.ts';
import { SCHEMA_VERSION } from '../../electron/engine/history/schema.ts';
import type { HistoryStore } from '../../electron/engine/history/store.ts';
import { createWriter } from '../../electron/engine/history/writer.ts';
import { ObjectCache } from '../../electron/engine/stream/cache.ts';
import { startTestPostgres } from '../helpers/postgres.ts';
import type { HistoryFixture } from './history-fixture.ts';
import { round } from './stats.ts';

const WRITE_SECONDS = 60;

async function drain(db: DatabaseSync, pool: ReturnType<typeof createPool>, context: string, layout: readonly TableLayout[], own?: Map<string, number[]>): Promise<number> {
  let rows = 0;
  for (;;) {
    const pushed = await pushOnce(db, pool, context, layout);
    for (const [tbl, revs] of own ? pushed.revs : []) own?.set(tbl, [...(own.get(tbl) ?? []), ...revs]);
    if (pushed.upserted + pushed.deleted === 0) return rows;
    rows += pushed.upserted + pushed.deleted;
  }
}

/** Samples per second written by `seconds` one-second flushes of `workloads` workloads. */
async function writeThroughput(workloads: number, seconds: number, url?: string): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-write-'));
  const { db } = openHistoryDb(path.join(dir, 'journal.sqlite'));
  const replica = url ? openHistoryDb(path.join(dir, 'replica.sqlite')).db : undefined;
  const pool = url ? createPool(url, () => undefined) : undefined;
  try {
    const layout = url ? installOutbox(db, `write-${seconds}`) : [];
    if (pool) await migrateShared(pool, layout, SCHEMA_VERSION);
    const echo = replica ? createEcho(db, replica, layout) : undefined;
    const writer = createWriter(db);
    const t0 = Math.floor(Date.now() / 1_000) * 1_000;
    const started = performance.now();
    for (let s = 0; s < seconds; s += 1) {
      const batch = emptyBatch();
      const at = t0 + s * 1_000;
      for (let i = 0; i < workloads; i += 1) {
        const uid = `w-${i}`;
        if (s === 0) batch.workloads.set(uid, { kind: 'deployments.apps', namespace: `ns-${i % 50}`, name: `app-${i}`, uid, at });
        const ready = 3 - ((s + i) % 7 === 0 ? 1 : 0);
        batch.samples.push({ uid, at, values: { desired: 3, current: 3, ready, available: ready, updated: 3, unavailable: 3 - ready, generation: 1, observedGeneration: 1, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable' } });
      }
      writer.write(batch, null);
      if (pool && replica && echo) {
        // As the shared store's sync: the replica takes the flush from the journal, the pull the rest.
        echo.apply();
        const own = new Map<string, number[]>();
        await drain(db, pool, 'write', layout, own);
        await pullOnce(replica, pool, 'write', own);
      }
    }
    return (workloads * seconds) / ((performance.now() - started) / 1_000);
  } finally {
    db.close();
    replica?.close();
    await pool?.end();
    await rm(dir, { recursive: true, force: true });
  }
}

export interface SharedResults {
  history_write_samples_per_s_sqlite: number;
  history_write_samples_per_s_postgres: number;
  history_postgres_copy_24h_1k_workloads_s: number;
  history_postgres_pull_24h_1k_workloads_s: number;
  timeline_query_24h_1k_workloads_postgres_ms: number;
}

/**
 * Runs the PostgreSQL measurements on `fixture` (its file holds the day); `seriesMedian` runs the
 * timeline query as the SQLite side did and returns its median.
 */
export async function measureShared(fixture: HistoryFixture, workloads: number, log: (message: string) => void, seriesMedian: (store: HistoryStore) => number): Promise<SharedResults> {
  const server = await startTestPostgres();
  const appDir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-app-'));
  try {
    const sqliteWrite = await writeThroughput(workloads, WRITE_SECONDS);
    const postgresWrite = await writeThroughput(workloads, WRITE_SECONDS, server.url);
    log(`write: ${workloads} workloads x ${WRITE_SECONDS} one-second flushes; SQLite ${Math.round(sqliteWrite)} samples/s, PostgreSQL (journal, copy, read back) ${Math.round(postgresWrite)} samples/s`);

    const location = parseStoreLocation(server.url);
    if (location.kind !== 'postgres') throw new Error('the test server URL is not a postgres:// one');
    const journal = new DatabaseSync(fixture.file);
    const pool = createPool(server.url, () => undefined);
    let copyS: number;
    try {
      const layout = installOutbox(journal, location.target);
      await migrateShared(pool, layout, SCHEMA_VERSION);
      const started = performance.now();
      const rows = await drain(journal, pool, 'bench', layout);
      copyS = (performance.now() - started) / 1_000;
      const { rows: size } = await pool.query<{ bytes: number }>('SELECT pg_database_size(current_database())::bigint AS bytes');
      log(`copy: ${rows} rows of the day to PostgreSQL in ${round(copyS)} s (${Math.round(rows / copyS)} rows/s); database ${Math.round((size[0]?.bytes ?? 0) / 1024 ** 2)} MiB`);
    } finally {
      journal.close();
      await pool.end();
    }

    const store = openHistoryStore({
      store: server.url,
      syncIntervalMs: 2 ** 30,
      file: path.join(appDir, 'history', 'bench.sqlite'),
      context: 'bench',
      cache: new ObjectCache(),
      record: false,
      now: () => fixture.to,
      log,
      limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 4 }),
      onStatus: () => {},
    });
    try {
      const started = performance.now();
      await store.flush();
      const pullS = (performance.now() - started) / 1_000;
      if (store.status().message) throw new Error(store.status().message);
      log(`pull: an app's first read of the day from PostgreSQL ${round(pullS)} s`);
      const queryMs = seriesMedian(store);
      return {
        history_write_samples_per_s_sqlite: Math.round(sqliteWrite),
        history_write_samples_per_s_postgres: Math.round(postgresWrite),
        history_postgres_copy_24h_1k_workloads_s: round(copyS),
        history_postgres_pull_24h_1k_workloads_s: round(pullS),
        timeline_query_24h_1k_workloads_postgres_ms: queryMs,
      };
    } finally {
      store.close();
    }
  } finally {
    await server.dispose();
    await rm(appDir, { recursive: true, force: true });
  }
}
