/**
 * The read side of one context's history database, shared by the recording store (store.ts)
 * and the read-only store a recorder serves its history from (sources/read-store.ts): each
 * answer carries the range's unobserved gaps and what backfill inferred, the same way for both.
 */
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { EpisodeQuery } from '../../../shared/contracts/history.ts';
import { createInferredQuery } from './backfill-run.ts';
import { createCompareQuery } from './compare.ts';
import { createCoverageQuery } from './coverage.ts';
import { createEpisodeQueries } from './episode-query.ts';
import { createSeriesQuery } from './series.ts';
import { createStateReader } from './state-at.ts';
import { createUnobservedQuery } from './unobserved.ts';

export interface HistoryQueryOptions {
  now(): number;
  /** Whether a session is observing this context right now (its open session is not a gap). */
  live(): boolean;
  /** How long without observing makes a gap (GAP_MS unless a test shortens it). */
  gapMs?: number;
  /** How often a recording writes a sample while nothing changes (HEARTBEAT_MS by default). */
  heartbeatMs?: number;
}

export type HistoryQueries = ReturnType<typeof createHistoryQueries>;

/** The database's size on disk, its write-ahead log included. */
export function historyFileBytes(file: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(`${file}${suffix}`).size;
    } catch {
      // No WAL file: nothing written since the last checkpoint.
    }
  }
  return total;
}

/** Prepares the queries the history channels answer from one opened database. */
export function createHistoryQueries(db: DatabaseSync, options: HistoryQueryOptions) {
  const { now, gapMs, heartbeatMs } = options;
  const timing = { ...(gapMs ? { gapMs } : {}) };
  const series = createSeriesQuery(db, { now, ...timing, ...(heartbeatMs ? { heartbeatMs } : {}) });
  const episodeQueries = createEpisodeQueries(db, { now });
  const gaps = createCoverageQuery(db, { now, live: options.live, ...timing });
  const unobserved = createUnobservedQuery(db, { now, ...timing });
  const inferred = createInferredQuery(db);
  const state = createStateReader(db);

  return {
    /** One workload's series, with the range's unobserved gaps (its own out-of-view stretches too) and what backfill inferred. */
    series(query: Parameters<typeof series>[0]) {
      const answer = series(query);
      if (!answer) return answer;
      const facts = inferred.ofWorkload(query.uid, query.from, query.to);
      return {
        ...answer,
        gaps: unobserved.workload(query.uid, query.from, query.to, gaps(query.from, query.to)),
        inferred: facts.facts,
        // Only MAX_INFERRED rows: the workload chart says so and how many there are.
        ...(facts.total !== undefined ? { inferredTotal: facts.total } : {}),
      };
    },
    /** The swimlane's episodes, with the range's unobserved gaps, single workloads' stretches out of view, and the inferred rollouts and Events. */
    episodes(query: EpisodeQuery) {
      const rangeGaps = gaps(query.from, query.to);
      const facts = inferred.timeline(query.from, query.to, query.namespace);
      return {
        ...episodeQueries.episodes(query),
        gaps: rangeGaps,
        workloadGaps: unobserved.range(query.from, query.to, rangeGaps, query.namespace),
        inferred: facts.facts,
        // Only the newest MAX_INFERRED rows: the timeline says so and how many there are.
        ...(facts.total !== undefined ? { inferredTotal: facts.total } : {}),
      };
    },
    episode: episodeQueries.episode,
    gaps,
    compare: createCompareQuery(db),
    /** The objects (Events excepted) at `at`, sorted. */
    objectsAt: (at: number) => state.objectsAt(at),
    /** Forgets the state reader's cached keyframes (after pruning, or before closing). */
    clearState: () => state.clear(),
  };
}
