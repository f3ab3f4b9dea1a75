/**
 * The cluster at a past time (`history:state-at`) and what changed between two times
 * (`history:compare`) with history sources: a moment is answered by whoever observed it. The
 * app's own history when its coverage includes the moment (it is preferred), else the first
 * source, in the order the user added them, whose coverage includes it; the answer says which
 * (`recordedBy`). Coverage is each observer's own (its `history:episodes` gaps around the
 * moment): rebuilding a moment nobody observed gives the last state seen before it, which may be
 * hours stale, so an observer that did not see it is asked only when nobody did (the app first).
 *
 * A source that fails (unreachable, refused, an answer the contract does not allow) fails alone:
 * the next observer answers, and the answer's `sources` names the failure; only when nobody can
 * answer is the request an error, and its message names every failure.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { ResponseOf } from '../../../../shared/contract.ts';
import type { CoverageGap, WorkloadChange } from '../../../../shared/contracts/history.ts';
import type { HistorySourceUse } from '../../../../shared/contracts/history-sources.ts';
import { err, ok, type Result } from '../../../../shared/result.ts';
import type { Handler } from '../../dispatcher.ts';
import type { ObjectsAt } from '../../features.ts';
import { changedFields } from '../compare.ts';
import { SourceFailure } from './client.ts';
import type { SourceManager } from './manager.ts';

/** The app's own handlers this module answers from when the app observed the moment. */
export interface LocalPastHandlers {
  'history:episodes': Handler<'history:episodes'>;
  'history:state-at': Handler<'history:state-at'>;
  'history:compare': Handler<'history:compare'>;
}

/** A source recording the selected context, with the name it knows the context by. */
interface Recording {
  id: string;
  name: string;
  context: string;
}

/** Who can answer for a moment: the app (`source` absent) or a source; `covered` when it observed the moment. */
interface Observer {
  source?: Recording;
  covered: boolean;
}

/** How many `history:state-at` moments remember who answered their first page. */
const REMEMBERED_MOMENTS = 16;
/** Objects per page when a source's state at a time is read whole (the contract's maximum). */
const SOURCE_PAGE = 2_000;

/** Whether an answer's coverage includes `at`: recorded by then, and `at` in no gap. Unknown coverage (an older engine) is none. */
export function coversAt(answer: { since: number | null; gaps?: readonly CoverageGap[] | undefined }, at: number): boolean {
  if (answer.gaps === undefined || answer.since === null || at < answer.since) return false;
  return !answer.gaps.some((gap) => gap.start < at && at < gap.end);
}

export interface PastQueriesOptions {
  manager: Pick<SourceManager, 'recording' | 'query' | 'list'>;
  /** The selected context, or null; an opened snapshot is never asked of sources. */
  selected(): { name: string; server?: string | undefined; readOnly?: boolean | undefined } | null;
  now(): number;
}

/** What one request learnt of its observers: how each source took part, and why the app's own history could not be asked. */
interface Asked {
  uses: Map<string, HistorySourceUse>;
  localError?: string;
}

/** One observer's refusal; `found` false when it said the moment is outside its history. */
interface Failure {
  found: boolean;
  line: string;
}

const sourceMessage = (error: unknown): string => (error instanceof SourceFailure ? error.message : (error as Error).message);

export function createPastQueries(local: LocalPastHandlers, options: PastQueriesOptions) {
  const { manager } = options;
  /** `context\0at` → who answered the first page (null: the app), so every page comes from the same observer. */
  const answeredBy = new Map<string, string | null>();

  function recordings(): Recording[] {
    const selected = options.selected();
    if (!selected || selected.readOnly) return [];
    return manager.recording(selected);
  }

  /** One request to a source, its failures as an Err (never thrown). */
  async function ask<C extends 'history:episodes' | 'history:state-at' | 'history:compare'>(source: Recording, channel: C, payload: unknown): Promise<Result<ResponseOf<C>>> {
    const status = manager.list().find((entry) => entry.id === source.id);
    // A source whose last check failed is not asked again per query (its checks retry).
    if (status?.state === 'error' && status.lastError) return err('unavailable', status.lastError.message);
    try {
      return await manager.query(source.id, source.context, channel, payload);
    } catch (error) {
      return err('unavailable', sourceMessage(error));
    }
  }

  /**
   * Every observer of the selected context for `at`: those that observed it first (the app
   * first), then the others. The app is left out when it has no history of the context (a
   * context only a source records, a store that cannot be opened): its reason is then `localError`.
   */
  async function observers(at: number, sources: readonly Recording[], asked: Asked): Promise<Observer[]> {
    const around = { from: at - 1, to: at + 1, limit: 1 };
    const own = await local['history:episodes'](around);
    // The app saw it: no source is asked at all (the common case costs no round trip).
    if (own.ok && (at >= options.now() || coversAt(own.value, at))) return [{ covered: true }];
    const all: Observer[] = own.ok ? [{ covered: false }] : [];
    if (!own.ok) asked.localError = own.error.message;
    const theirs = await Promise.all(sources.map((source) => ask(source, 'history:episodes', around)));
    sources.forEach((source, index) => {
      const answer = theirs[index];
      if (answer && !answer.ok) asked.uses.set(source.name, { name: source.name, state: 'error', message: answer.error.message });
      else all.push({ source, covered: answer !== undefined && coversAt(answer.value, at) });
    });
    return [...all.filter((observer) => observer.covered), ...all.filter((observer) => !observer.covered)];
  }

  /** The first observer's answer that is not an error; failures of sources land in `uses`. */
  async function firstAnswer<T>(candidates: readonly Observer[], run: (observer: Observer) => Promise<Result<T>>, asked: Asked): Promise<{ observer: Observer; value: T } | { errors: Failure[] }> {
    const errors: Failure[] = [];
    for (const observer of candidates) {
      const result = await run(observer);
      if (result.ok) {
        if (observer.source) asked.uses.set(observer.source.name, { name: observer.source.name, state: 'merged' });
        return { observer, value: result.value };
      }
      // Not found (before its history, before its first state) is an answer, not a failing source.
      if (observer.source && result.error.code !== 'not-found') asked.uses.set(observer.source.name, { name: observer.source.name, state: 'error', message: result.error.message });
      errors.push({ found: result.error.code !== 'not-found', line: observer.source ? `History source ${observer.source.name}: ${result.error.message}` : result.error.message });
    }
    return { errors };
  }

  /** Nobody could answer: `not-found` when everyone said the moment is outside its history, else each failure (the app's first). */
  function failure(errors: readonly Failure[], asked: Asked): Result<never> {
    const named = new Set(errors.map((entry) => entry.line));
    const failed = [...asked.uses.values()].filter((use) => use.state === 'error').map((use) => `History source ${use.name}: ${use.message ?? 'failed'}`).filter((line) => !named.has(line));
    const lines = [...(asked.localError && errors.length === 0 ? [asked.localError] : []), ...errors.map((entry) => entry.line), ...failed];
    const notFound = errors.length > 0 && failed.length === 0 && errors.every((entry) => !entry.found);
    return err(notFound ? 'not-found' : 'unavailable', lines.join(' ') || 'Nobody recorded this context.');
  }

  const stateAt: Handler<'history:state-at'> = async (request) => {
    const sources = recordings();
    if (sources.length === 0) return local['history:state-at'](request);
    const key = `${options.selected()?.name ?? ''}\0${request.at}`;
    const asked: Asked = { uses: new Map() };
    let candidates: Observer[];
    const remembered = request.offset > 0 ? answeredBy.get(key) : undefined;
    const same = sources.find((source) => source.name === remembered);
    if (remembered === null) candidates = [{ covered: true }];
    else if (same) candidates = [{ source: same, covered: true }];
    else candidates = await observers(request.at, sources, asked);
    const answer = await firstAnswer(candidates, (observer) => (observer.source ? ask(observer.source, 'history:state-at', request) : Promise.resolve(local['history:state-at'](request))), asked);
    if ('errors' in answer) return failure(answer.errors, asked);
    answeredBy.delete(key);
    answeredBy.set(key, answer.observer.source?.name ?? null);
    if (answeredBy.size > REMEMBERED_MOMENTS) answeredBy.delete(answeredBy.keys().next().value as string);
    const { recordedBy: _ignored, sources: _theirs, ...value } = answer.value;
    return ok({ ...value, ...(answer.observer.source ? { recordedBy: answer.observer.source.name } : {}), sources: [...asked.uses.values()] });
  };

  /** Each workload as the observer saw it at `at` (a compare from before anything existed: every one present is `created`). */
  function presentAt(observer: Observer, at: number, namespace: string | undefined): Promise<Result<ResponseOf<'history:compare'>>> {
    const request = { t1: 0, t2: at, ...(namespace !== undefined ? { namespace } : {}) };
    return observer.source ? ask(observer.source, 'history:compare', request) : Promise.resolve(local['history:compare'](request));
  }

  const compare: Handler<'history:compare'> = async (request) => {
    const sources = recordings();
    if (sources.length === 0) return local['history:compare'](request);
    const asked: Asked = { uses: new Map() };
    const [first, second] = await Promise.all([observers(request.t1, sources, asked), observers(request.t2, sources, asked)]);
    const name = (observer: Observer): string | null => observer.source?.name ?? null;
    const recordedBy = (t1: Observer, t2: Observer) => (t1.source || t2.source ? { recordedBy: { ...(t1.source ? { t1: t1.source.name } : {}), ...(t2.source ? { t2: t2.source.name } : {}) } } : {});
    // One observer that saw both moments answers alone: its own compare.
    const both = first.filter((observer) => observer.covered && second.some((other) => other.covered && name(other) === name(observer)));
    if (both.length > 0) {
      const answer = await firstAnswer(both, (observer) => (observer.source ? ask(observer.source, 'history:compare', request) : Promise.resolve(local['history:compare'](request))), asked);
      if (!('errors' in answer)) {
        const { recordedBy: _ignored, sources: _theirs, ...value } = answer.value;
        return ok({ ...value, ...recordedBy(answer.observer, answer.observer), sources: [...asked.uses.values()] });
      }
    }
    // Otherwise each moment from whoever observed it, compared here.
    const [before, after] = await Promise.all([firstAnswer(first, (observer) => presentAt(observer, request.t1, request.namespace), asked), firstAnswer(second, (observer) => presentAt(observer, request.t2, request.namespace), asked)]);
    if ('errors' in before) return failure(before.errors, asked);
    if ('errors' in after) return failure(after.errors, asked);
    return ok({ t1: request.t1, t2: request.t2, changes: joinMoments(before.value.changes, after.value.changes), ...recordedBy(before.observer, after.observer), sources: [...asked.uses.values()] });
  };

  /** A source's state at `at`, every page; throws its failure as a sentence. */
  async function wholeState(source: Recording, at: number): Promise<{ objects: SlimObject[]; at: number }> {
    const objects: SlimObject[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page: Result<ResponseOf<'history:state-at'>> = await ask(source, 'history:state-at', { at, offset, limit: SOURCE_PAGE });
      if (!page.ok) throw new Error(`History source ${source.name}: ${page.error.message}`);
      objects.push(...page.value.objects);
      offset = page.value.nextOffset !== null && page.value.nextOffset > offset ? page.value.nextOffset : null;
    }
    return { objects, at };
  }

  /**
   * The cluster at `at` for the engine's other features (the Graph at a past time), from the
   * same observer `history:state-at` would take; `local` is the app's own.
   */
  async function objectsAt(at: number, own: ObjectsAt): Promise<{ objects: SlimObject[]; at: number }> {
    const sources = recordings();
    if (sources.length === 0) return own(at);
    const asked: Asked = { uses: new Map() };
    const errors: Failure[] = [];
    for (const observer of await observers(at, sources, asked)) {
      try {
        return observer.source ? await wholeState(observer.source, at) : await own(at);
      } catch (error) {
        errors.push({ found: true, line: (error as Error).message });
      }
    }
    const refused = failure(errors, asked);
    throw new Error(refused.ok ? 'Nobody recorded this context.' : refused.error.message);
  }

  return { 'history:state-at': stateAt, 'history:compare': compare, objectsAt };
}

/** The changes between two moments, each given as the workloads present then (their `after` samples). */
export function joinMoments(atT1: readonly WorkloadChange[], atT2: readonly WorkloadChange[]): WorkloadChange[] {
  const byUid = new Map<string, Pick<WorkloadChange, 'workload' | 'before' | 'after'>>();
  for (const { workload, after } of atT1) byUid.set(workload.uid, { workload, before: after, after: null });
  for (const { workload, after } of atT2) byUid.set(workload.uid, { workload, before: byUid.get(workload.uid)?.before ?? null, after });
  const changes: WorkloadChange[] = [];
  for (const entry of byUid.values()) {
    const changed = changedFields(entry.before, entry.after);
    if (changed.length > 0) changes.push({ ...entry, changed });
  }
  // As the store lists them.
  return changes.sort((a, b) => a.workload.namespace.localeCompare(b.workload.namespace) || a.workload.kind.localeCompare(b.workload.kind) || a.workload.name.localeCompare(b.workload.name));
}
