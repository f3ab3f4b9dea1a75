/**
 * The backfill's rows written by a worker thread (backfill-offload.ts, backfill-worker.ts):
 * over an aged simulated cluster's objects it writes exactly the rows the engine's thread
 * writes, hands SQLite's write lock to the recorder's flush, falls back to the engine's thread
 * when the worker cannot run, and a store closed in the middle leaves the file free.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBackfillRunner, type BackfillRunner } from '../../../../electron/engine/history/backfill-offload.ts';
import { runBackfill } from '../../../../electron/engine/history/backfill-run.ts';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { HANDOVER_ROWS } from '../../../../electron/engine/history/write-turns.ts';
import { installOutbox } from '../../../../electron/engine/history/postgres/outbox.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { seedHistory } from '../../../../electron/engine/simcluster/scenarios/aging.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { DatabaseSync } from 'node:sqlite';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { KindKey, SlimObject } from '../../../../shared/cluster.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { until } from '../../../helpers/until.ts';

const NOW = Date.UTC(2026, 10, 28, 0, 0, 0);
const KEEP_AFTER = NOW - 14 * 86_400_000;
const SOURCES = [
  { kind: 'deployments.apps', objectKind: 'Deployment', apiVersion: 'apps/v1' },
  { kind: 'replicasets.apps', objectKind: 'ReplicaSet', apiVersion: 'apps/v1' },
  { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' },
  { kind: 'jobs.batch', objectKind: 'Job', apiVersion: 'batch/v1' },
  { kind: 'statefulsets.apps', objectKind: 'StatefulSet', apiVersion: 'apps/v1' },
  { kind: 'controllerrevisions.apps', objectKind: 'ControllerRevision', apiVersion: 'apps/v1' },
  { kind: 'events', objectKind: 'Event', apiVersion: 'v1' },
];

/** An aged cluster's objects as the informers cache them (40 minutes old: Events still kept), in `namespaces` namespaces. */
function agedObjects(namespaces = 1): SlimObject[] {
  const store = new ObjectStore({ now: () => NOW });
  const names = Array.from({ length: namespaces }, (_, i) => (i === 0 ? 'aged' : `aged-${i}`));
  for (const namespace of names) seedHistory(store, { ageMs: 40 * 60_000, now: NOW, namespace, revisions: 3 });
  const objects: SlimObject[] = [];
  for (const source of SOURCES) {
    const type = typeById(source.kind);
    if (!type) throw new Error(`no ${source.kind}`);
    for (const namespace of names) {
      for (const raw of store.all(type, namespace)) {
        const object = slimObject(raw, source);
        keyOf.set(object, source.kind as KindKey);
        objects.push(object);
      }
    }
  }
  return objects;
}

const keyOf = new WeakMap<SlimObject, KindKey>();
/** Caches `object` under its kind key, with its JSON as an informer hands it (`json`). */
const put = (cache: ObjectCache, object: SlimObject, json = false) => cache.upsert(keyOf.get(object) as KindKey, object, json ? JSON.stringify(object) : undefined);

describe('the backfill in a worker thread', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  const open: Array<{ db: DatabaseSync; runner: BackfillRunner }> = [];
  beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
  afterEach(async () => {
    for (const { db, runner } of open.splice(0)) {
      runner.close();
      if (db.isOpen) db.close();
    }
    await cleanup();
  });

  /** A database and a runner following `cache` (a worker from `minObjects` cached objects). */
  function runnerFor(name: string, cache: ObjectCache, minObjects: number, extra: { workerUrl?: URL; logs?: string[] } = {}) {
    const { db, file } = openHistoryDb(path.join(dir, `${name}.sqlite`));
    const runner = createBackfillRunner({ db, file, cache, log: (m) => extra.logs?.push(m), cancelled: () => false, minObjects, ...(extra.workerUrl ? { workerUrl: extra.workerUrl } : {}) });
    open.push({ db, runner });
    return { db, runner };
  }
  const rows = (db: DatabaseSync) => db.prepare('SELECT * FROM inferred ORDER BY id').all();
  const both = async (runner: BackfillRunner) => [await runner.run('objects', KEEP_AFTER), await runner.run('events', KEEP_AFTER)];

  it('writes the same rows as the engine’s thread, and a second run adds none', async () => {
    const objects = agedObjects();
    expect(objects.filter((o) => o.kind === 'Event').length).toBeGreaterThan(20);
    const inThread = new ObjectCache();
    const inWorker = new ObjectCache();
    const a = runnerFor('thread', inThread, Infinity);
    const b = runnerFor('worker', inWorker, 10);
    for (const object of objects) {
      put(inThread, object);
      put(inWorker, object, true);
    }
    const [threadObjects, threadEvents] = await both(a.runner);
    const workerObjects = await b.runner.run('objects', KEEP_AFTER);
    expect(a.runner.usesWorker()).toBe(false);
    expect(b.runner.usesWorker()).toBe(true);
    const workerEvents = await b.runner.run('events', KEEP_AFTER);
    // Both parts written: the worker is gone.
    expect(b.runner.usesWorker()).toBe(false);
    expect(workerObjects).toMatchObject({ objects: objects.length, rows: threadObjects?.rows, added: threadObjects?.rows });
    expect(workerEvents).toMatchObject({ rows: threadEvents?.rows, added: threadEvents?.rows });
    expect(threadEvents?.rows).toBeGreaterThan(5);
    expect(rows(b.db)).toEqual(rows(a.db));
    // Connecting again over the same file: the same ids, nothing new.
    b.runner.close();
    const reconnect = new ObjectCache();
    const c = runnerFor('worker', reconnect, 10);
    for (const object of objects) put(reconnect, object);
    const [objectsAgain, eventsAgain] = await both(c.runner);
    expect([objectsAgain?.added, eventsAgain?.added]).toEqual([0, 0]);
    expect([objectsAgain?.rows, eventsAgain?.rows]).toEqual([threadObjects?.rows, threadEvents?.rows]);
  });

  it('writes on the engine’s thread below BACKFILL_WORKER_MIN_OBJECTS cached objects', async () => {
    const objects = agedObjects();
    const cache = new ObjectCache();
    const { runner } = runnerFor('small', cache, objects.length + 1);
    for (const object of objects) put(cache, object);
    expect((await runner.run('objects', KEEP_AFTER)).rows).toBeGreaterThan(0);
    expect(runner.usesWorker()).toBe(false);
  });

  it('notes its rows in the shared store’s outbox, as the engine’s connection does (the triggers are the file’s)', async () => {
    const objects = agedObjects();
    const cache = new ObjectCache();
    const { db, runner } = runnerFor('shared', cache, 10);
    installOutbox(db, 'postgres://recorder@db.example/history');
    db.exec('DELETE FROM shared_outbox');
    for (const object of objects) put(cache, object);
    await both(runner);
    const inferred = (db.prepare('SELECT count(*) AS n FROM inferred').get() as { n: number }).n;
    expect(inferred).toBeGreaterThan(20);
    expect((db.prepare("SELECT count(*) AS n FROM shared_outbox WHERE tbl = 'inferred'").get() as { n: number }).n).toBe(inferred);
  });

  it('hands the write lock over within HANDOVER_ROWS rows when the engine wants it, and writes the same rows', async () => {
    const objects = agedObjects(10);
    const { db, file } = openHistoryDb(path.join(dir, 'handover.sqlite'));
    const engine = new DatabaseSync(file);
    engine.exec('PRAGMA busy_timeout = 0');
    let turns = 0;
    const handOver = {
      wanted: () => true,
      // Here the worker holds no transaction: the engine's begins at once ("database is locked" otherwise).
      wait: () => {
        engine.exec('BEGIN IMMEDIATE');
        engine.exec('COMMIT');
        turns += 1;
      },
    };
    const kinds = objects.map((object) => keyOf.get(object) as KindKey);
    const result = await runBackfill({ db, objects, kinds, now: Date.now, keepAfter: KEEP_AFTER, handOver });
    engine.close();
    expect(result.rows).toBeGreaterThan(3 * HANDOVER_ROWS);
    // One turn before each transaction, and one every HANDOVER_ROWS rows within it.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(result.rows / HANDOVER_ROWS));
    const written = rows(db);
    db.exec('DELETE FROM inferred');
    await runBackfill({ db, objects, kinds, now: Date.now, keepAfter: KEEP_AFTER });
    expect(rows(db)).toEqual(written);
    db.close();
  });

  it('runs on the engine’s thread when the worker cannot start, with the same rows', async () => {
    const objects = agedObjects();
    const cache = new ObjectCache();
    const logs: string[] = [];
    const { db, runner } = runnerFor('broken', cache, 10, { workerUrl: new URL('./no-such-backfill-worker.ts', import.meta.url), logs });
    for (const object of objects) put(cache, object);
    const [first, second] = await both(runner);
    expect(logs).toEqual([expect.stringMatching(/the backfill writes on the engine thread: .*no-such-backfill-worker/)]);
    expect(runner.usesWorker()).toBe(false);
    expect((first?.rows ?? 0) + (second?.rows ?? 0)).toBe(rows(db).length);
    const inThread = new ObjectCache();
    const reference = runnerFor('reference', inThread, Infinity);
    for (const object of objects) put(inThread, object);
    await both(reference.runner);
    expect(rows(db)).toEqual(rows(reference.db));
  });

  for (const when of ['before the worker opened the file', 'once the worker has written']) {
    it(`closed ${when}, it returns with no other connection left: the file can be written at once`, async () => {
      const objects = agedObjects();
      const cache = new ObjectCache();
      const { db, runner } = runnerFor('closed', cache, 10);
      for (const object of objects) put(cache, object);
      const part = runner.run('objects', KEEP_AFTER);
      const count = () => (db.prepare('SELECT count(*) AS n FROM inferred').get() as { n: number }).n;
      if (when !== 'before the worker opened the file') await until(() => (count() > 0 ? true : undefined), 'the worker’s first rows');
      runner.close();
      await part;
      db.exec('PRAGMA busy_timeout = 0');
      // No connection holds a lock: this fails with "database is locked" at once otherwise.
      db.exec('BEGIN EXCLUSIVE');
      db.exec('COMMIT');
      // The last connection to close checkpoints and removes the WAL file: none was left open.
      db.close();
      expect(existsSync(`${path.join(dir, 'closed.sqlite')}-wal`)).toBe(false);
    });
  }
});
