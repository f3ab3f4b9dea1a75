/**
 * A session's view of earlier ones (session-load.ts): each workload's last recorded sample. On a
 * file without samples the first question about a workload needs no query; a workload asked
 * about again is read, so what this session wrote since is found.
 */
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { emptyBatch } from '../../../../electron/engine/history/records.ts';
import { EMPTY_VALUES, type SampleValues } from '../../../../electron/engine/history/sample-codec.ts';
import { loadRecorderHistory } from '../../../../electron/engine/history/session-load.ts';
import { createWriter } from '../../../../electron/engine/history/writer.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const AT = Date.parse('2026-11-28T06:00:00Z');
const VALUES: SampleValues = { ...EMPTY_VALUES, desired: 3, current: 3, ready: 2, available: 2, updated: 3, unavailable: 1, generation: 4, observedGeneration: 4 };

/** Writes one sample of Deployment `uid` at `at`, as a flush does. */
function writeSample(db: DatabaseSync, uid: string, at: number): void {
  const batch = emptyBatch();
  batch.workloads.set(uid, { kind: 'deployments.apps', namespace: 'shop', name: `web-${uid}`, uid, at });
  batch.samples.push({ uid, at, values: VALUES });
  createWriter(db).write(batch, null);
}

describe('loadRecorderHistory: previous samples', () => {
  let db: DatabaseSync;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const tmp = await withTempDir();
    cleanup = tmp.cleanup;
    db = openHistoryDb(path.join(tmp.dir, 'h.sqlite')).db;
  });

  afterEach(async () => {
    db.close();
    await cleanup();
  });

  it('answers a first question on a file without samples with none, and reads what this session wrote when asked again', () => {
    const history = loadRecorderHistory(db);
    expect(history.previous('d-1')).toBeUndefined();
    writeSample(db, 'd-1', AT);
    expect(history.previous('d-1')).toEqual({ at: AT, values: VALUES });
    expect(history.previous('d-2')).toBeUndefined();
  });

  it('reads the last sample of a workload at the first question when the file holds samples', () => {
    writeSample(db, 'd-1', AT);
    writeSample(db, 'd-1', AT + 60_000);
    const history = loadRecorderHistory(db);
    expect(history.previous('d-1')).toEqual({ at: AT + 60_000, values: VALUES });
    expect(history.previous('d-2')).toBeUndefined();
  });
});
