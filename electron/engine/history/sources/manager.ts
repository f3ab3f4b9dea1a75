/**
 * The history sources and their connections. Each source is checked when added, at start and
 * every CHECK_INTERVAL_MS (RETRY_INTERVAL_MS after a failure): a connection bound to no context
 * asks which contexts it records. History queries open one connection per (source, context) on
 * first use and keep it; any failure lands on that source's status alone, as a code and a
 * sentence, and the next query or check tries again.
 */
import { randomUUID } from 'node:crypto';
import type { RequestChannel, ResponseOf } from '../../../../shared/contract.ts';
import type { HistorySourceAdd, HistorySourceError, HistorySourceStatus, RecordedContext } from '../../../../shared/contracts/history-sources.ts';
import type { Result } from '../../../../shared/result.ts';
import { connectSource, SourceFailure, type SourceSocket } from './client.ts';
import type { StoredSource } from './config.ts';

export const CHECK_INTERVAL_MS = 60_000;
export const RETRY_INTERVAL_MS = 15_000;

export interface SourceManagerOptions {
  now(): number;
  log(message: string): void;
  /** The stored sources changed (add, remove): persist them. */
  save(sources: readonly StoredSource[]): Promise<void>;
  /** Any status changed. */
  onChange(sources: HistorySourceStatus[]): void;
  timeoutMs?: number;
  checkIntervalMs?: number;
  retryIntervalMs?: number;
}

interface Entry {
  stored: StoredSource;
  status: HistorySourceStatus;
  sockets: Map<string, Promise<SourceSocket>>;
  timer?: NodeJS.Timeout;
  checking?: Promise<void>;
}

export interface SourceManager {
  list(): HistorySourceStatus[];
  load(sources: readonly StoredSource[]): void;
  add(request: HistorySourceAdd): Promise<HistorySourceStatus[]>;
  remove(id: string): Promise<HistorySourceStatus[]>;
  /** The sources that record a context (by name, or by API server URL), with the name they know it by. */
  recording(context: { name: string; server?: string | undefined }): Array<{ id: string; name: string; context: string }>;
  /** One history request to a source's context; a failure is recorded on the source and rethrown as a SourceFailure. */
  query<C extends RequestChannel>(id: string, context: string, channel: C, payload: unknown): Promise<Result<ResponseOf<C>>>;
  dispose(): void;
}

const sameServer = (a: string | undefined, b: string | undefined): boolean => !!a && !!b && a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

export function createSourceManager(options: SourceManagerOptions): SourceManager {
  const entries = new Map<string, Entry>();
  let disposed = false;
  const list = (): HistorySourceStatus[] => [...entries.values()].map((entry) => entry.status);
  const publish = (): void => options.onChange(list());

  function setStatus(entry: Entry, change: Partial<HistorySourceStatus>): void {
    entry.status = { ...entry.status, ...change };
    if (entries.get(entry.stored.id) === entry) publish();
  }

  function fail(entry: Entry, error: unknown): HistorySourceError {
    const failure = error instanceof SourceFailure ? error : new SourceFailure('unreachable', (error as Error).message);
    const lastError: HistorySourceError = { at: options.now(), code: failure.code, message: failure.message };
    if (entry.status.lastError?.message !== failure.message) options.log(`[kubedrift] history source ${entry.stored.name}: ${failure.message}`);
    setStatus(entry, { state: 'error', lastError });
    return lastError;
  }

  // Saves one at a time, each writing the list as it is then: an add and a remove at once
  // neither share the temporary file nor leave the older list saved.
  let saving: Promise<void> = Promise.resolve();
  function persist(): Promise<void> {
    saving = saving.catch(() => undefined).then(() => options.save(stored()));
    return saving;
  }

  function schedule(entry: Entry, ms: number): void {
    clearTimeout(entry.timer);
    // A check that was running when its source was removed must not bring it back.
    if (disposed || entries.get(entry.stored.id) !== entry) return;
    entry.timer = setTimeout(() => void check(entry), ms);
    entry.timer.unref();
  }

  function check(entry: Entry): Promise<void> {
    entry.checking ??= (async () => {
      let socket: SourceSocket | undefined;
      try {
        socket = await connectSource({ url: entry.stored.url, token: entry.stored.token, context: null, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
        const answer = await socket.request('history:recorded', {});
        if (!answer.ok) throw new SourceFailure('invalid-answer', `The recorder could not list its contexts: ${answer.error.message}`);
        setStatus(entry, { state: 'connected', contexts: answer.value.contexts as RecordedContext[], checkedAt: options.now(), lastError: null });
        schedule(entry, options.checkIntervalMs ?? CHECK_INTERVAL_MS);
      } catch (error) {
        fail(entry, error);
        schedule(entry, options.retryIntervalMs ?? RETRY_INTERVAL_MS);
      } finally {
        socket?.close();
        entry.checking = undefined;
      }
    })();
    return entry.checking;
  }

  function closeSockets(entry: Entry): void {
    for (const socket of entry.sockets.values()) void socket.then((open) => open.close(), () => undefined);
    entry.sockets.clear();
  }

  function track(stored: StoredSource): Entry {
    const entry: Entry = { stored, sockets: new Map(), status: { id: stored.id, name: stored.name, url: stored.url, state: 'checking', contexts: [], checkedAt: null, lastError: null } };
    entries.set(stored.id, entry);
    return entry;
  }

  async function socketFor(entry: Entry, context: string): Promise<SourceSocket> {
    const held = entry.sockets.get(context);
    if (held) {
      const socket = await held.catch(() => undefined);
      if (socket && !socket.closed) return socket;
      entry.sockets.delete(context);
    }
    const opening = connectSource({ url: entry.stored.url, token: entry.stored.token, context, ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) });
    entry.sockets.set(context, opening);
    opening.catch(() => entry.sockets.get(context) === opening && entry.sockets.delete(context));
    return opening;
  }

  const stored = (): StoredSource[] => [...entries.values()].map((entry) => entry.stored);

  return {
    list,
    load(sources) {
      for (const source of sources) void check(track(source));
      publish();
    },
    async add(request) {
      const entry = track({ id: randomUUID(), name: request.name, url: request.url, token: request.token });
      try {
        await persist();
      } catch (error) {
        entries.delete(entry.stored.id);
        throw error;
      }
      publish();
      await check(entry);
      return list();
    },
    async remove(id) {
      const entry = entries.get(id);
      if (!entry) return list();
      entries.delete(id);
      clearTimeout(entry.timer);
      closeSockets(entry);
      await persist();
      publish();
      return list();
    },
    recording(context) {
      const out: Array<{ id: string; name: string; context: string }> = [];
      for (const entry of entries.values()) {
        const match = entry.status.contexts.find((recorded) => recorded.name === context.name) ?? entry.status.contexts.find((recorded) => sameServer(recorded.server, context.server));
        // A source in error is still asked: its contexts are those of its last good check, and the answer reports the failure.
        if (match) out.push({ id: entry.stored.id, name: entry.stored.name, context: match.name });
        else if (entry.status.state === 'error' && entry.status.contexts.length === 0) out.push({ id: entry.stored.id, name: entry.stored.name, context: context.name });
      }
      return out;
    },
    async query(id, context, channel, payload) {
      const entry = entries.get(id);
      if (!entry) throw new SourceFailure('unreachable', 'This history source was removed.');
      try {
        const result = await (await socketFor(entry, context)).request(channel, payload);
        if (entry.status.state !== 'connected') void check(entry);
        return result;
      } catch (error) {
        const lastError = fail(entry, error);
        schedule(entry, options.retryIntervalMs ?? RETRY_INTERVAL_MS);
        throw new SourceFailure(lastError.code, lastError.message);
      }
    },
    dispose() {
      disposed = true;
      for (const entry of entries.values()) {
        clearTimeout(entry.timer);
        closeSockets(entry);
      }
    },
  };
}
