/**
 * The app at Kubernetes' ceiling, in the page (issue #21): the browser shell (engine, history
 * recorder, WebSocket server) in this process, a simulated cluster of 150,000 pods on 5,000 nodes
 * in a process of its own (`--pods/--nodes/--namespaces` change it; --quick seeds 1,000 pods),
 * and the built renderer in headless Chromium (live-browser.ts). Once the renderer store holds
 * every object:
 * - `renderer_heap_mb_150k`: the page's JavaScript heap after a forced collection, in MiB, on the
 *   Overview just after the sync. Goal <= 1,024 (1 GiB). `renderer_heap_mb_150k_after_views`
 *   is the same after the Pods screen and the Graph have been used (their rows and graphs kept).
 * - Sort, filter (namespace) and search on the Overview (the cluster's workloads) and on the Pods
 *   screen (every pod, the 150,000-row table), each timed in the page from the action until its
 *   rows are painted (table-interactions.ts): `<screen>_<interaction>_150k_ms` is the slowest,
 *   `..._median_ms` the median. Goal < 100 ms per interaction, so on the slowest.
 * - The Graph focused on a namespace (`graph_focus_namespace_150k_ms`) and on a Deployment
 *   (`graph_focus_workload_150k_ms`): from setting the location (what the namespace picker and a
 *   double-click do) until the new graph is drawn, which includes the engine building it. Goal
 *   < 200 ms, on the slowest.
 * - `scale_page_history_recording`: history was recording the context before the first
 *   interaction and still after the last (the issue: "History recording stays on throughout").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { HistoryStatus } from '../../shared/contracts/history.ts';
import type { Result } from '../../shared/result.ts';
import { seedLayout, type ClusterSize } from '../../electron/engine/simcluster/scenarios/seed-layout.ts';
import { startLiveShell, type LiveShell } from '../e2e/live-shell.ts';
import { borrowedCluster } from '../helpers/engine.ts';
import { launchBenchBrowser, type BenchBrowser, type BenchPage } from './live-browser.ts';
import { storeStatus } from './live-page.ts';
import { startSimProcess } from './live-sim.ts';
import { installInteractions, interact, waitForDom, type InteractionTimes } from './page-interaction.ts';
import { ensureRendererBuilt } from './renderer-build.ts';
import { percentile, round } from './stats.ts';
import { measureTable } from './table-interactions.ts';
import { PartialResultsError, type BenchContext, type BenchScenario, type BenchValue } from './types.ts';

const QUICK_SIZE: ClusterSize = { pods: 1_000, nodes: 10, namespaces: 5 };
const SYNC_TIMEOUT_MS = 900_000;
const RECORDING_TIMEOUT_MS = 60_000;
const GRAPH_TIMEOUT_MS = 60_000;
/** Timed steps of each interaction kind (filters and searches time two steps each: set, clear). */
const RUNS = 5;
const QUICK_RUNS = 2;

const pad = (n: number): string => String(n).padStart(3, '0');

async function waitForSync(page: BenchPage, expected: number): Promise<void> {
  const deadline = performance.now() + SYNC_TIMEOUT_MS;
  for (;;) {
    const status = await storeStatus(page);
    if (status?.synced && status.objects >= expected) return;
    if (performance.now() > deadline) throw new Error(`the renderer store was not complete after ${SYNC_TIMEOUT_MS} ms: ${JSON.stringify(status)} of ${expected} objects`);
    await sleep(500);
  }
}

/** Whether the engine records the context's history now; waits up to `timeoutMs` for it to start. */
async function recording(shell: LiveShell, timeoutMs: number): Promise<HistoryStatus> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = (await shell.engine.dispatch('history:status', {})) as Result<HistoryStatus>;
    if (answer.ok && answer.value.state === 'recording') return answer.value;
    if (performance.now() > deadline) throw new Error(`history is not recording: ${answer.ok ? `${answer.value.state} ${answer.value.message ?? ''}` : answer.error.message}`);
    await sleep(500);
  }
}

/** The slowest and the median painted time of `times`, as `<name>_ms` and `<name>_median_ms`. */
function summarise(name: string, times: readonly InteractionTimes[]): Record<string, number> {
  const painted = times.map((time) => time.paintedMs);
  return { [`${name}_ms`]: round(percentile(painted, 100)), [`${name}_median_ms`]: round(percentile(painted, 50)) };
}

function describe(name: string, times: readonly InteractionTimes[]): string {
  return `${name} ${times.map((time) => `${Math.round(time.shownMs)}/${Math.round(time.paintedMs)}`).join(' ')}`;
}

/** Deployments the Overview shows first (their name and uid), for the Graph's focus. */
async function workloadsOnScreen(page: BenchPage, count: number): Promise<Array<{ name: string; uid: string }>> {
  const found = await page.evaluate((max) => {
    type Link = { textContent: string | null; getAttribute(name: string): string | null };
    const links = (globalThis as unknown as { document: { querySelectorAll(css: string): Iterable<Link> } }).document.querySelectorAll('[data-testid="overview"] a[data-testid="workload-link"]');
    return [...links].slice(0, max).map((link) => ({ name: link.textContent ?? '', uid: new URLSearchParams((link.getAttribute('href') ?? '').split('?')[1] ?? '').get('uid') ?? '' }));
  }, count);
  if (found.length === 0) throw new Error('the Overview shows no workload to focus the Graph on');
  return found;
}

const GRAPH_BODY = '[data-testid="graph-body"]';
const graphDrawn = (scopeText: { equals?: string; contains?: string }, node: string) => [
  { selector: GRAPH_BODY, attribute: 'data-scope', ...scopeText },
  { selector: GRAPH_BODY, attribute: 'data-loading', equals: 'false' },
  { selector: `${GRAPH_BODY} ${node}` },
];

/** Namespace, workload, namespace, ...: each step changes what the Graph shows. */
async function measureGraph(page: BenchPage, namespaces: readonly string[], workloads: ReadonlyArray<{ name: string; uid: string }>, runs: number) {
  // The first visit loads the screen's code; not a focus change.
  await interact(page, { hash: `#/graph?namespace=${namespaces[0]}` }, graphDrawn({ equals: `namespace ${namespaces[0]}` }, '[data-testid="graph-node"]'), GRAPH_TIMEOUT_MS);
  const namespace: InteractionTimes[] = [];
  const workload: InteractionTimes[] = [];
  for (let i = 0; i < runs; i += 1) {
    const { name, uid } = workloads[i % workloads.length] as { name: string; uid: string };
    workload.push(await interact(page, { hash: `#/graph?focus=${uid}` }, graphDrawn({ contains: ` ${name}` }, `[data-testid="graph-node"][data-id="${uid}"]`), GRAPH_TIMEOUT_MS));
    const next = namespaces[(i + 1) % namespaces.length] as string;
    namespace.push(await interact(page, { hash: `#/graph?namespace=${next}` }, graphDrawn({ equals: `namespace ${next}` }, '[data-testid="graph-node"]'), GRAPH_TIMEOUT_MS));
  }
  return { namespace, workload };
}

/**
 * The engine's share of a namespace's graph (for the log): `graph:get` asked directly for
 * namespaces the page has not shown (the engine caches the graphs it built), and the answer's size.
 */
async function engineGraphShare(shell: LiveShell, namespaces: readonly string[]): Promise<string> {
  const parts: string[] = [];
  for (const namespace of namespaces) {
    const startedAt = performance.now();
    const answer = await shell.engine.dispatch('graph:get', { namespace });
    const ms = performance.now() - startedAt;
    parts.push(`${namespace} ${Math.round(ms)} ms${answer.ok ? ` (${Math.round(JSON.stringify(answer.value).length / 1024)} KB)` : `: ${answer.error.message}`}`);
  }
  return parts.join(', ');
}

async function measure(ctx: BenchContext, shell: LiveShell, page: BenchPage, size: ClusterSize, expected: number): Promise<Record<string, BenchValue>> {
  const results: Record<string, BenchValue> = {};
  const layout = seedLayout(size);
  const runs = ctx.quick ? QUICK_RUNS : RUNS;
  // From the far end, so the first row (churn-000 sorted first) never already shows them.
  const namespaces = Array.from({ length: layout.namespaces }, (_, i) => `churn-${pad(layout.namespaces - 1 - i)}`);
  const deployments = Array.from({ length: layout.deploymentsPerNamespace }, (_, i) => `svc-${pad(layout.deploymentsPerNamespace - 1 - i)}`);
  try {
    await installInteractions(page);
    await page.goto(shell.url);
    const syncStarted = performance.now();
    await waitForSync(page, expected);
    ctx.log(`scale-page: the renderer store holds ${expected} objects after ${Math.round(performance.now() - syncStarted)} ms`);
    await recording(shell, RECORDING_TIMEOUT_MS);
    await waitForDom(page, [{ selector: '[data-testid="overview"] [role="row"][aria-rowindex="2"]' }], GRAPH_TIMEOUT_MS);
    results['renderer_heap_mb_150k'] = round((await page.heapUsedAfterGc()) / 2 ** 20);
    ctx.log(`scale-page: renderer heap ${results['renderer_heap_mb_150k']} MB after the sync`);

    const workloads = await workloadsOnScreen(page, runs);
    const overview = await measureTable(page, { testid: 'overview', columns: ['name', 'namespace', 'age', 'status', 'kind'], perNamespace: layout.deploymentsPerNamespace, perDeployment: layout.namespaces, namespaces, deployments, runs });
    Object.assign(results, summarise('overview_sort_150k', overview.sort), summarise('overview_filter_150k', overview.filter), summarise('overview_search_150k', overview.search));
    ctx.log(`scale-page: Overview (${overview.rows} rows), shown/painted ms: ${describe('sort', overview.sort)}; ${describe('filter', overview.filter)}; ${describe('search', overview.search)}`);

    const opened = await interact(page, { hash: '#/pods' }, [{ selector: '[data-testid="pods"] [role="row"][aria-rowindex="2"]' }], GRAPH_TIMEOUT_MS);
    const pods = await measureTable(page, { testid: 'pods', columns: ['name', 'node', 'age', 'status', 'controlledBy'], perNamespace: size.pods / size.namespaces, perDeployment: layout.podsPerDeployment * layout.namespaces, namespaces, deployments, runs });
    Object.assign(results, summarise('pods_sort_150k', pods.sort), summarise('pods_filter_150k', pods.filter), summarise('pods_search_150k', pods.search));
    ctx.log(`scale-page: Pods (${pods.rows} rows, opened in ${Math.round(opened.paintedMs)} ms), shown/painted ms: ${describe('sort', pods.sort)}; ${describe('filter', pods.filter)}; ${describe('search', pods.search)}`);

    const graph = await measureGraph(page, namespaces, workloads, runs);
    Object.assign(results, summarise('graph_focus_namespace_150k', graph.namespace), summarise('graph_focus_workload_150k', graph.workload));
    ctx.log(`scale-page: Graph, shown/painted ms: ${describe('namespace', graph.namespace)}; ${describe('workload', graph.workload)}`);
    ctx.log(`scale-page: graph:get in the engine alone: ${await engineGraphShare(shell, namespaces.slice(runs + 1, runs + 4))}`);

    results['renderer_heap_mb_150k_after_views'] = round((await page.heapUsedAfterGc()) / 2 ** 20);
    const status = await recording(shell, 0);
    results['scale_page_history_recording'] = true;
    ctx.log(`scale-page: renderer heap ${results['renderer_heap_mb_150k_after_views']} MB after the views; history recording (${status.samples} samples)`);
    return results;
  } catch (error) {
    throw new PartialResultsError((error as Error).message, results);
  }
}

const INTERACTIONS = ['overview_sort_150k', 'overview_filter_150k', 'overview_search_150k', 'pods_sort_150k', 'pods_filter_150k', 'pods_search_150k'];
const GRAPH = ['graph_focus_namespace_150k', 'graph_focus_workload_150k'];

export const scalePage: BenchScenario = {
  name: 'scale-page',
  results: [
    'renderer_heap_mb_150k',
    'renderer_heap_mb_150k_after_views',
    ...[...INTERACTIONS, ...GRAPH].flatMap((name) => [`${name}_ms`, `${name}_median_ms`]),
    'scale_page_history_recording',
  ],
  goals: [
    { result: 'renderer_heap_mb_150k', atMost: 1_024 },
    ...INTERACTIONS.map((name) => ({ result: `${name}_ms`, below: 100 })),
    ...GRAPH.map((name) => ({ result: `${name}_ms`, below: 200 })),
    { result: 'scale_page_history_recording', equals: true },
  ],
  async run(ctx) {
    ensureRendererBuilt(ctx.log);
    const size = ctx.quick ? QUICK_SIZE : ctx.scale;
    ctx.log(`scale-page: seeding a simulated cluster process with ${size.pods} pods on ${size.nodes} nodes in ${size.namespaces} namespaces`);
    const sim = await startSimProcess(seedLayout(size)).catch((error: unknown) => {
      throw new Error(`the simulator could not hold ${size.pods} pods on this machine: ${(error as Error).message}`);
    });
    const dataDir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-scale-'));
    let shell: LiveShell | undefined;
    let browser: BenchBrowser | undefined;
    try {
      browser = await launchBenchBrowser();
      const expected = await sim.watchedObjects();
      const page = await browser.newPage({ width: 1280, height: 800 });
      await browser.settle();
      shell = await startLiveShell({ dataDir, kubeconfig: path.join(dataDir, 'no-such-kubeconfig'), demoCluster: borrowedCluster(sim), log: (m) => ctx.log(`engine: ${m}`) });
      return await measure(ctx, shell, page, size, expected);
    } finally {
      await browser?.close();
      await shell?.close();
      await sim.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
