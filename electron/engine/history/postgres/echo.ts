/**
 * This recorder's own writes, shown at once: before a query, the replica takes the rows the
 * journal changed since the last echo (its outbox, outbox.ts), so the timeline of the context
 * being recorded never waits for a round trip through PostgreSQL, and keeps moving while the
 * database is unreachable. What PostgreSQL holds arrives by pull.ts; as a pull may bring back
 * an older copy of a row changed since it was pushed, `reset()` after a pull has the next echo
 * apply every change still queued (those PostgreSQL does not have yet) again.
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { q, type TableLayout } from './layout.ts';
import { outboxSince } from './outbox.ts';

export interface Echo {
  /** Copies the journal's changes since the last call; returns how many rows it touched. */
  apply(): number;
  /** The next apply() starts from the oldest queued change. */
  reset(): void;
}

export function createEcho(journal: DatabaseSync, replica: DatabaseSync, layout: readonly TableLayout[]): Echo {
  let last = 0;
  const statements = new Map(
    layout.map((table) => {
      const columns = table.columns.map((c) => q(c.name));
      const where = table.key.map((k) => `${q(k)} = ?`).join(' AND ');
      return [
        table.name,
        {
          read: journal.prepare(`SELECT ${columns.join(', ')} FROM ${q(table.name)} WHERE ${where}`),
          write: replica.prepare(`INSERT OR REPLACE INTO ${q(table.name)} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`),
          remove: replica.prepare(`DELETE FROM ${q(table.name)} WHERE ${where}`),
          columns: table.columns.map((c) => c.name),
        },
      ];
    }),
  );

  return {
    apply() {
      const entries = outboxSince(journal, last);
      if (entries.length === 0) return 0;
      replica.exec('BEGIN IMMEDIATE');
      try {
        for (const entry of entries) {
          const sql = statements.get(entry.tbl);
          if (!sql) continue;
          const key = JSON.parse(entry.key) as SQLInputValue[];
          const row = sql.read.get(...key) as Record<string, SQLInputValue> | undefined;
          if (row) sql.write.run(...sql.columns.map((c) => row[c] ?? null));
          else sql.remove.run(...key);
        }
        replica.exec('COMMIT');
      } catch (error) {
        if (replica.isTransaction) replica.exec('ROLLBACK');
        throw error;
      }
      last = entries.at(-1)?.seq ?? last;
      return entries.length;
    },
    reset() {
      last = 0;
    },
  };
}
