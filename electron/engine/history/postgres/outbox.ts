/**
 * The journal's outbox: what the recorder changed that the shared database does not hold yet.
 *
 * A recorder writes its SQLite file exactly as without a shared store (the local file is the
 * journal), and triggers note each inserted, updated or deleted row's key in `shared_outbox`
 * in the same transaction, so nothing committed can be missed, not even across a crash or
 * while PostgreSQL is unreachable. One row per key (a block rewritten a thousand times is sent
 * once); `ver` moves on every change, so a key changed again while its copy was on the wire
 * stays queued, and `seq` (from the `shared_seq` counter) orders the changes so the local
 * replica can take this recorder's own writes at once (echo.ts). `shared_target` remembers which database the outbox feeds: a new one gets
 * everything, queued once.
 */
import type { DatabaseSync } from 'node:sqlite';
import { q, readLayout, type TableLayout } from './layout.ts';

export interface OutboxEntry {
  tbl: string;
  key: string;
  ver: number;
}

const NEXT_SEQ = 'UPDATE shared_seq SET n = n + 1;';

function keyExpression(table: TableLayout, row: 'NEW' | 'OLD'): string {
  return `json_array(${table.key.map((k) => `${row}.${q(k)}`).join(', ')})`;
}

function note(table: TableLayout, row: 'NEW' | 'OLD'): string {
  return `INSERT INTO shared_outbox (tbl, key, ver, seq) VALUES ('${table.name}', ${keyExpression(table, row)}, 1, (SELECT n FROM shared_seq)) ON CONFLICT (tbl, key) DO UPDATE SET ver = ver + 1, seq = excluded.seq;`;
}

/**
 * Creates the outbox and its triggers (for tables added by later migrations too), and queues
 * every row when the journal starts feeding `target` (a new shared database). Returns the layout.
 */
export function installOutbox(db: DatabaseSync, target: string): TableLayout[] {
  db.exec('CREATE TABLE IF NOT EXISTS shared_outbox (tbl TEXT NOT NULL, key TEXT NOT NULL, ver INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (tbl, key)) WITHOUT ROWID');
  db.exec('CREATE INDEX IF NOT EXISTS shared_outbox_seq ON shared_outbox (seq)');
  db.exec('CREATE TABLE IF NOT EXISTS shared_seq (n INTEGER NOT NULL)');
  db.exec('INSERT INTO shared_seq (n) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM shared_seq)');
  db.exec('CREATE TABLE IF NOT EXISTS shared_target (id INTEGER PRIMARY KEY CHECK (id = 1), target TEXT NOT NULL)');
  const layout = readLayout(db);
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const table of layout) {
      const t = q(table.name);
      db.exec(`CREATE TRIGGER IF NOT EXISTS ${q(`shared_${table.name}_ins`)} AFTER INSERT ON ${t} BEGIN ${NEXT_SEQ} ${note(table, 'NEW')} END`);
      db.exec(`CREATE TRIGGER IF NOT EXISTS ${q(`shared_${table.name}_upd`)} AFTER UPDATE ON ${t} BEGIN ${NEXT_SEQ} ${note(table, 'OLD')} ${note(table, 'NEW')} END`);
      db.exec(`CREATE TRIGGER IF NOT EXISTS ${q(`shared_${table.name}_del`)} AFTER DELETE ON ${t} BEGIN ${NEXT_SEQ} ${note(table, 'OLD')} END`);
    }
    const current = (db.prepare('SELECT target FROM shared_target WHERE id = 1').get() as { target: string } | undefined)?.target;
    if (current !== target) {
      db.exec(NEXT_SEQ);
      for (const table of layout) {
        db.exec(`INSERT INTO shared_outbox (tbl, key, ver, seq) SELECT '${table.name}', ${keyExpression(table, 'NEW').replace(/NEW\./g, '')}, 1, (SELECT n FROM shared_seq) FROM ${q(table.name)} WHERE true ON CONFLICT (tbl, key) DO UPDATE SET ver = ver + 1, seq = excluded.seq`);
      }
      db.prepare('INSERT INTO shared_target (id, target) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET target = excluded.target').run(target);
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
  return layout;
}

/** The queued keys changed after `seq` (all of them from 0), oldest first, and the newest seq. */
export function outboxSince(db: DatabaseSync, seq: number): Array<OutboxEntry & { seq: number }> {
  return db.prepare('SELECT tbl, key, ver, seq FROM shared_outbox WHERE seq > ? ORDER BY seq').all(seq) as unknown as Array<OutboxEntry & { seq: number }>;
}

/** How many changes wait for the shared database. */
export function outboxSize(db: DatabaseSync): number {
  return Number((db.prepare('SELECT count(*) AS n FROM shared_outbox').get() as { n: number }).n);
}

/** Up to `limit` queued keys, grouped by table. */
export function readOutbox(db: DatabaseSync, limit: number): OutboxEntry[] {
  return db.prepare('SELECT tbl, key, ver FROM shared_outbox ORDER BY tbl, key LIMIT ?').all(limit) as unknown as OutboxEntry[];
}

/** Forgets the entries that were copied, unless they changed again meanwhile. */
export function ackOutbox(db: DatabaseSync, entries: readonly OutboxEntry[]): void {
  const remove = db.prepare('DELETE FROM shared_outbox WHERE tbl = ? AND key = ? AND ver = ?');
  db.exec('BEGIN IMMEDIATE');
  try {
    for (const e of entries) remove.run(e.tbl, e.key, e.ver);
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
