import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyFile, openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

const pragma = (db: DatabaseSync, name: string): unknown => Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

describe('the history database file', () => {
  it('is one file per context, named safely and distinctly', () => {
    const a = historyFile('/data', 'arn:aws:eks:eu-west-1:123:cluster/prod');
    const b = historyFile('/data', 'arn:aws:eks:eu-west-1:123:cluster/prod?');
    expect(path.dirname(a)).toBe(path.join('/data', 'history'));
    expect(path.basename(a)).toMatch(/^arn_aws_eks_eu-west-1_123_cluster_prod-[0-9a-f]{8}\.sqlite$/);
    expect(a).not.toBe(b);
    expect(historyFile('/data', '../../etc/passwd')).toMatch(/history\/\.\._\.\._etc_passwd-[0-9a-f]{8}\.sqlite$/);
  });

  it('opens in WAL mode with synchronous=NORMAL, incremental vacuum and the current schema', () => {
    const { db } = openHistoryDb(path.join(dir, 'h', 'a.sqlite'));
    try {
      expect(pragma(db, 'journal_mode')).toBe('wal');
      expect(pragma(db, 'synchronous')).toBe(1);
      expect(pragma(db, 'auto_vacuum')).toBe(2);
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
    }
  });

  it('reopens an existing database without migrating it again', () => {
    const file = path.join(dir, 'a.sqlite');
    const first = openHistoryDb(file).db;
    first.prepare("INSERT INTO meta (key, value) VALUES ('since', '5')").run();
    first.close();
    const { db } = openHistoryDb(file);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'since'").get()).toEqual({ value: '5' });
    db.close();
  });

  it('drops the inferred rows\' index by fact and start at version 10, the timeline still seeking by last moment', () => {
    const file = path.join(dir, 'v9.sqlite');
    const old = new DatabaseSync(file);
    for (const migration of MIGRATIONS.slice(0, 9)) {
      if (typeof migration === 'string') old.exec(migration);
      else migration(old);
    }
    old.exec('PRAGMA user_version = 9');
    old.prepare("INSERT INTO inferred (id, object_uid, workload_uid, kind, namespace, name, fact, at, end_at, detail) VALUES ('r1', 'rs', 'web', 'apps/ReplicaSet', 'shop', 'web-1', 'rollout', 10, 20, '')").run();
    const indexes = (db: DatabaseSync) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'inferred' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name);
    expect(indexes(old)).toEqual(['inferred_at', 'inferred_last', 'inferred_workload']);
    old.close();
    const { db } = openHistoryDb(file);
    try {
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(indexes(db)).toEqual(['inferred_last', 'inferred_workload']);
      expect(db.prepare('SELECT id FROM inferred').all()).toEqual([{ id: 'r1' }]);
      const plan = db.prepare("EXPLAIN QUERY PLAN SELECT id FROM inferred WHERE fact IN ('rollout', 'event') AND coalesce(end_at, at) >= 5 AND at <= 30").all() as Array<{ detail: string }>;
      expect(plan.map((row) => row.detail).join(' ')).toContain('USING INDEX inferred_last');
    } finally {
      db.close();
    }
  });

  it('upgrades a database of an older schema in place, keeping its rows', () => {
    const file = path.join(dir, 'old.sqlite');
    const old = new DatabaseSync(file);
    old.exec(`${MIGRATIONS[0]}; PRAGMA user_version = 1`);
    old.prepare("INSERT INTO delta_batches (first_at, last_at, count, data) VALUES (1, 2, 3, x'00')").run();
    old.close();
    const { db } = openHistoryDb(file);
    try {
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT count, headers FROM delta_batches').all()).toEqual([{ count: 3, headers: null }]);
    } finally {
      db.close();
    }
  });

  it('refuses a database from a newer build instead of touching it', () => {
    const file = path.join(dir, 'new.sqlite');
    const newer = new DatabaseSync(file);
    newer.exec(`CREATE TABLE future (x); PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    expect(() => openHistoryDb(file)).toThrow(/newer than this build understands/);
    const check = new DatabaseSync(file);
    expect(pragma(check, 'user_version')).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('moves a file that is not a database aside and starts afresh, saying so', () => {
    const folder = path.join(dir, 'history');
    mkdirSync(folder);
    const file = path.join(folder, 'broken.sqlite');
    writeFileSync(file, 'this is not an SQLite database, just some text that happens to be here'.repeat(100));
    const { db, recovered } = openHistoryDb(file, () => 1234);
    try {
      expect(recovered).toMatch(/damaged.*moved to .*broken\.sqlite\.damaged-1234/);
      expect(existsSync(`${file}.damaged-1234`)).toBe(true);
      expect(pragma(db, 'user_version')).toBe(SCHEMA_VERSION);
      expect(readdirSync(folder).sort()).toEqual(['broken.sqlite', 'broken.sqlite-shm', 'broken.sqlite-wal', 'broken.sqlite.damaged-1234']);
    } finally {
      db.close();
    }
  });
});
