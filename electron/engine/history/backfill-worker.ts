/**
 * The backfill's worker thread (see backfill-offload.ts): it keeps a copy of the context's
 * cached objects, built from their JSON as the informers list them, and runs the backfill's two
 * parts (backfill-run.ts) over that copy with a database connection of its own, so parsing,
 * inference, hashed ids and the inferred rows' writes run beside the engine's thread instead of
 * on it. SQLite lets one connection write at a time: each of its transactions (a few dozen ms)
 * and the recorder's flushes wait for each other through the busy timeout.
 *
 * Closing: the engine sets the cancel flag and waits (Atomics) until this thread has closed its
 * connection, so the file is never left with a writer the next session cannot see.
 */
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import { runBackfill } from './backfill-run.ts';
import { othersWant, waitForOthers } from './write-turns.ts';
import { FLAG_CANCEL, FLAG_STATE, STATE_ABANDONED, STATE_CLOSED, STATE_NEW, STATE_OPEN, WORKER_BUSY_TIMEOUT_MS, type BackfillReply, type BackfillRequest, type BackfillWorkerData } from './backfill-protocol.ts';

const { file, flags: buffer } = workerData as BackfillWorkerData;
const flags = new Int32Array(buffer);
const mirror = new Map<string, Map<string, SlimObject>>();
let db: DatabaseSync | undefined;
/** The parts run one after the other, in the order asked. */
let queue: Promise<void> = Promise.resolve();

const cancelled = (): boolean => Atomics.load(flags, FLAG_CANCEL) === 1;

function open(): DatabaseSync | undefined {
  if (db) return db;
  // The engine may have given up on this thread before it started: then it never opens the file.
  if (Atomics.compareExchange(flags, FLAG_STATE, STATE_NEW, STATE_OPEN) !== STATE_NEW) return undefined;
  db = new DatabaseSync(file);
  // The recorder's flush may hold the write lock for a while on a loaded machine: wait for it.
  db.exec(`PRAGMA busy_timeout = ${WORKER_BUSY_TIMEOUT_MS}`);
  db.exec('PRAGMA synchronous = NORMAL');
  return db;
}

function close(): void {
  try {
    db?.close();
  } catch {
    // Closing a connection with nothing pending cannot fail in a way that matters now.
  }
  db = undefined;
  Atomics.store(flags, FLAG_STATE, Atomics.load(flags, FLAG_STATE) === STATE_ABANDONED ? STATE_ABANDONED : STATE_CLOSED);
  Atomics.notify(flags, FLAG_STATE);
  parentPort?.close();
}

function apply(ops: readonly string[]): void {
  for (let i = 0; i + 2 < ops.length; i += 3) {
    const kind = ops[i + 1] as string;
    let bucket = mirror.get(kind);
    if (!bucket) {
      bucket = new Map();
      mirror.set(kind, bucket);
    }
    if (ops[i] === 'd') bucket.delete(ops[i + 2] as string);
    else {
      const object = JSON.parse(ops[i + 2] as string) as SlimObject;
      bucket.set(object.metadata.uid, object);
    }
  }
}

function listWithKinds(): { objects: SlimObject[]; kinds: KindKey[] } {
  const objects: SlimObject[] = [];
  const kinds: KindKey[] = [];
  for (const [kind, bucket] of mirror) {
    for (const object of bucket.values()) {
      objects.push(object);
      kinds.push(kind as KindKey);
    }
  }
  return { objects, kinds };
}

async function part(request: Extract<BackfillRequest, { t: 'part' }>): Promise<void> {
  const reply = (message: BackfillReply) => parentPort?.postMessage(message);
  try {
    const connection = cancelled() ? undefined : open();
    if (!connection) return reply({ t: 'done', part: request.part, result: { objects: 0, rows: 0, added: 0, ms: 0, longestSliceMs: 0 } });
    const events = request.part === 'events';
    const result = await runBackfill({
      db: connection,
      ...listWithKinds(),
      now: Date.now,
      keepAfter: request.keepAfter,
      cancelled: () => cancelled() || !db,
      include: (kind) => (kind === BUILTIN_KEYS.Event) === events,
      handOver: { wanted: () => othersWant(flags), wait: () => waitForOthers(flags) },
    });
    reply({ t: 'done', part: request.part, result });
  } catch (error) {
    if (!cancelled()) reply({ t: 'error', part: request.part, message: error instanceof Error ? error.message : String(error) });
  }
}

parentPort?.on('message', (request: BackfillRequest) => {
  if (request.t === 'changes') apply(request.ops);
  else if (request.t === 'part') queue = queue.then(() => part(request));
  // Between two transactions (the parts give the loop back only there), so nothing is half written.
  else close();
});
