/**
 * The diff screen's state: the selected context's manifest paths and ignore rules, the run's
 * progress and result (from the `diff:changed` stream, so a run started by a file change shows
 * up on its own), its rows (fetched in pages when a run finishes), the open object's diff and
 * the output of `kubectl diff`. Stale answers (an older run, another object) are dropped.
 */
import { defineStore } from 'pinia';
import { computed, onScopeDispose, ref, shallowRef } from 'vue';
import type { DiffConfig, DiffPathKind, DiffRow, DiffState, IgnoreRule, KubectlDiffResult, ObjectDiff, PathInfo } from '../../shared/contracts/diff.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { onLinkRestored } from './live.ts';

const PAGE_SIZE = 500;
const IDLE: DiffState = { context: null, state: 'idle', done: 0, total: 0 };

export const useDiffStore = defineStore('diff', () => {
  const state = shallowRef<DiffState>(IDLE);
  const config = shallowRef<DiffConfig | null>(null);
  const configError = shallowRef<KdError | null>(null);
  const rows = shallowRef<DiffRow[]>([]);
  const runId = ref<string | null>(null);
  const runError = shallowRef<KdError | null>(null);
  const requested = ref(false);
  const selectedId = ref<string | null>(null);
  const object = shallowRef<ObjectDiff | null>(null);
  const objectError = shallowRef<KdError | null>(null);
  const objectLoading = ref(false);
  const kubectl = shallowRef<KubectlDiffResult | null>(null);
  const kubectlError = shallowRef<KdError | null>(null);
  const kubectlRunning = ref(false);
  let rowsSeq = 0;
  let objectSeq = 0;
  /** The user opened the current object (kept across runs); otherwise the store picked it. */
  let chosen = false;

  const summary = computed(() => state.value.summary ?? null);
  const running = computed(() => requested.value || state.value.state === 'running');

  async function loadConfig(): Promise<void> {
    const result = await api().request('diff:config', {});
    if (result.ok) {
      config.value = result.value;
      configError.value = null;
    } else configError.value = result.error;
  }

  /** Opens an object the user chose. */
  function selectObject(id: string | null): Promise<void> {
    chosen = id !== null;
    return openObject(id);
  }

  async function openObject(id: string | null): Promise<void> {
    selectedId.value = id;
    const seq = ++objectSeq;
    if (!id || !runId.value) {
      object.value = null;
      return;
    }
    objectLoading.value = true;
    const result = await api().request('diff:object', { runId: runId.value, id });
    if (seq !== objectSeq) return;
    objectLoading.value = false;
    object.value = result.ok ? result.value : null;
    objectError.value = result.ok ? null : result.error;
  }

  async function loadRows(id: string): Promise<void> {
    const seq = ++rowsSeq;
    const all: DiffRow[] = [];
    for (let offset = 0; ; offset += PAGE_SIZE) {
      const page = await api().request('diff:rows', { runId: id, offset, limit: PAGE_SIZE });
      if (seq !== rowsSeq) return;
      if (!page.ok) {
        runError.value = page.error;
        return;
      }
      all.push(...page.value.rows);
      if (all.length >= page.value.total || page.value.rows.length === 0) break;
    }
    runId.value = id;
    rows.value = all;
    // Keep an object the user opened while it is still there; otherwise open the first row that needs a look.
    const keep = chosen && selectedId.value && all.some((row) => row.id === selectedId.value);
    await openObject(keep ? selectedId.value : ((all.find((row) => row.status === 'OutOfSync' || row.status === 'Missing') ?? all[0])?.id ?? null));
  }

  function applyState(next: DiffState): void {
    const previous = state.value;
    state.value = next;
    if (next.context !== previous.context) {
      rows.value = [];
      runId.value = null;
      object.value = null;
      selectedId.value = null;
      chosen = false;
      kubectl.value = null;
      if (next.context !== config.value?.context) void loadConfig();
    }
    if (next.state === 'done' && next.summary && (next.summary.runId !== runId.value || next.trigger === 'ignore')) void loadRows(next.summary.runId);
    if (next.state === 'idle' && next.context === previous.context) {
      rows.value = [];
      runId.value = null;
      void openObject(null);
    }
  }

  const unsubscribe = api().subscribe('diff:changed', applyState);
  const stopWatch = onLinkRestored(() => void loadConfig());
  onScopeDispose(() => {
    unsubscribe();
    stopWatch();
  });
  void loadConfig();

  /** Runs the diff; progress and the result arrive on the stream. */
  async function run(): Promise<void> {
    if (requested.value) return;
    requested.value = true;
    runError.value = null;
    const result = await api().request('diff:run', {});
    requested.value = false;
    if (!result.ok) runError.value = result.error;
    // The stream normally brought the result already; this covers a missed stream message.
    else if (state.value.summary?.runId !== result.value.runId) await loadRows(result.value.runId);
  }

  async function inspect(path: string): Promise<PathInfo | KdError> {
    const result = await api().request('diff:inspect', { path });
    return result.ok ? result.value : result.error;
  }

  /** The desktop app's native picker: the chosen path, null when cancelled, or why it could not open. */
  async function choosePath(kind: DiffPathKind): Promise<string | null | KdError> {
    const result = await api().request('diff:choose-path', { kind });
    return result.ok ? result.value.path : result.error;
  }

  /** Saves the paths; answers the engine's refusal (a path that does not exist), or null. */
  async function setPaths(paths: string[]): Promise<KdError | null> {
    const result = await api().request('diff:paths', { paths });
    if (!result.ok) return result.error;
    config.value = result.value;
    return null;
  }

  const addPath = (path: string) => setPaths([...(config.value?.paths.map((p) => p.path) ?? []), path]);

  /** On the demo context: uses the demo's own manifests (shipped with the app) and runs the diff. */
  async function tryDemoManifests(): Promise<KdError | null> {
    const folder = config.value?.demoManifests;
    if (!folder) return null;
    const refused = await setPaths([folder]);
    if (refused) return refused;
    await run();
    return null;
  }
  const removePath = (path: string) => setPaths((config.value?.paths.map((p) => p.path) ?? []).filter((p) => p !== path));

  async function ignore(rule: IgnoreRule): Promise<KdError | null> {
    const result = await api().request('diff:ignore', { rule });
    if (!result.ok) return result.error;
    config.value = result.value;
    return null;
  }

  async function unignore(index: number): Promise<KdError | null> {
    const result = await api().request('diff:unignore', { index });
    if (!result.ok) return result.error;
    config.value = result.value;
    return null;
  }

  async function exportIgnores(): Promise<string | KdError> {
    const result = await api().request('diff:export', {});
    return result.ok ? result.value.yaml : result.error;
  }

  async function runKubectl(): Promise<void> {
    kubectlRunning.value = true;
    kubectlError.value = null;
    const result = await api().request('diff:kubectl', {});
    kubectlRunning.value = false;
    kubectl.value = result.ok ? result.value : null;
    kubectlError.value = result.ok ? null : result.error;
  }

  return {
    state,
    config,
    configError,
    rows,
    runId,
    runError,
    summary,
    running,
    selectedId,
    object,
    objectError,
    objectLoading,
    kubectl,
    kubectlError,
    kubectlRunning,
    loadConfig,
    run,
    selectObject,
    inspect,
    choosePath,
    setPaths,
    addPath,
    removePath,
    tryDemoManifests,
    ignore,
    unignore,
    exportIgnores,
    runKubectl,
  };
});
