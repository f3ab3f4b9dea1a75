/**
 * Pruning the shared database's tombstones (`kd_deleted`). Every row a recorder deletes (its
 * retention above all) leaves one, so replicas learn of the deletion; kept for ever, they would
 * grow as long as the history is recorded.
 *
 * Why by age and a mark, not "once every reader has applied them": readers are not known to the
 * database. Any app pointed at it reads a context's history into a replica of its own, whenever
 * it is started, and may never come back; waiting for all of them would keep tombstones for ever.
 * So the context's recorder prunes the tombstones older than its retention age (a replica that
 * reads at least that often has seen each one) and records, in `kd_pruned`, the newest `rev` it
 * pruned. A replica whose tombstones mark is below that may have missed a deletion; it cannot
 * tell which, so it reads the context again whole (pull.ts), as an informer relists after
 * 410 Gone. Pruning takes the context's advisory lock, as a push does, so a push's tombstones
 * and the mark move in commit order.
 */
import type pg from 'pg';
import { inTransaction } from './connection.ts';
import { contextLockKey } from './push.ts';

/**
 * Deletes `context`'s tombstones written before `before` (ms since the epoch) and moves its
 * pruning mark past them, in one transaction. Returns how many were pruned.
 */
export async function pruneTombstones(pool: pg.Pool, context: string, before: number): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1::bigint)', [contextLockKey(context)]);
    const { rows } = await client.query<{ pruned: string | null; n: string }>(
      'WITH gone AS (DELETE FROM kd_deleted WHERE context = $1 AND deleted_at < $2 RETURNING rev) SELECT max(rev) AS pruned, count(*) AS n FROM gone',
      [context, before],
    );
    const pruned = rows[0]?.pruned;
    if (pruned === null || pruned === undefined) return 0;
    await client.query('INSERT INTO kd_pruned (context, rev) VALUES ($1, $2) ON CONFLICT (context) DO UPDATE SET rev = greatest(kd_pruned.rev, excluded.rev)', [context, pruned]);
    return Number(rows[0]?.n ?? 0);
  });
}

/** The newest tombstone `rev` pruned for `context` (0: none ever was). */
export async function prunedUpTo(pool: pg.Pool, context: string): Promise<number> {
  const { rows } = await pool.query<{ rev: string }>('SELECT rev FROM kd_pruned WHERE context = $1', [context]);
  return Number(rows[0]?.rev ?? 0);
}
