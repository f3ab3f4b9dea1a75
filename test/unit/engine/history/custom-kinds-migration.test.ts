/**
 * Schema v5 (custom resources recorded): a database written by a v4 build opens with the new
 * columns empty, reads its history as before, and records custom resources from then on, its
 * old sample blocks read and appended to unchanged.
 */
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { openStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { certificateIssuing, certificateReady } from '../../shared/status-rules/fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment, manualClock } from './fixtures.ts';
import { MANUAL_TIMING } from './harness.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

const V5 = 5;

function open(file: string, cache: ObjectCache, clock: ReturnType<typeof manualClock>) {
  return openStore({
    file,
    context: 'test',
    cache,
    record: true,
    now: clock.now,
    log: () => undefined,
    limits: () => ({ maxBytes: 1024 ** 3, maxAgeMs: 30 * 86_400_000 }),
    onStatus: () => undefined,
    timing: MANUAL_TIMING,
  });
}

/** Brings a database from the latest schema back to what a v4 build wrote (SQLite drops a column in place). */
function downgradeToV4(file: string): void {
  const db = new DatabaseSync(file);
  db.exec(`
    ALTER TABLE workloads DROP COLUMN kind_name;
    ALTER TABLE episodes DROP COLUMN state;
    ALTER TABLE episodes DROP COLUMN state_reason;
    ALTER TABLE episodes DROP COLUMN state_message;
    ALTER TABLE episodes DROP COLUMN causes;
    DROP TABLE sessions;
    DROP TABLE inferred;
    PRAGMA user_version = 4;
  `);
  db.close();
}

const columns = (db: DatabaseSync, table: string): string[] => (db.prepare(`PRAGMA table_info(${table})`).all() as Array<{ name: string }>).map((c) => c.name);

describe('history schema v5: custom resources', () => {
  it('is the latest schema, added columns only', () => {
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(V5);
    expect(String(MIGRATIONS[V5 - 1])).toMatch(/ALTER TABLE workloads ADD COLUMN kind_name TEXT/);
  });

  it('upgrades a v4 database in place: old workloads and episodes read as before, custom resources recorded after', async () => {
    const file = historyFile(path.join(dir, 'data'), 'test');
    const clock = manualClock();
    const cache = new ObjectCache();
    const t0 = clock.now();
    let store = open(file, cache, clock);
    upsertBuiltin(cache, deployment('web', 'd1', { ready: 1 }));
    clock.advance(2_000);
    upsertBuiltin(cache, deployment('web', 'd1'));
    await store.flush();
    store.close();
    downgradeToV4(file);

    const cache2 = new ObjectCache();
    store = open(file, cache2, clock);
    try {
      const db = new DatabaseSync(file, { readOnly: true });
      expect(Object.values(db.prepare('PRAGMA user_version').get() as object)[0]).toBe(SCHEMA_VERSION);
      expect(columns(db, 'workloads')).toContain('kind_name');
      expect(columns(db, 'episodes')).toEqual(expect.arrayContaining(['state', 'state_reason', 'state_message']));
      db.close();

      const [old] = store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER }).episodes;
      expect(old).toEqual({ id: 1, workload: { kind: 'deployments.apps', namespace: 'shop', name: 'web', uid: 'd1' }, start: t0, end: t0 + 2_000, durationMs: 2_000, peakGap: 1, reasons: ['ready'], trigger: null });

      clock.advance(1_000);
      // The Deployment's old block is resumed and appended to by the new codec.
      upsertBuiltin(cache2, deployment('web', 'd1', { replicas: 3 }));
      const issuing = structuredClone(certificateIssuing) as SlimObject;
      cache2.upsert('certificates.cert-manager.io', issuing);
      clock.advance(1_000);
      const ready = structuredClone(certificateReady) as SlimObject;
      ready.metadata.resourceVersion = '88232';
      cache2.upsert('certificates.cert-manager.io', ready);
      await store.flush();

      const desiredPoints = store.series({ uid: 'd1', from: 0, to: Number.MAX_SAFE_INTEGER })?.series.find((s) => s.name === 'desired')?.points.map((p) => p[1]);
      expect(desiredPoints).toEqual([2, 2, 3]);
      const custom = store.episodes.episodes({ from: 0, to: Number.MAX_SAFE_INTEGER, kind: 'certificates.cert-manager.io' }).episodes;
      expect(custom).toHaveLength(1);
      expect(custom[0]).toMatchObject({ workload: { kindName: 'Certificate', name: 'web-tls' }, status: { state: 'progressing', reason: 'DoesNotExist' } });
    } finally {
      store.close();
    }
  });
});
