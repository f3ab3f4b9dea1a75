import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryKind } from '../../../../shared/contracts/history.ts';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { createEpisodeQueries } from '../../../../electron/engine/history/episode-query.ts';
import { reasonsOf } from '../../../../electron/engine/history/reason-bits.ts';
import { appendSample, blockBytes, EMPTY_VALUES, newBlock, type SampleValues } from '../../../../electron/engine/history/sample-codec.ts';
import { MIGRATIONS, SCHEMA_VERSION } from '../../../../electron/engine/history/schema.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
const SECOND = 1_000;
/** The old build's bit for "not rolled out or gave up" (v2 had no `stalled`). */
const OLD_PROGRESSING = 4;
const OLD_READY = 1;
const OLD_GENERATION = 2;

const deployment = (values: Partial<SampleValues>): SampleValues => ({ ...EMPTY_VALUES, desired: 4, current: 4, ready: 4, available: 4, updated: 4, unavailable: 0, generation: 2, observedGeneration: 2, availableCondition: 'True', progressingCondition: 'True', progressingReason: 'NewReplicaSetAvailable', ...values });

interface OldWorkload {
  uid: string;
  kind: HistoryKind;
  samples: Array<[at: number, values: SampleValues]>;
  /** [start, end, old reason bits] */
  episodes: Array<[number, number | null, number]>;
}

/** A history database as the v2 build wrote it: samples in blocks, episodes with the old bits. */
function writeV2(file: string, workloads: readonly OldWorkload[]): void {
  const db = new DatabaseSync(file);
  db.exec(`${MIGRATIONS[0] as string}; ${MIGRATIONS[1] as string}; PRAGMA user_version = 2`);
  let episodeId = 1;
  workloads.forEach((workload, index) => {
    const id = index + 1;
    db.prepare('INSERT INTO workloads (id, uid, kind, namespace, name, first_at) VALUES (?, ?, ?, ?, ?, ?)').run(id, workload.uid, workload.kind, 'shop', workload.uid, T0);
    if (workload.samples.length > 0) {
      const first = workload.samples[0]![0];
      const block = newBlock(first);
      for (const [at, values] of workload.samples) appendSample(block, at, values);
      db.prepare('INSERT INTO sample_blocks (workload_id, start_at, end_at, count, data) VALUES (?, ?, ?, ?, ?)').run(id, first, block.last, block.count, blockBytes(block));
    }
    for (const [start, end, bits] of workload.episodes) {
      db.prepare('INSERT INTO episodes (id, workload_id, start_at, end_at, peak_gap, reasons) VALUES (?, ?, ?, ?, ?, ?)').run(episodeId++, id, start, end, 2, bits);
    }
  });
  db.close();
}

function reasonsByWorkload(file: string): Record<string, string[][]> {
  const { db } = openHistoryDb(file);
  try {
    const rows = db.prepare('SELECT w.uid, e.reasons FROM episodes e JOIN workloads w ON w.id = e.workload_id ORDER BY e.id').all() as Array<{ uid: string; reasons: number }>;
    const out: Record<string, string[][]> = {};
    for (const row of rows) (out[row.uid] ??= []).push(reasonsOf(row.reasons).sort());
    expect(Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)).toBe(SCHEMA_VERSION);
    return out;
  } finally {
    db.close();
  }
}

describe('schema v3: history recorded before "stalled" existed', () => {
  it('re-derives a scale-up as rolling out and a passed progress deadline as stalled, from the stored samples', () => {
    const file = path.join(dir, 'old.sqlite');
    writeV2(file, [
      {
        // 2 -> 4: the old recorder set bit 4 because updated lagged desired; nothing gave up.
        uid: 'search',
        kind: 'deployments.apps',
        samples: [
          [T0, deployment({ desired: 2, current: 2, ready: 2, available: 2, updated: 2 })],
          [T0 + 10 * SECOND, deployment({ generation: 3, observedGeneration: 2, desired: 4, current: 2, ready: 2, available: 2, updated: 2 })],
          [T0 + 11 * SECOND, deployment({ generation: 3, observedGeneration: 3, ready: 2, available: 2, updated: 4, progressingReason: 'ReplicaSetUpdated' })],
          [T0 + 20 * SECOND, deployment({ generation: 3, observedGeneration: 3 })],
        ],
        episodes: [[T0 + 10 * SECOND, T0 + 20 * SECOND, OLD_READY | OLD_GENERATION | OLD_PROGRESSING]],
      },
      {
        // A bad image until the deadline passed: rolling out first, then the controller gave up.
        uid: 'payments-api',
        kind: 'deployments.apps',
        samples: [
          [T0, deployment({ desired: 3, current: 3, ready: 3, available: 3, updated: 3 })],
          [T0 + 5 * SECOND, deployment({ desired: 3, current: 4, ready: 3, available: 3, updated: 1, generation: 3, observedGeneration: 3, progressingReason: 'ReplicaSetUpdated' })],
          [T0 + 600 * SECOND, deployment({ desired: 3, current: 4, ready: 3, available: 3, updated: 1, generation: 3, observedGeneration: 3, progressingCondition: 'False', progressingReason: 'ProgressDeadlineExceeded' })],
        ],
        episodes: [[T0 + 5 * SECOND, null, OLD_PROGRESSING]],
      },
      {
        uid: 'report',
        kind: 'jobs.batch',
        samples: [[T0 + 30 * SECOND, { ...EMPTY_VALUES, desired: 1, current: 0, ready: 0, available: 0, unavailable: 7, generation: 1, progressingCondition: 'False', progressingReason: 'BackoffLimitExceeded' }]],
        episodes: [[T0 + 30 * SECOND, null, OLD_PROGRESSING]],
      },
    ]);
    expect(reasonsByWorkload(file)).toEqual({
      search: [['generation', 'progressing', 'ready']],
      'payments-api': [['progressing', 'stalled']],
      report: [['stalled']],
    });
  });

  it('keeps "rolling out" for an episode whose samples retention removed: it never guesses a failure', () => {
    const file = path.join(dir, 'pruned.sqlite');
    writeV2(file, [{ uid: 'catalog', kind: 'deployments.apps', samples: [], episodes: [[T0, T0 + 60 * SECOND, OLD_READY | OLD_PROGRESSING]] }]);
    expect(reasonsByWorkload(file)).toEqual({ catalog: [['progressing', 'ready']] });
  });

  it('leaves episodes without the old bit alone', () => {
    const file = path.join(dir, 'plain.sqlite');
    writeV2(file, [{ uid: 'cart', kind: 'deployments.apps', samples: [[T0, deployment({ ready: 3 })]], episodes: [[T0, T0 + SECOND, OLD_READY]] }]);
    expect(reasonsByWorkload(file)).toEqual({ cart: [['ready']] });
  });

  it('answers the migrated reasons to `history:episodes`, so old episodes read right on every screen', () => {
    const file = path.join(dir, 'read.sqlite');
    writeV2(file, [
      {
        uid: 'search',
        kind: 'deployments.apps',
        samples: [
          [T0, deployment({ desired: 4, ready: 2, available: 2, updated: 2, progressingReason: 'ReplicaSetUpdated' })],
          [T0 + 20 * SECOND, deployment({})],
        ],
        episodes: [[T0, T0 + 20 * SECOND, OLD_READY | OLD_PROGRESSING]],
      },
    ]);
    const { db } = openHistoryDb(file);
    const queries = createEpisodeQueries(db, { now: () => T0 + 60 * SECOND });
    try {
      const list = queries.episodes({ from: T0 - 60 * SECOND, to: T0 + 60 * SECOND });
      expect(list.episodes.map((episode) => episode.reasons.sort())).toEqual([['progressing', 'ready']]);
    } finally {
      db.close();
    }
  });
});
