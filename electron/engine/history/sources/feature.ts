/**
 * History sources as an engine feature: the `history:sources` (list, and its stream),
 * `history:source-add`, `history:source-remove` and `history:recorded` channels, and the
 * wrapping of the history feature's handlers so the selected context's timeline (`history:episodes`, `history:series`, `history:episode`) merges
 * what every source recording that context has (merge.ts), and the state at a past time and
 * compare (`history:state-at`, `history:compare`, and the Graph's past through `objectsAt`) come
 * from whoever observed the moment (past.ts).
 * A failing source never fails the answer: the app's own history is served, and the answer's
 * `sources` says which source failed and why.
 */
import type { Episode, EpisodeList, SeriesResult } from '../../../../shared/contracts/history.ts';
import { MAX_HISTORY_SOURCES, type HistorySourceUse, type historySourcesRequests } from '../../../../shared/contracts/history-sources.ts';
import { err, ok, type Result } from '../../../../shared/result.ts';
import type { Handler } from '../../dispatcher.ts';
import type { EngineContext, Feature, ObjectsAt } from '../../features.ts';
import { loadSources, saveSources } from './config.ts';
import { createSourceManager, type SourceManager, type SourceManagerOptions } from './manager.ts';
import { mergeEpisodeLists, mergeSeries, type SourcePart } from './merge.ts';
import { createPastQueries } from './past.ts';
import { SourceFailure } from './client.ts';

/** The history handlers this feature merges into. */
export interface MergedHistoryHandlers {
  'history:episodes': Handler<'history:episodes'>;
  'history:series': Handler<'history:series'>;
  'history:episode': Handler<'history:episode'>;
  'history:state-at': Handler<'history:state-at'>;
  'history:compare': Handler<'history:compare'>;
}

export interface HistorySourcesFeature extends Feature<typeof historySourcesRequests> {
  /** The history feature's handlers with the sources merged in. */
  merged<H extends MergedHistoryHandlers>(handlers: H): H;
  /** The app's own `objectsAt` (the Graph at a past time) answered by whoever observed the moment, once `merged` has run. */
  objectsAt(own: ObjectsAt): ObjectsAt;
  readonly manager: SourceManager;
}

/** Most source episode ids remembered for `history:episode` (the oldest are forgotten first). */
const MAX_REMOTE_IDS = 100_000;

export interface HistorySourcesFeatureOptions extends Partial<Pick<SourceManagerOptions, 'timeoutMs' | 'checkIntervalMs' | 'retryIntervalMs'>> {
  /** Every context some source records (the first source to record a name gives it), after each change. */
  onRecordedContexts?(contexts: Array<{ name: string; server?: string | undefined; source: string }>): void;
}

export function createHistorySourcesFeature(context: EngineContext, options: HistorySourcesFeatureOptions = {}): HistorySourcesFeature {
  const { onRecordedContexts, ...timing } = options;
  const manager = createSourceManager({
    now: context.now,
    log: context.log,
    save: (sources) => saveSources(context.dataDir, sources),
    onChange: (sources) => {
      context.hub.emit('history:sources', { sources });
      const recorded = new Map<string, { name: string; server?: string | undefined; source: string }>();
      for (const source of sources) for (const entry of source.contexts) if (!recorded.has(entry.name)) recorded.set(entry.name, { ...entry, source: source.name });
      onRecordedContexts?.([...recorded.values()]);
    },
    ...timing,
  });
  /** A source's episode gets a negative id of the app's, so `history:episode` can find where to ask. */
  const remoteIds = new Map<number, { source: string; context: string; id: number }>();
  const idsByKey = new Map<string, number>();
  let nextId = -1;
  /** State at and compare with the sources (past.ts), once `merged` has the history feature's handlers. */
  let past: ReturnType<typeof createPastQueries> | undefined;

  function idMap(sources: ReadonlyArray<{ id: string; name: string; context: string }>) {
    return (name: string, id: number): number => {
      const source = sources.find((entry) => entry.name === name);
      if (!source) return id;
      const key = `${source.id}\0${source.context}\0${id}`;
      let mapped = idsByKey.get(key);
      if (mapped === undefined) {
        if (remoteIds.size >= MAX_REMOTE_IDS) {
          const oldest = remoteIds.keys().next().value as number;
          const entry = remoteIds.get(oldest);
          remoteIds.delete(oldest);
          if (entry) idsByKey.delete(`${entry.source}\0${entry.context}\0${entry.id}`);
        }
        mapped = nextId--;
        idsByKey.set(key, mapped);
        remoteIds.set(mapped, { source: source.id, context: source.context, id });
      }
      return mapped;
    };
  }

  /** Asks every source recording the selected context; each answers, or says why not. */
  async function gather<T>(ask: (id: string, sourceContext: string) => Promise<Result<T>>) {
    const selected = context.selected();
    if (!selected || selected.readOnly) return { sources: [], parts: [] as SourcePart<T>[], uses: [] as HistorySourceUse[] };
    const sources = manager.recording(selected);
    const statuses = new Map(manager.list().map((status) => [status.id, status]));
    const answers = await Promise.all(
      sources.map(async (source): Promise<{ part?: SourcePart<T>; use: HistorySourceUse }> => {
        const status = statuses.get(source.id);
        // A source whose last check failed is not asked again per query (its checks retry): its error is reported.
        if (status?.state === 'error' && status.lastError) return { use: { name: source.name, state: 'error', message: status.lastError.message } };
        try {
          const result = await ask(source.id, source.context);
          if (result.ok) return { part: { source: source.name, value: result.value }, use: { name: source.name, state: 'merged' } };
          // Nothing recorded there for this workload is not a failure of the source.
          if (result.error.code === 'not-found') return { use: { name: source.name, state: 'merged' } };
          return { use: { name: source.name, state: 'error', message: result.error.message } };
        } catch (error) {
          return { use: { name: source.name, state: 'error', message: error instanceof SourceFailure ? error.message : (error as Error).message } };
        }
      }),
    );
    return { sources, parts: answers.flatMap((answer) => (answer.part ? [answer.part] : [])), uses: answers.map((answer) => answer.use) };
  }

  return {
    manager,
    handlers: {
      'history:sources': () => ok({ sources: manager.list() }),
      'history:source-add': async (request) => {
        if (manager.list().some((source) => source.name === request.name)) return err('invalid-request', `There already is a history source named "${request.name}".`);
        if (manager.list().length >= MAX_HISTORY_SOURCES) return err('invalid-request', `At most ${MAX_HISTORY_SOURCES} history sources: remove one before adding another.`);
        return ok({ sources: await manager.add(request) });
      },
      'history:source-remove': async ({ id }) => {
        if (!manager.list().some((source) => source.id === id)) return err('not-found', `There is no history source ${id}.`);
        return ok({ sources: await manager.remove(id) });
      },
      'history:recorded': () => {
        const selected = context.selected();
        const names = new Set([...(selected && !selected.readOnly ? [selected.name] : []), ...(context.settings.get().backgroundContexts ?? [])]);
        return ok({ contexts: [...names].map((name) => (selected?.name === name && selected.server ? { name, server: selected.server } : { name })) });
      },
    },
    merged(handlers) {
      const episodes: Handler<'history:episodes'> = async (request) => {
        const [local, remote] = await Promise.all([handlers['history:episodes'](request), gather((id, name) => manager.query(id, name, 'history:episodes', request))]);
        if (remote.uses.length === 0) return local;
        const merged = mergeEpisodeLists(local.ok ? local.value : null, remote.parts, idMap(remote.sources), context.now());
        if (!merged) return local.ok ? ok({ ...local.value, sources: remote.uses }) : local;
        return ok({ ...merged, sources: remote.uses } satisfies EpisodeList);
      };
      const series: Handler<'history:series'> = async (request) => {
        const [local, remote] = await Promise.all([handlers['history:series'](request), gather((id, name) => manager.query(id, name, 'history:series', request))]);
        if (remote.uses.length === 0) return local;
        const merged = mergeSeries(local.ok ? local.value : null, remote.parts, idMap(remote.sources), context.now());
        if (!merged) return local.ok ? ok({ ...local.value, sources: remote.uses }) : local;
        return ok({ ...merged, sources: remote.uses } satisfies SeriesResult);
      };
      const episode: Handler<'history:episode'> = async (request) => {
        const remote = remoteIds.get(request.id);
        if (!remote) return handlers['history:episode'](request);
        const name = manager.list().find((status) => status.id === remote.source)?.name;
        if (!name) return err('not-found', `Drift episode ${request.id} came from a history source that was removed.`);
        try {
          const answer = await manager.query(remote.source, remote.context, 'history:episode', { id: remote.id });
          return answer.ok ? ok({ ...answer.value, id: request.id, recordedBy: answer.value.recordedBy ?? name } satisfies Episode) : answer;
        } catch (error) {
          return err('unavailable', `History source ${name}: ${(error as Error).message}`);
        }
      };
      past = createPastQueries(handlers, { manager, selected: context.selected, now: context.now });
      return { ...handlers, 'history:episodes': episodes, 'history:series': series, 'history:episode': episode, 'history:state-at': past['history:state-at'], 'history:compare': past['history:compare'] };
    },
    objectsAt(own) {
      return (at) => (past ? past.objectsAt(at, own) : own(at));
    },
    async start() {
      const { sources, warning } = await loadSources(context.dataDir);
      if (warning) context.log(`[kubedrift] ${warning}`);
      manager.load(sources);
    },
    dispose() {
      manager.dispose();
    },
  };
}
