import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { eventRecord } from '../../../../electron/engine/history/event-record.ts';
import { emptyBatch, type Batch } from '../../../../electron/engine/history/records.ts';
import { createWriter, type HistoryWriter } from '../../../../electron/engine/history/writer.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const SEEN_AT = Date.parse('2026-11-28T06:00:00Z');

/** A core/v1 Event as the API server lists it (slimmed). */
function backOff(uid: string, count: number, lastTimestamp: string): SlimObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { uid, name: `web-7d9f-${uid}.187a`, namespace: 'shop', creationTimestamp: '2026-11-28T05:10:00Z', resourceVersion: '4711' },
    involvedObject: { kind: 'Pod', namespace: 'shop', name: `web-7d9f-${uid}`, uid: `pod-${uid}`, apiVersion: 'v1' },
    reason: 'BackOff',
    message: 'Back-off restarting failed container app',
    type: 'Warning',
    count,
    firstTimestamp: '2026-11-28T05:10:00Z',
    lastTimestamp,
    source: { component: 'kubelet', host: 'node-1' },
  } as unknown as SlimObject;
}

function batchOf(events: SlimObject[], owners: Batch['owners'] = []): Batch {
  const batch = emptyBatch();
  for (const event of events) batch.events.set(event.metadata.uid, eventRecord(event, SEEN_AT));
  batch.owners.push(...owners);
  return batch;
}

const changes = (db: DatabaseSync): number => Number((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n);

describe('history writer: Events and owners', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let db: DatabaseSync;
  let writer: HistoryWriter;

  beforeEach(async () => {
    ({ dir, cleanup } = await withTempDir());
    db = openHistoryDb(path.join(dir, 'h.sqlite')).db;
    writer = createWriter(db);
  });

  afterEach(async () => {
    db.close();
    await cleanup();
  });

  it('rewrites no row when a relist brings back the same Events', () => {
    const events = ['c3', 'a1', 'b2'].map((uid) => backOff(uid, 3, '2026-11-28T05:20:00Z'));
    writer.write(batchOf(events), null);
    const before = changes(db);
    writer.write(batchOf(events), null);
    expect(changes(db)).toBe(before);
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 3 });
  });

  it('still updates an Event seen again with a higher count and a later last time', () => {
    writer.write(batchOf([backOff('a1', 3, '2026-11-28T05:20:00Z'), backOff('b2', 1, '2026-11-28T05:10:00Z')]), null);
    const before = changes(db);
    writer.write(batchOf([backOff('a1', 5, '2026-11-28T05:30:00Z'), backOff('b2', 1, '2026-11-28T05:10:00Z')]), null);
    expect(changes(db)).toBe(before + 1);
    expect(db.prepare("SELECT count, last_at, first_at FROM events WHERE uid = 'a1'").get()).toEqual({
      count: 5,
      last_at: Date.parse('2026-11-28T05:30:00Z'),
      first_at: Date.parse('2026-11-28T05:10:00Z'),
    });
  });

  it('keeps the earliest first time and the latest last time whichever arrives later', () => {
    writer.write(batchOf([backOff('a1', 5, '2026-11-28T05:30:00Z')]), null);
    const older = backOff('a1', 5, '2026-11-28T05:25:00Z') as SlimObject & { firstTimestamp: string };
    older.firstTimestamp = '2026-11-28T05:00:00Z';
    writer.write(batchOf([older]), null);
    expect(db.prepare("SELECT first_at, last_at FROM events WHERE uid = 'a1'").get()).toEqual({
      first_at: Date.parse('2026-11-28T05:00:00Z'),
      last_at: Date.parse('2026-11-28T05:30:00Z'),
    });
  });

  it('writes the same Events and owners whatever order the batch holds them in', () => {
    const owners = ['rs-c', 'rs-a', 'rs-b'].map((child) => ({ child, owner: 'deploy-web', kind: 'replicasets.apps' as const, at: SEEN_AT }));
    writer.write(batchOf(['c3', 'a1', 'b2'].map((uid) => backOff(uid, 2, '2026-11-28T05:20:00Z')), owners), null);
    expect(db.prepare('SELECT uid, count FROM events ORDER BY uid').all()).toEqual([
      { uid: 'a1', count: 2 },
      { uid: 'b2', count: 2 },
      { uid: 'c3', count: 2 },
    ]);
    expect(db.prepare('SELECT child_uid, owner_uid FROM owners ORDER BY child_uid').all()).toEqual(
      ['rs-a', 'rs-b', 'rs-c'].map((child) => ({ child_uid: child, owner_uid: 'deploy-web' })),
    );
  });
});
