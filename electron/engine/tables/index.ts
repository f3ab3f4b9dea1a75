/**
 * The tables feature: implements `cluster:table` (shared/contracts/tables.ts). It asks the
 * selected context's API server for a kind's Table, on a transport of its own made from the
 * context's client configuration (closed on a context switch), and answers with the column
 * definitions and each object's cells. A refusal, a server error or a timeout becomes a clear
 * error for that kind alone; nothing else the engine does depends on it.
 */
import type { ClusterTable, tablesRequests } from '../../../shared/contracts/tables.ts';
import type { KindEntry } from '../../../shared/discovery.ts';
import { err, ok, type Err, type Result } from '../../../shared/result.ts';
import { ApiStatusError, createTransport, type Transport } from '../cluster/informers/http.ts';
import type { EngineContext, Feature } from '../features.ts';
import { NotATableError, readTable } from './read-table.ts';

/** However many pages, a table that takes longer than this is given up (the renderer asks again later). */
export const TABLE_TIMEOUT_MS = 15_000;

export interface TablesFeatureOptions {
  /** The kind discovery found under `key` in the selected context (the live cluster's registry). */
  kindOf(key: string): KindEntry | undefined;
  /** How a transport is made from a client configuration (tests count or fake them). */
  createTransport?: (config: object) => Transport;
  timeoutMs?: number;
  pageSize?: number;
  maxRows?: number;
}

const HTTP_WORDS: Readonly<Record<number, string>> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/** Turns a failed read into the contract's error, in the server's words where it gave any. */
export function tableError(kind: string, error: unknown, timeoutMs: number, timedOut: boolean): Err {
  const what = `The printer columns of ${kind}`;
  if (timedOut) return err('unavailable', `${what} did not arrive within ${timeoutMs >= 1000 ? `${timeoutMs / 1000} s` : `${timeoutMs} ms`}; the server is slow or the kind is very large.`);
  if (error instanceof ApiStatusError) {
    const status = `${error.status}${HTTP_WORDS[error.status] ? ` ${HTTP_WORDS[error.status]}` : ''}`;
    const code = error.status === 403 ? 'forbidden' : error.status === 401 ? 'unauthorized' : error.status === 404 ? 'not-found' : 'unavailable';
    return err(code, `${what} could not be read (${status}): ${error.message}`);
  }
  if (error instanceof NotATableError) return err('unavailable', `${what} could not be read: ${error.message}.`);
  return err('unreachable', `${what} could not be read: ${error instanceof Error ? error.message : String(error)}`);
}

export function createTablesFeature(context: EngineContext, options: TablesFeatureOptions): Feature<typeof tablesRequests> {
  const timeoutMs = options.timeoutMs ?? TABLE_TIMEOUT_MS;
  const makeTransport = options.createTransport ?? createTransport;
  let current: { context: string; transport: Promise<Transport> } | undefined;
  /** Reads in flight by context and kind: two windows asking at once share one. */
  const inFlight = new Map<string, Promise<Result<ClusterTable>>>();
  const controllers = new Set<AbortController>();

  function closeTransport(): void {
    const previous = current;
    current = undefined;
    for (const controller of controllers) controller.abort();
    controllers.clear();
    inFlight.clear();
    void previous?.transport.then((transport) => transport.close()).catch(() => undefined);
  }

  function transportFor(name: string): Promise<Transport> {
    if (current?.context !== name) {
      closeTransport();
      const transport = context.clientConfig().then((config) => {
        if (!config) throw new Error(`the context "${name}" has no client configuration`);
        return makeTransport(config);
      });
      current = { context: name, transport };
      // A failed start is not kept: the next request tries again.
      transport.catch(() => {
        if (current?.transport === transport) current = undefined;
      });
    }
    return current.transport;
  }

  async function read(name: string, entry: KindEntry): Promise<Result<ClusterTable>> {
    let transport: Transport;
    try {
      transport = await transportFor(name);
    } catch (error) {
      return err('kubeconfig', `The printer columns of ${entry.key} could not be read: ${(error as Error).message}`);
    }
    const controller = new AbortController();
    controllers.add(controller);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    timer.unref?.();
    try {
      const table = await readTable(transport, entry.ref, { signal: controller.signal, ...(options.pageSize ? { pageSize: options.pageSize } : {}), ...(options.maxRows ? { maxRows: options.maxRows } : {}) });
      return ok({ context: name, kind: entry.key, at: context.now(), ...table });
    } catch (error) {
      return tableError(entry.key, error, timeoutMs, timedOut);
    } finally {
      clearTimeout(timer);
      controllers.delete(controller);
    }
  }

  const stopContext = context.onContextChange(closeTransport);

  return {
    handlers: {
      'cluster:table': ({ kind }) => {
        const selected = context.selected();
        if (!selected) return err('not-found', 'No context is selected, so there is no server to print columns.');
        if (selected.readOnly) return err('unavailable', 'An opened snapshot has no API server to print columns.');
        const entry = options.kindOf(kind);
        if (!entry) return err('not-found', `Discovery found no kind "${kind}" in the context "${selected.name}".`);
        const key = `${selected.name}\u0000${kind}`;
        const pending = inFlight.get(key);
        if (pending) return pending;
        const started = read(selected.name, entry).finally(() => {
          if (inFlight.get(key) === started) inFlight.delete(key);
        });
        inFlight.set(key, started);
        return started;
      },
    },
    dispose() {
      stopContext();
      closeTransport();
    },
  };
}
