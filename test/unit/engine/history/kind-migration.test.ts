import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { openStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

const T0 = Date.UTC(2025, 4, 3, 12, 0, 0);

/**
 * A database as a build before kind keys wrote it (schema v3, every kind by the enum's name): a
 * Deployment, the ReplicaSet it runs and a pod, an episode of each workload, and an Event about
 * the pod.
 */
function oldDatabase(file: string): void {
  const db = new DatabaseSync(file);
  for (const migration of MIGRATIONS.slice(0, 2)) db.exec(migration as string);
  db.exec(`
    INSERT INTO meta (key, value) VALUES ('since', '${T0}');
    INSERT INTO workloads (id, uid, kind, namespace, name, first_at) VALUES
      (1, 'd-web', 'Deployment', 'shop', 'web', ${T0}),
      (2, 'rs-web', 'ReplicaSet', 'shop', 'web-7d4b', ${T0}),
      (3, 'j-backup', 'Job', 'ops', 'backup', ${T0});
    INSERT INTO owners (child_uid, owner_uid, child_kind, first_at) VALUES
      ('rs-web', 'd-web', 'ReplicaSet', ${T0}),
      ('p-web', 'rs-web', 'Pod', ${T0});
    INSERT INTO episodes (id, workload_id, start_at, end_at, peak_gap, reasons) VALUES
      (1, 1, ${T0 + 1_000}, ${T0 + 9_000}, 1, 1),
      (2, 2, ${T0 + 1_000}, ${T0 + 9_000}, 1, 1),
      (3, 3, ${T0 + 2_000}, NULL, 1, 1);
    INSERT INTO events (uid, first_at, last_at, type, reason, message, count, source, object_kind, object_namespace, object_name, object_uid) VALUES
      ('e1', ${T0}, ${T0}, 'Warning', 'BackOff', 'Back-off restarting failed container', 1, 'kubelet', 'Pod', 'shop', 'web-7d4b-x', 'p-web');
    PRAGMA user_version = 3;
  `);
  db.close();
}

function open(file: string) {
  return openStore({
    file,
    context: 'kind-dev',
    cache: new ObjectCache(),
    record: false,
    now: () => T0 + 60_000,
    log: () => undefined,
    limits: () => ({ maxBytes: 1024 ** 3, maxAgeMs: 30 * 86_400_000 }),
    onStatus: () => undefined,
  });
}

describe('history schema v4: kinds as kind keys', () => {
  it('rewrites the stored kinds of an older database to kind keys, leaving Event objects as they were', () => {
    const file = path.join(dir, 'old.sqlite');
    oldDatabase(file);
    const store = open(file);
    try {
      const db = new DatabaseSync(file, { readOnly: true });
      expect(Object.values(db.prepare('PRAGMA user_version').get() as object)[0]).toBe(SCHEMA_VERSION);
      expect(db.prepare('SELECT uid, kind FROM workloads ORDER BY id').all()).toEqual([
        { uid: 'd-web', kind: 'deployments.apps' },
        { uid: 'rs-web', kind: 'replicasets.apps' },
        { uid: 'j-backup', kind: 'jobs.batch' },
      ]);
      expect(db.prepare('SELECT child_uid, child_kind FROM owners ORDER BY child_uid').all()).toEqual([
        { child_uid: 'p-web', child_kind: 'pods' },
        { child_uid: 'rs-web', child_kind: 'replicasets.apps' },
      ]);
      // An Event's involvedObject kind is the Kubernetes kind the Event names, not a key.
      expect(db.prepare('SELECT object_kind FROM events').all()).toEqual([{ object_kind: 'Pod' }]);
      db.close();
    } finally {
      store.close();
    }
  });

  it('reads an older database’s history as before: episodes by kind key, a ReplicaSet under its Deployment', () => {
    const file = path.join(dir, 'old.sqlite');
    oldDatabase(file);
    const store = open(file);
    try {
      const all = store.episodes.episodes({ from: T0, to: T0 + 60_000 }).episodes;
      expect(all.map((e) => [e.workload.kind, e.workload.name, e.controller?.kind ?? null])).toEqual(
        expect.arrayContaining([
          ['deployments.apps', 'web', null],
          ['replicasets.apps', 'web-7d4b', 'deployments.apps'],
          ['jobs.batch', 'backup', null],
        ]),
      );
      const jobs = store.episodes.episodes({ from: T0, to: T0 + 60_000, kind: 'jobs.batch' }).episodes;
      expect(jobs.map((e) => e.workload.name)).toEqual(['backup']);
    } finally {
      store.close();
    }
  });
});
