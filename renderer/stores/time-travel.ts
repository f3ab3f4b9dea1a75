/**
 * Time travel: when the user picks a past time T on the timeline, the views that can show the
 * past (Overview, Graph) read the cluster's objects at T from here instead of the live store,
 * and show "viewing <T> — back to live". `at === null` means live.
 *
 * The state at T arrives a page at a time (`history:state-at`, messages stay small), with
 * progress; a newer `load` or `live()` abandons a load in flight. `source` offers the objects
 * the way the live cluster store does (`objects(kind)`, `revision(kind)`), so a table built on
 * the live store can show the past unchanged.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import { BUILTIN_RESOLVER } from '../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../shared/cluster.ts';
import type { ResponseOf } from '../../shared/contract.ts';
import type { HistorySourceUse } from '../../shared/contracts/history-sources.ts';
import type { KdError, Result } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { formatMoment } from '../components/charts/time-format.ts';
import { useContextsStore } from './contexts.ts';

/** Objects per `history:state-at` page: the contract's maximum keeps round trips few. */
export const STATE_PAGE_SIZE = 2_000;

export interface TimeTravelProgress {
  loaded: number;
  /** Known after the first page. */
  total: number | null;
}

/** The past cluster, read like the live store (see the file comment). */
export interface PastCluster {
  objects(kind: KindKey): ReadonlyMap<string, SlimObject>;
  revision(kind: KindKey): number;
  /** The past never changes under a view: every load is a new revision and a full rebuild. */
  changedSince(kind: KindKey, since: number): null;
}

const EMPTY: ReadonlyMap<string, SlimObject> = new Map();

function describeFailure(error: KdError, at: number): string {
  if (error.code === 'unavailable') return `The cluster at this time cannot be rebuilt: ${error.message}`;
  if (error.code === 'not-found') return `Nothing was recorded at this time: ${error.message}`;
  if (error.code === 'transport') return `The engine link dropped while loading (${error.message}). Retry once it is back.`;
  return `Loading the cluster as of ${formatMoment(at)} failed: ${error.message}`;
}

export const useTimeTravelStore = defineStore('time-travel', () => {
  /** The past moment on view (ms since the epoch), or null for live. */
  const at = ref<number | null>(null);
  /** The cluster's objects at `at`, once loaded (null while live or loading). */
  const objects = shallowRef<readonly SlimObject[] | null>(null);
  const loading = ref(false);
  const progress = ref<TimeTravelProgress | null>(null);
  const error = ref<string | null>(null);
  /** The history source (a headless recorder) that observed the moment on view; null: this app did (or live). */
  const recordedBy = ref<string | null>(null);
  /** History sources that failed while the moment was looked for (the answer came from another observer). */
  const sourceErrors = ref<HistorySourceUse[]>([]);
  const byKind = shallowRef<ReadonlyMap<KindKey, ReadonlyMap<string, SlimObject>>>(new Map());
  /** Bumped per completed load (what `source.revision` reports). */
  const loaded = ref(0);
  let generation = 0;

  const source = computed<PastCluster>(() => {
    const kinds = byKind.value;
    const revision = loaded.value;
    return {
      objects: (kind) => kinds.get(kind) ?? EMPTY,
      revision: () => revision,
      changedSince: () => null,
    };
  });

  /**
   * A past state by kind key. Its objects come without keys (they are rebuilt from the object
   * log), so each is filed by its apiVersion group and kind; one of a kind not known is left out.
   */
  function index(list: readonly SlimObject[]): Map<KindKey, Map<string, SlimObject>> {
    const next = new Map<KindKey, Map<string, SlimObject>>();
    for (const object of list) {
      const kind = BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind);
      if (kind === undefined) continue;
      let map = next.get(kind);
      if (!map) next.set(kind, (map = new Map()));
      map.set(object.metadata.uid, object);
    }
    return next;
  }

  /** Shows the cluster as it was at `time`; resolves when loaded, failed or superseded. */
  async function load(time: number): Promise<void> {
    const mine = ++generation;
    at.value = time;
    objects.value = null;
    byKind.value = new Map();
    loading.value = true;
    error.value = null;
    recordedBy.value = null;
    sourceErrors.value = [];
    progress.value = { loaded: 0, total: null };
    const collected: SlimObject[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page: number = offset;
      const result: Result<ResponseOf<'history:state-at'>> = await api().request('history:state-at', { at: time, offset: page, limit: STATE_PAGE_SIZE });
      if (mine !== generation) return;
      if (!result.ok) {
        error.value = describeFailure(result.error, time);
        loading.value = false;
        return;
      }
      // The first page says who observed the moment; the engine serves the other pages from the same one.
      if (page === 0) {
        recordedBy.value = result.value.recordedBy ?? null;
        sourceErrors.value = (result.value.sources ?? []).filter((use) => use.state === 'error');
      }
      for (const object of result.value.objects) collected.push(object);
      progress.value = { loaded: collected.length, total: result.value.total };
      // A page that brings nothing new cannot make progress; stop rather than loop forever.
      offset = result.value.nextOffset !== null && result.value.nextOffset > page ? result.value.nextOffset : null;
    }
    objects.value = collected;
    byKind.value = index(collected);
    loaded.value += 1;
    loading.value = false;
  }

  /** Loads the same moment again (after a failure). */
  function retry(): Promise<void> {
    return at.value === null ? Promise.resolve() : load(at.value);
  }

  /** Back to the live cluster. */
  function live(): void {
    generation += 1;
    at.value = null;
    objects.value = null;
    byKind.value = new Map();
    loading.value = false;
    progress.value = null;
    error.value = null;
    recordedBy.value = null;
    sourceErrors.value = [];
  }

  // The past of one context says nothing about another.
  const contexts = useContextsStore();
  watch(
    () => contexts.selected,
    (next, previous) => {
      if (previous !== null && next !== previous && at.value !== null) live();
    },
  );

  return { at, objects, loading, progress, error, recordedBy, sourceErrors, source, load, retry, live };
});
