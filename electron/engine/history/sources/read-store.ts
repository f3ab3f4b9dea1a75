/**
 * A recorded context's history opened for reading only, beside the recorder that writes it
 * (`kubedrift record --listen`). It has the recording store's queries (store.ts) on a read-only
 * SQLite connection: it never migrates, prunes or drops the half-written keyframe the recorder
 * is writing, and WAL mode lets it read while the recorder writes.
 */
import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import { historyFile } from '../db.ts';
import { createHistoryQueries, historyFileBytes } from '../queries.ts';
import { readSince } from '../retention.ts';
import { SCHEMA_VERSION } from '../schema.ts';

/** How long a read waits for the recorder's write lock (checkpoints) before it fails. */
const READ_BUSY_TIMEOUT_MS = 2_000;

export interface ReadStoreOptions {
  dataDir: string;
  context: string;
  now(): number;
}

export type ReadStore = ReturnType<typeof openReadStore>;

/** Opens a context's history read-only; throws a clear message when there is none (yet) or it is from a newer build. */
export function openReadStore(options: ReadStoreOptions) {
  const { now, context } = options;
  const file = historyFile(options.dataDir, context);
  if (!existsSync(file)) throw new Error(`Nothing is recorded for ${context} yet: the recorder has not connected to its cluster.`);
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    db.exec(`PRAGMA busy_timeout = ${READ_BUSY_TIMEOUT_MS}`);
    const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
    if (version !== SCHEMA_VERSION) throw new Error(`The history of ${context} has schema version ${version}; this recorder build reads version ${SCHEMA_VERSION}.`);
  } catch (error) {
    db.close();
    throw error;
  }
  // The recorder's live session ends at its last mark, at most SESSION_MARK_MS ago: under GAP_MS, so no gap.
  const queries = createHistoryQueries(db, { now, live: () => false });
  const countEpisodes = db.prepare('SELECT count(*) AS n FROM episodes');
  const countSamples = db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks');

  return {
    context,
    since: (): number | null => readSince(db),
    /** The counts of what is recorded; `recording` says how the recorder is doing now. */
    status(recording: Pick<HistoryStatus, 'state' | 'message'> = { state: 'recording' }): HistoryStatus {
      return {
        context,
        ...recording,
        since: readSince(db),
        bytes: historyFileBytes(file),
        samples: Number((countSamples.get() as { n: number }).n),
        episodes: Number((countEpisodes.get() as { n: number }).n),
      };
    },
    series: queries.series,
    episodes: queries.episodes,
    episode: queries.episode,
    compare: queries.compare,
    objectsAt: queries.objectsAt,
    close(): void {
      queries.clearState();
      db.close();
    },
  };
}
