/**
 * The ownership graph on screen: which scope (a namespace, all of them, or a focused object),
 * which groups are expanded, the engine's answer, the selected node and its side panel. Live
 * graphs refresh when `graph:changed` says their namespace changed (at most one request in
 * flight, one more queued); at a past time (time travel) the graph is asked for with `at` and
 * stays still. Nothing polls.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef, watch } from 'vue';
import type { GraphChanged, GraphNode, GraphObject, GraphRequest, GraphResult } from '../../shared/contracts/graph.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { detailChangeKey, graphChangeKey, graphNamespaces } from '../components/graph/changes.ts';
import type { LayoutMemory } from '../components/graph/layout.ts';
import { isObjectNode } from '../components/graph/present.ts';
import { onLinkRestored } from './live.ts';
import { useTimeTravelStore } from './time-travel.ts';

export interface GraphScope {
  /** null: every namespace. */
  namespace: string | null;
  /** The focused object's uid. */
  focus: string | null;
}

const scopeKey = (scope: GraphScope): string => JSON.stringify([scope.namespace, scope.focus]);

export const useGraphStore = defineStore('graph', () => {
  const timeTravel = useTimeTravelStore();
  const scope = shallowRef<GraphScope | null>(null);
  const expanded = shallowRef<readonly string[]>([]);
  const result = shallowRef<GraphResult | null>(null);
  const loading = ref(false);
  const error = shallowRef<KdError | null>(null);
  const selectedId = ref<string | null>(null);
  const detail = shallowRef<GraphObject | null>(null);
  const detailError = shallowRef<KdError | null>(null);
  const detailLoading = ref(false);
  /** The layout's kept band heights per scope, so returning to a view finds it as it was. */
  const memories = new Map<string, LayoutMemory>();

  const selected = computed<GraphNode | null>(() => result.value?.nodes.find((node) => node.id === selectedId.value) ?? null);

  let latest = 0;
  let inFlight = false;
  let queued = false;

  function request(): GraphRequest | null {
    const current = scope.value;
    if (!current) return null;
    return {
      ...(current.namespace !== null && current.focus === null ? { namespace: current.namespace } : {}),
      ...(current.focus !== null ? { focus: current.focus } : {}),
      ...(expanded.value.length > 0 ? { expand: [...expanded.value] } : {}),
      ...(timeTravel.at !== null ? { at: timeTravel.at } : {}),
    };
  }

  /** Asks for the graph; `fresh` (a new scope or time) drops the shown one while it loads. */
  async function load(fresh = false): Promise<void> {
    const payload = request();
    if (!payload) return;
    if (fresh) {
      result.value = null;
      error.value = null;
    } else if (inFlight) {
      queued = true;
      return;
    }
    const ticket = ++latest;
    inFlight = true;
    loading.value = true;
    const answer = await api().request('graph:get', payload);
    if (ticket !== latest) return;
    inFlight = false;
    loading.value = false;
    if (answer.ok) {
      result.value = answer.value;
      error.value = null;
    } else error.value = answer.error;
    if (queued) {
      queued = false;
      void load();
    }
  }

  async function loadDetail(quiet = false): Promise<void> {
    const uid = selectedId.value;
    // Groups and reference nodes have no object behind them; the panel shows what the node says.
    if (uid === null || !isObjectNode({ id: uid, kind: '' })) {
      detail.value = null;
      detailError.value = null;
      return;
    }
    if (!quiet) {
      detailLoading.value = true;
      detail.value = null;
    }
    const answer = await api().request('graph:object', { uid, ...(timeTravel.at !== null ? { at: timeTravel.at } : {}) });
    if (selectedId.value !== uid) return;
    detailLoading.value = false;
    if (answer.ok) {
      detail.value = answer.value;
      detailError.value = null;
    } else detailError.value = answer.error;
  }

  /** Shows `next`; a change of scope starts over (selection, expanded groups). */
  function show(next: GraphScope): void {
    if (scope.value && scopeKey(scope.value) === scopeKey(next)) return;
    scope.value = next;
    expanded.value = [];
    // A new scope opens on the whole picture: the panel opens on a click, not over the graph.
    selectedId.value = null;
    void load(true);
    void loadDetail();
  }

  function select(node: GraphNode | null): void {
    if (node?.kind === 'Group' && node.group?.expandable) {
      expand(node.id);
      return;
    }
    selectedId.value = node?.id ?? null;
    detailError.value = null;
    void loadDetail();
  }

  function expand(id: string): void {
    if (expanded.value.includes(id)) return;
    expanded.value = [...expanded.value, id];
    void load();
  }

  function collapse(ids: readonly string[] = expanded.value): void {
    const drop = new Set(ids);
    expanded.value = expanded.value.filter((id) => !drop.has(id));
    void load();
  }

  function layoutMemory(): LayoutMemory | undefined {
    return scope.value ? memories.get(`${scopeKey(scope.value)}|${timeTravel.at ?? 'live'}`) : undefined;
  }

  function rememberLayout(memory: LayoutMemory): void {
    if (scope.value) memories.set(`${scopeKey(scope.value)}|${timeTravel.at ?? 'live'}`, memory);
  }

  // A new past time (or back to live) is a new picture.
  watch(
    () => timeTravel.at,
    () => {
      if (!scope.value) return;
      void load(true);
      void loadDetail();
    },
  );

  /** Follows `graph:changed` while the graph screen is open; returns the stop function. */
  function activate(): () => void {
    let graphKey: string | null = null;
    let panelKey: string | null = null;
    // A new scope loads on its own; its first change key is only a baseline.
    const stopScope = watch(scope, () => {
      graphKey = null;
    });
    const stopChanges = api().subscribe('graph:changed', (changed: GraphChanged) => {
      if (timeTravel.at !== null || !scope.value) return;
      const nextGraph = graphChangeKey(changed, graphNamespaces(scope.value, result.value));
      // The first counters seen: reload only if the graph shown is older than them.
      const stale = graphKey === null ? result.value !== null && changed.revision > result.value.revision : nextGraph !== graphKey;
      if (stale) void load();
      graphKey = nextGraph;
      const namespace = detail.value?.node.namespace ?? '';
      const nextPanel = detail.value ? detailChangeKey(changed, namespace) : null;
      if (panelKey !== null && nextPanel !== null && nextPanel !== panelKey) void loadDetail(true);
      panelKey = nextPanel;
    });
    const stopLink = onLinkRestored(() => {
      void load();
      void loadDetail(true);
    });
    return () => {
      stopScope();
      stopChanges();
      stopLink();
    };
  }

  return { scope, expanded, result, loading, error, selectedId, selected, detail, detailError, detailLoading, show, load, select, expand, collapse, loadDetail, activate, layoutMemory, rememberLayout };
});
