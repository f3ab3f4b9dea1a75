/**
 * A context's history kept in a shared PostgreSQL database: the same store interface as the
 * embedded one (store.ts), so the history feature and the background recorders use either.
 *
 * - Writing: the recorder writes its local SQLite file as always (the journal; a flush never
 *   waits on the network) and the outbox (outbox.ts) copies every change to PostgreSQL, under
 *   the context's name, every SYNC_INTERVAL_MS and on each `flush()`.
 * - Reading: queries read a local replica of what PostgreSQL holds for the context (pull.ts),
 *   refreshed by the same sync, so they show every recorder's history of it: one in the cluster,
 *   another machine's; this recorder's own writes reach the replica at once (echo.ts).
 * - PostgreSQL unreachable or refusing the credentials: the status says so; recording goes on
 *   into the journal, whose outbox keeps every change until the database answers again, then
 *   copies them (retried every RETRY_MS).
 * - Schema: migrated under an advisory lock when the store first reaches the database (layout.ts).
 * - One writer per context (writer-claim.ts): a recorder copies its changes only while it holds
 *   the context's claim. Another recorder of the same context name is refused, says which one
 *   writes, records into its journal only and shows what the shared store holds (its own rows,
 *   numbered by itself, are kept out of the replica). A recorder started again from the same
 *   history file takes its claim back at once; one of another file takes over once the writer
 *   has been silent past the time-to-live, after replacing its journal with the database's copy
 *   of the context (takeover.ts), so its rows continue that history's instead of overwriting it.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { EpisodeQuery, HistoryStatus } from '../../../../shared/contracts/history.ts';
import { createCoverageQuery, type SessionEnd } from '../coverage.ts';
import { readSince } from '../retention.ts';
import { SCHEMA_VERSION } from '../schema.ts';
import { createStateReader } from '../state-at.ts';
import { openStore, type HistoryStore, type StoreOptions } from '../store.ts';
import { createPool, describeFailure } from './connection.ts';
import { migrateShared } from './layout.ts';
import { openJournalSlot } from './journal-slot.ts';
import { outboxSize } from './outbox.ts';
import { forgetReplica, pullOnce } from './pull.ts';
import { ClaimLostError, pushOnce } from './push.ts';
import { discardSeed, seedJournal } from './takeover.ts';
import { pruneTombstones } from './tombstones.ts';
import { claimWriter, lineageOf, refusalMessage, releaseWriter, renewWriter, WRITER_TTL_MS, type ClaimHolder, type WriterIdentity } from './writer-claim.ts';

export const SYNC_INTERVAL_MS = 1_000;
export const RETRY_MS = 10_000;

export interface SharedStoreOptions extends StoreOptions {
  /** The database (a postgres:// connection string) and how messages name it (no password). */
  shared: { url: string; target: string };
  /** The local replica the queries read (defaults next to the journal). */
  replicaFile?: string;
  syncIntervalMs?: number;
  retryMs?: number;
  /** How the writer claim names this recorder to others (default: host and process id). */
  writerLabel?: string;
  /** A claim holder silent this long is said to have stopped (WRITER_TTL_MS). */
  writerTtlMs?: number;
}

/** The replica's file beside a context's journal file. */
export const replicaFileOf = (file: string): string => `${file.replace(/\.sqlite$/, '')}.shared.sqlite`;

/** Opens the shared store; throws (as openStore) only when the local files cannot be opened. */
export function openSharedStore(options: SharedStoreOptions): HistoryStore {
  const { now, log, shared } = options;
  let journalStatus: HistoryStatus | undefined;
  let syncFailure: string | undefined;
  let closed = false;
  let lost = false;
  /** Both stores are open (the journal reports its status while opening). */
  let opened = false;

  const reader = openStore({ ...options, file: options.replicaFile ?? replicaFileOf(options.file), record: false, onStatus: () => undefined });
  // The journal, its outbox and its echo into the replica; a takeover (takeOver below) replaces them.
  const slot = openJournalSlot(() => openStore({ ...options, onStatus: (status) => ((journalStatus = status), publish()) }), shared.target, reader.db);
  opened = true;
  // The replica's sessions include this recorder's own, live while it observes.
  const gaps = createCoverageQuery(reader.db, { now, live: () => options.record && !lost && !closed, ...(options.timing?.gapMs ? { gapMs: options.timing.gapMs } : {}) });
  const state = createStateReader(reader.db);
  /** The replica with this recorder's latest writes, before a query reads it. */
  function fresh(): void {
    // A status published from inside a journal transaction waits for the next read. While
    // another recorder writes the context, the journal's rows (numbered by this one) stay out.
    // While a takeover seeds the journal that replaces this one, nothing of this one goes to the replica.
    if (closed || slot.store.db.isTransaction || refusal || takingOver) return;
    try {
      if (slot.echo.apply() > 0) state.clear();
    } catch (error) {
      log(`[kubedrift] history: the recorder's latest writes could not be shown: ${(error as Error).message}`);
    }
  }
  const pool = createPool(shared.url, () => undefined);
  let migrated = false;
  const me: WriterIdentity = { id: randomUUID(), lineage: lineageOf(slot.store.db), label: options.writerLabel ?? `Kubedrift on ${hostname()} (pid ${process.pid})` };
  const ttlMs = options.writerTtlMs ?? WRITER_TTL_MS;
  /** Another recorder writes this context: why this one does not (the status says it). */
  let refusal: string | undefined;
  /** This recorder holds the context's claim (it released it on close). */
  let writing = false;
  /** The revs this store's pushes gave since its last pull (pull.ts leaves those rows out). */
  const own = new Map<string, number[]>();
  /** The recorder prunes its context's tombstones at its first sync and after each retention run (tombstones.ts). */
  let pruneDue = options.record;
  /** A takeover's claim is held for this lineage; the journal seeded from the database is not in place yet. */
  let takingOver: string | undefined;

  function status(): HistoryStatus {
    fresh();
    const base = journalStatus ?? slot.store.status();
    const next: HistoryStatus = { ...base, since: readSince(reader.db) ?? base.since };
    const message = syncFailure ?? refusal;
    if (message) next.message = message;
    return next;
  }

  function publish(): void {
    if (opened && !closed) options.onStatus(status());
  }

  function failed(error: unknown): void {
    if (closed) return;
    let waiting = 0;
    try {
      waiting = outboxSize(slot.store.db);
    } catch {
      // The journal closed meanwhile.
    }
    const message = `The shared history store cannot be used: ${describeFailure(error, shared.target)}. Recording goes on into this computer's history file (${waiting} changes waiting) and is copied to the shared store when it answers; the timeline shows what the shared store held until then.`;
    if (message !== syncFailure) log(`[kubedrift] history: ${message}`);
    syncFailure = message;
    publish();
  }

  /** Takes or renews the context's writer claim; false (and the status says why) when another recorder holds it. */
  async function claim(): Promise<boolean> {
    // Only a recorder takes over another file's context: it has the cluster to continue from.
    const identity = takingOver ? { ...me, lineage: takingOver } : me;
    const result = await claimWriter(pool, options.context, identity, ttlMs, options.record && !takingOver ? randomUUID() : undefined);
    if (!result.held) {
      takingOver = undefined;
      refuse(result.holder);
      return false;
    }
    if (result.takeOver) takingOver = result.takeOver.lineage;
    if (takingOver && !(await takeOver(takingOver, result.tookOverFrom))) return false;
    writing = true;
    if (refusal !== undefined || result.tookOverFrom) {
      const after = result.tookOverFrom ? ` after ${result.tookOverFrom.label}, which stopped` : '';
      log(`[kubedrift] history: this recorder now writes ${options.context} to the shared store ${shared.target}${after}`);
    }
    if (refusal !== undefined) {
      refusal = undefined;
      // Everything the journal queued meanwhile goes to the replica (and the database) now.
      slot.echo.reset();
      publish();
    }
    return true;
  }

  /**
   * Continues the history another file's stopped recorder wrote (the claim is held for `lineage`):
   * the journal becomes the shared store's copy of the context (takeover.ts) and the recording
   * restarts on it. False when the store closed meanwhile; throws (the claim stays this
   * recorder's, retried by the next sync) when the copy could not be read.
   */
  async function takeOver(lineage: string, from: ClaimHolder | undefined): Promise<boolean> {
    const keepClaim = { renew: () => renewWriter(pool, options.context, me), everyMs: ttlMs / 3 };
    const seeded = await seedJournal(pool, { file: slot.store.file, context: options.context, target: shared.target, lineage, now, keepClaim });
    if (closed) {
      discardSeed(seeded.file);
      return false;
    }
    // Unless refused until now, the replica took rows of the replaced journal: it reads the context again whole.
    const echoed = refusal === undefined;
    opened = false;
    journalStatus = undefined;
    const aside = slot.replace(seeded.file, now(), () => void enqueue());
    me.lineage = lineage;
    takingOver = undefined;
    if (echoed) forgetReplica(reader.db);
    state.clear();
    opened = true;
    const who = from ? `${from.label} (another history file) stopped writing it` : 'its recorder (another history file) stopped';
    log(`[kubedrift] history: ${who}; this recorder continues ${options.context}'s history in the shared store ${shared.target} from its copy (${seeded.rows} rows), and keeps what this computer recorded before in ${aside}`);
    publish();
    return true;
  }

  function refuse(holder: ClaimHolder): void {
    writing = false;
    const message = refusalMessage(options.context, shared.target, holder, { ttlMs, canTakeOver: options.record });
    if (refusal === undefined) {
      // Rows the replica took from the journal before the refusal are numbered by this recorder,
      // not the writer: the replica reads the context again whole from the database.
      forgetReplica(reader.db);
      state.clear();
    }
    if (message === refusal) return;
    log(`[kubedrift] history: ${message}`);
    refusal = message;
    publish();
  }

  async function run(): Promise<void> {
    if (closed) return;
    try {
      if (!migrated) {
        await migrateShared(pool, slot.layout, SCHEMA_VERSION);
        migrated = true;
      }
      let copied = 0;
      // Only the context's writer copies: what another recorder would send is numbered like its rows.
      // A store not recording copies what an earlier recording left queued, as its writer too.
      const mayWrite = !closed && (options.record || outboxSize(slot.store.db) > 0) && (await claim());
      for (;;) {
        if (!mayWrite) break;
        // The replica takes what is about to be sent first, in the same turn: the pull leaves it out.
        fresh();
        const pushed = await pushOnce(slot.store.db, pool, options.context, slot.layout, now, me.id).catch(async (error: unknown) => {
          if (!(error instanceof ClaimLostError)) throw error;
          // Taken over meanwhile (this recorder was silent too long): refused from now on, as any second writer.
          await claim();
          return undefined;
        });
        if (!pushed) break;
        for (const [tbl, revs] of pushed.revs) own.set(tbl, [...(own.get(tbl) ?? []), ...revs]);
        if (closed || pushed.upserted + pushed.deleted === 0) break;
        copied += pushed.upserted + pushed.deleted;
      }
      if (pruneDue && mayWrite && !closed) {
        pruneDue = false;
        // As old as the history this recorder keeps: a replica that reads that often sees every deletion.
        const pruned = await pruneTombstones(pool, options.context, now() - options.limits().maxAgeMs);
        if (pruned > 0) log(`[kubedrift] history: ${pruned} deletions older than the retention age pruned from the shared store`);
      }
      const pulled = await pullOnce(reader.db, pool, options.context, own);
      own.clear();
      if (pulled.reread) log(`[kubedrift] history: deletions this computer had not read were pruned from the shared store; ${options.context} was read again whole`);
      if (pulled.rows + pulled.deleted > 0 || pulled.reread) {
        state.clear();
        // A pulled row may be older than the journal's: the changes still queued go on top again.
        slot.echo.reset();
      }
      if (syncFailure && !closed) {
        syncFailure = undefined;
        log(`[kubedrift] history: the shared store ${shared.target} answers again; ${copied} changes copied`);
        publish();
      }
    } catch (error) {
      failed(error);
    }
  }

  // One sync at a time, in order: a flush's sync starts after the one under way.
  let chain: Promise<void> = Promise.resolve();
  let queued = false;
  const enqueue = (): Promise<void> => (chain = chain.then(run));
  let timer: NodeJS.Timeout | undefined;
  function schedule(): void {
    if (closed) return;
    timer = setTimeout(
      () => {
        if (queued) return schedule();
        queued = true;
        void enqueue().finally(() => {
          queued = false;
          schedule();
        });
      },
      syncFailure ? (options.retryMs ?? RETRY_MS) : (options.syncIntervalMs ?? SYNC_INTERVAL_MS),
    );
    timer.unref();
  }
  void enqueue();
  schedule();
  publish();

  return {
    ...reader,
    /** The journal's database (a takeover replaces it). */
    get db() {
      return slot.store.db;
    },
    file: slot.store.file,
    series(query) {
      fresh();
      const answer = reader.series(query);
      return answer && { ...answer, gaps: gaps(query.from, query.to) };
    },
    episodes: {
      episodes: (query: EpisodeQuery) => (fresh(), { ...reader.episodes.episodes(query), gaps: gaps(query.from, query.to) }),
      episode: (id: number) => (fresh(), reader.episodes.episode(id)),
    },
    gaps: (from: number, to: number) => (fresh(), gaps(from, to)),
    compare: (t1: number, t2: number, namespace?: string) => (fresh(), reader.compare(t1, t2, namespace)),
    status,
    since: () => (fresh(), readSince(reader.db)),
    async objectsAt(at: number): Promise<SlimObject[]> {
      fresh();
      return state.objectsAt(at);
    },
    objectsListed: () => slot.objectsListed(),
    /** As the journal's (backfill), then copied: its inferred rows are in the shared store after it. */
    synced() {
      const backfill = slot.synced();
      return backfill?.then(async (result) => {
        await enqueue();
        return result;
      });
    },
    /** Writes what the recorder holds, copies it to the shared store, and reads the store back. */
    async flush(): Promise<void> {
      await slot.store.flush();
      await enqueue();
    },
    heartbeat: () => slot.store.heartbeat(),
    connection(isLost: boolean): void {
      lost = isLost;
      slot.connection(isLost);
    },
    noteCauses: (headlines, at) => slot.store.noteCauses(headlines, at),
    applyRetention(): void {
      slot.store.applyRetention();
      pruneDue = options.record;
      reader.applyRetention();
      state.clear();
    },
    tick: () => slot.store.tick(),
    close(reason: SessionEnd = 'app-closed'): void {
      if (closed) return;
      // The journal's last writes (the session's end) stay in its outbox for the next start.
      slot.store.close(reason);
      closed = true;
      clearTimeout(timer);
      state.clear();
      reader.close();
      // The claim goes with the store: this recorder, started again, takes it back at once.
      void chain.finally(async () => {
        if (writing) await releaseWriter(pool, options.context, me).catch(() => undefined);
        await pool.end().catch(() => undefined);
      });
    },
  };
}
