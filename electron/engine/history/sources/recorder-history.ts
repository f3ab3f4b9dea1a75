/**
 * What `kubedrift record --listen` answers: the contract's history requests, read-only, for the
 * contexts it records, each from that context's read-only store (read-store.ts, opened on first
 * use and kept). Every payload is validated against the contract as the engine's dispatcher does;
 * a request the recorder does not serve gets the contract's `unknown-channel` error.
 */
import { requests, isRequestChannel, type RequestChannel } from '../../../../shared/contract.ts';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import type { RecordedContext } from '../../../../shared/contracts/history-sources.ts';
import { err, ok, type Result } from '../../../../shared/result.ts';
import { describeIssues } from '../../dispatcher.ts';
import { answerCompare, answerEpisode, answerEpisodes, answerSeries, answerStateAt, type RecordedHistory } from '../answers.ts';
import { openReadStore, type ReadStore } from './read-store.ts';

/** The channels a recorder answers; the history ones need a connection bound to a context. */
export const RECORDER_CHANNELS = ['history:recorded', 'history:status', 'history:series', 'history:episodes', 'history:episode', 'history:state-at', 'history:compare'] as const satisfies readonly RequestChannel[];
const SERVED: ReadonlySet<string> = new Set(RECORDER_CHANNELS);

export interface RecorderHistoryOptions {
  dataDir: string;
  contexts: readonly RecordedContext[];
  now(): number;
  log(message: string): void;
  /** How the recorder of a context is doing now (recording, or failing and why); default recording. */
  recording?(context: string): Pick<HistoryStatus, 'state' | 'message'>;
}

export interface RecorderHistory {
  dispatch(context: string | null, channel: unknown, payload: unknown): Promise<Result<unknown>>;
  close(): void;
}

export function createRecorderHistory(options: RecorderHistoryOptions): RecorderHistory {
  const stores = new Map<string, ReadStore>();

  function storeOf(context: string): ReadStore {
    let store = stores.get(context);
    if (!store) {
      store = openReadStore({ dataDir: options.dataDir, context, now: options.now });
      stores.set(context, store);
    }
    return store;
  }

  /** The answer of one validated request on a store (answers.ts, as the app answers its own). */
  async function answer(store: ReadStore, channel: RequestChannel, payload: Record<string, unknown>): Promise<Result<unknown>> {
    const history: RecordedHistory = { ...store, where: store.context };
    switch (channel) {
      case 'history:status':
        return ok(store.status(options.recording?.(store.context)));
      case 'history:series':
        return answerSeries(history, payload as { uid: string; from: number; to: number; maxPoints?: number });
      case 'history:episodes':
        return answerEpisodes(history, payload as Parameters<ReadStore['episodes']>[0]);
      case 'history:episode':
        return answerEpisode(history, payload['id'] as number);
      case 'history:compare':
        return answerCompare(history, payload as { t1: number; t2: number; namespace?: string });
      case 'history:state-at':
        return answerStateAt(history, payload as { at: number; offset: number; limit: number });
      default:
        return err('unknown-channel', `This recorder serves history only; ${channel} is not one of its requests.`);
    }
  }

  return {
    async dispatch(context, channel, payload) {
      if (!isRequestChannel(channel)) return err('unknown-channel', `Unknown request channel: ${String(channel).slice(0, 80)}`);
      if (!SERVED.has(channel)) return err('unknown-channel', `This recorder serves history only; ${channel} is not one of its requests.`);
      const parsed = requests[channel].request.safeParse(payload ?? {});
      if (!parsed.success) return err('invalid-request', `Invalid payload for ${channel}`, describeIssues(parsed.error));
      if (channel === 'history:recorded') return ok({ contexts: [...options.contexts] });
      if (context === null) return err('invalid-request', `${channel} reads one context's history: connect with ?context=NAME (one of ${options.contexts.map((entry) => entry.name).join(', ')}).`);
      try {
        return await answer(storeOf(context), channel, parsed.data as Record<string, unknown>);
      } catch (error) {
        const message = (error as Error).message;
        options.log(`[kubedrift] history source ${channel} of ${context} failed: ${message}`);
        return err('unavailable', message);
      }
    },
    close() {
      for (const store of stores.values()) store.close();
      stores.clear();
    },
  };
}
