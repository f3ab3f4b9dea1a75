/**
 * The shared PostgreSQL store's own behaviour, on a real server this file starts: the
 * connection string, migrations under the advisory lock, many recorders in one database read by
 * an app that recorded none of it, and a database that is down or refuses the credentials.
 * (The history suite itself runs against it through the `history-postgres` project.)
 */
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { historyFile, openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../../../electron/engine/history/open-store.ts';
import { createPool, parseStoreLocation } from '../../../../electron/engine/history/postgres/connection.ts';
import { migrateShared, readLayout } from '../../../../electron/engine/history/postgres/layout.ts';
import { installOutbox } from '../../../../electron/engine/history/postgres/outbox.ts';
import { pullOnce, sharedContexts } from '../../../../electron/engine/history/postgres/pull.ts';
import { pushOnce } from '../../../../electron/engine/history/postgres/push.ts';
import { writeSince } from '../../../../electron/engine/history/retention.ts';
import { SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import type { HistoryStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment } from './fixtures.ts';
import { MANUAL_TIMING, storeHarness, type StoreHarness } from './harness.ts';

const postgres = postgresForFile('shared');
const cleanups: Array<() => Promise<void>> = [];
const stores: HistoryStore[] = [];

afterEach(async () => {
  for (const store of stores.splice(0)) store.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const freshDatabase = postgres.freshDatabase;

async function recorder(url: string, context: string): Promise<StoreHarness> {
  const temp = await withTempDir();
  cleanups.push(temp.cleanup);
  const h = storeHarness(temp.dir, { store: url, context });
  stores.push(h.store);
  return h;
}

/** An app on another machine: its own data folder, recording nothing, reading the context from the database. */
async function readerApp(url: string, context: string): Promise<HistoryStore> {
  const temp = await withTempDir();
  cleanups.push(temp.cleanup);
  const store = openHistoryStore({
    store: url,
    syncIntervalMs: 2 ** 30,
    file: historyFile(path.join(temp.dir, 'data'), context),
    context,
    cache: new ObjectCache(),
    record: false,
    now: Date.now,
    log: () => undefined,
    limits: () => ({ maxAgeMs: 3_650 * 86_400_000, maxBytes: 1024 ** 3 }),
    onStatus: () => undefined,
    timing: MANUAL_TIMING,
  });
  stores.push(store);
  await store.flush();
  return store;
}

const ALL = { from: 0, to: Number.MAX_SAFE_INTEGER };
const names = (store: HistoryStore) => store.episodes.episodes(ALL).episodes.map((e) => `${e.workload.namespace}/${e.workload.name}`);

describe('the history store setting', () => {
  it('takes sqlite (or nothing) and postgres URLs, and says what is wrong with anything else', () => {
    expect(parseStoreLocation(undefined)).toEqual({ kind: 'sqlite' });
    expect(parseStoreLocation(' sqlite ')).toEqual({ kind: 'sqlite' });
    expect(parseStoreLocation('postgresql://drift:secret@db.example:6543/history')).toMatchObject({ kind: 'postgres', target: 'drift@db.example:6543/history' });
    expect(() => parseStoreLocation('mysql://drift:secret@db/history')).toThrow(/must start with postgres:\/\/ or postgresql:\/\/, got "mysql:…"/);
    expect(() => parseStoreLocation('history.db')).toThrow(/must be "sqlite" or a connection string such as postgres:\/\/user:password@host:5432\/kubedrift, got "history.db"/);
    expect(() => parseStoreLocation('postgres:///history')).toThrow(/names no host/);
    expect(() => parseStoreLocation('postgres://drift:secret@/history')).toThrow(/got "postgres:\/\/drift:\*\*\*@\/history"/);
  });
});

/** The shared tables' layout as a history file of this build has it. */
async function historyLayout(): Promise<ReturnType<typeof readLayout>> {
  const temp = await withTempDir();
  cleanups.push(temp.cleanup);
  const local = openHistoryDb(path.join(temp.dir, 'layout.sqlite')).db;
  try {
    return readLayout(local);
  } finally {
    local.close();
  }
}

describe('migrations of the shared database', () => {
  it('run once, in turn, when recorders start together, under the advisory lock', async () => {
    const url = await freshDatabase();
    const layout = await historyLayout();
    const pools = Array.from({ length: 4 }, () => createPool(url, () => undefined));
    try {
      const found = await Promise.all(pools.map((pool) => migrateShared(pool, layout, SCHEMA_VERSION)));
      // One migrated (it found nothing); the others waited for its lock and found it done.
      expect(found.sort()).toEqual([0, SCHEMA_VERSION, SCHEMA_VERSION, SCHEMA_VERSION]);
      const { rows } = await pools[0]!.query<{ version: number }>('SELECT version FROM kd_schema');
      expect(rows).toEqual([{ version: SCHEMA_VERSION }]);
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
  });

  it('take no table lock on an up-to-date database: a recorder starting while another pushes does not wait for it (nor deadlock with it)', async () => {
    const url = await freshDatabase();
    const layout = await historyLayout();
    const pool = createPool(url, () => undefined);
    const pusher = new pg.Client({ connectionString: url });
    await pusher.connect();
    try {
      await migrateShared(pool, layout, SCHEMA_VERSION);
      // A push in progress: it holds the claims table (as push.ts renews its heartbeat) and the tombstones.
      await pusher.query('BEGIN');
      await pusher.query("INSERT INTO kd_writers (context, writer, lineage, label, claimed_at, heartbeat_at) VALUES ('ctx', 'w', 'l', 'a recorder', now(), now())");
      await pusher.query("INSERT INTO kd_deleted (context, tbl, key, rev) VALUES ('ctx', 'meta', 'k', 1)");
      const migrated = await Promise.race([migrateShared(pool, layout, SCHEMA_VERSION).then(() => 'migrated'), new Promise((resolve) => setTimeout(() => resolve('waiting for the push'), 3_000))]);
      expect(migrated).toBe('migrated');
    } finally {
      await pusher.query('ROLLBACK').catch(() => undefined);
      await pusher.end();
      await pool.end();
    }
  });

  it('refuse a database a newer build migrated, with the reason in the status', async () => {
    const url = await freshDatabase();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('CREATE TABLE kd_schema (id INTEGER PRIMARY KEY, version INTEGER NOT NULL, migrated_at TIMESTAMPTZ NOT NULL DEFAULT now())');
    await admin.query('INSERT INTO kd_schema (id, version) VALUES (1, $1)', [SCHEMA_VERSION + 5]);
    await admin.end();
    const h = await recorder(url, 'newer');
    await h.store.flush();
    expect(h.store.status().message).toMatch(new RegExp(`schema version ${SCHEMA_VERSION + 5}, newer than this build understands \\(${SCHEMA_VERSION}\\); update Kubedrift`));
    expect(h.store.status().state).toBe('recording');
  });
});

describe('one database, many recorders', () => {
  it('keeps each cluster apart, and an app that recorded none of them reads each one', async () => {
    const url = await freshDatabase();
    const prod = await recorder(url, 'prod');
    const staging = await recorder(url, 'staging');
    upsertBuiltin(prod.cache, deployment('web', 'w1', { ready: 0 }));
    upsertBuiltin(staging.cache, deployment('api', 'a1', { ready: 1 }, 'backend'));
    upsertBuiltin(staging.cache, deployment('web', 'w1', { ready: 0 }));
    prod.clock.advance(5_000);
    staging.clock.advance(7_000);
    await Promise.all([prod.store.flush(), staging.store.flush()]);

    const pool = createPool(url, () => undefined);
    expect(await sharedContexts(pool)).toEqual(['prod', 'staging']);
    await pool.end();
    const prodApp = await readerApp(url, 'prod');
    const stagingApp = await readerApp(url, 'staging');
    expect(names(prodApp)).toEqual(['shop/web']);
    expect(names(stagingApp).sort()).toEqual(['backend/api', 'shop/web']);
    // Same workload uid in two clusters: two histories, not one.
    expect(prodApp.series({ uid: 'w1', ...ALL })?.series.find((s) => s.name === 'ready')?.points[0]).toEqual([prod.clock.now() - 5_000, 0]);
    expect(stagingApp.episodes.episodes(ALL).episodes.find((e) => e.workload.name === 'web')?.start).toBe(staging.clock.now() - 7_000);
  });
});

describe('reading back', () => {
  it("leaves out the rows this app just pushed, and still reads another writer's rows between them", async () => {
    const url = await freshDatabase();
    const temp = await withTempDir();
    cleanups.push(temp.cleanup);
    const journal = openHistoryDb(path.join(temp.dir, 'journal.sqlite')).db;
    const replica = openHistoryDb(path.join(temp.dir, 'replica.sqlite')).db;
    const pool = createPool(url, () => undefined);
    try {
      const layout = installOutbox(journal, 'test');
      await migrateShared(pool, layout, SCHEMA_VERSION);
      writeSince(journal, 1_000);
      const first = await pushOnce(journal, pool, 'ctx', layout);
      // Another writer of the context, between this app's two pushes.
      await pool.query("INSERT INTO kd_meta (context, key, value, rev) VALUES ('ctx', 'other', 'theirs', nextval('kd_rev'))");
      writeSince(journal, 2_000);
      const second = await pushOnce(journal, pool, 'ctx', layout);
      const own = new Map([['meta', [...(first.revs.get('meta') ?? []), ...(second.revs.get('meta') ?? [])]]]);
      expect(own.get('meta')).toHaveLength(2);
      const pulled = await pullOnce(replica, pool, 'ctx', own);
      expect(pulled.rows).toBe(1);
      expect(replica.prepare('SELECT key, value FROM meta ORDER BY key').all()).toEqual([{ key: 'other', value: 'theirs' }]);
      // Nothing is read again next time: the mark is past this app's rows too.
      expect((await pullOnce(replica, pool, 'ctx')).rows).toBe(0);
    } finally {
      journal.close();
      replica.close();
      await pool.end();
    }
  });
});

describe('a shared store that does not answer', () => {
  it('says so, records locally while PostgreSQL is down from the start, and copies everything once it is back', async () => {
    const url = await freshDatabase();
    await postgres.server().stop();
    let h: StoreHarness;
    try {
      h = await recorder(url, 'down');
      upsertBuiltin(h.cache, deployment('web', 'w', { ready: 0 }));
      h.clock.advance(3_000);
      await h.store.flush();
      const status = h.store.status();
      expect(status.state).toBe('recording');
      expect(status.message).toMatch(/PostgreSQL at kubedrift@127\.0\.0\.1:\d+\/shared_[\d_]+ is unreachable/);
      expect(status.message).toMatch(/Recording goes on into this computer's history file \(\d+ changes waiting\) and is copied to the shared store when it answers/);
      expect(status.message).not.toContain('drift-test');
      expect(h.logs.filter((line) => /cannot be used/.test(line))).toHaveLength(1);
      // This recorder's own timeline keeps moving meanwhile.
      expect(names(h.store)).toEqual(['shop/web']);
    } finally {
      await postgres.server().start();
    }
    upsertBuiltin(h.cache, deployment('web', 'w'));
    h.clock.advance(2_000);
    await h.store.flush();
    expect(h.store.status().message).toBeUndefined();
    expect(h.logs.some((line) => /answers again; \d+ changes copied/.test(line))).toBe(true);
    const app = await readerApp(url, 'down');
    expect(app.episodes.episodes(ALL).episodes).toMatchObject([{ workload: { name: 'web' }, end: h.clock.now() - 2_000 }]);
  });

  it('keeps recording when PostgreSQL stops mid-recording, and the rows written meanwhile arrive after it restarts', async () => {
    const url = await freshDatabase();
    const h = await recorder(url, 'flaky');
    upsertBuiltin(h.cache, deployment('web', 'w'));
    h.clock.advance(1_000);
    await h.store.flush();
    expect(h.store.status().message).toBeUndefined();
    await postgres.server().stop();
    try {
      upsertBuiltin(h.cache, deployment('api', 'a', { ready: 0 }));
      h.clock.advance(4_000);
      await h.store.flush();
      expect(h.store.status().message).toMatch(/unreachable/);
    } finally {
      await postgres.server().start();
    }
    const before = await readerApp(url, 'flaky');
    expect(names(before)).toEqual([]);
    await h.store.flush();
    const after = await readerApp(url, 'flaky');
    expect(names(after)).toEqual(['shop/api']);
    expect(after.series({ uid: 'a', ...ALL })?.series.find((s) => s.name === 'ready')?.points[0]).toEqual([h.clock.now() - 4_000, 0]);
  });

  it('names refused credentials, without repeating the password', async () => {
    await freshDatabase();
    const h = await recorder(postgres.server().wrongPasswordUrl, 'denied');
    upsertBuiltin(h.cache, deployment('web', 'w'));
    await h.store.flush();
    expect(h.store.status().message).toMatch(/PostgreSQL at kubedrift@127\.0\.0\.1:\d+\/postgres refused the credentials \(password authentication failed for user "kubedrift"\)/);
    expect(h.store.status().message).not.toContain('not-the-password');
    expect(h.statuses.at(-1)?.message).toBe(h.store.status().message);
  });
});
