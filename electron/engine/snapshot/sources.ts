/**
 * Where an export's parts come from. The objects: the live cache, or the history feature's
 * rebuilt state for a past time (through the engine context). The history window and the graph:
 * the contract's own `history:*` and `graph:get` answers, asked through the engine's dispatcher
 * like any client would, so the snapshot holds exactly what the timeline and the graph view
 * showed; for an opened snapshot those answers come from its file (history-handlers.ts), so
 * re-exporting a snapshot keeps its timeline.
 */
import { accessStatusText, kindPlural } from '../../../shared/access.ts';
import { BUILTIN_RESOLVER } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import type { RequestChannel, RequestOf, ResponseOf } from '../../../shared/contract.ts';
import { HISTORY_KINDS, type Episode, type HistoryEvent } from '../../../shared/contracts/history.ts';
import type { DiffRow, DiffState } from '../../../shared/contracts/diff.ts';
import type { ClusterDiscovery } from '../../../shared/discovery.ts';
import { MAX_SNAPSHOT_DIFF_ROWS, type SnapshotDiff, type SnapshotGraph, type SnapshotHistory, type SnapshotView, type SnapshotWorkloadHistory } from '../../../shared/contracts/snapshot.ts';
import type { Result } from '../../../shared/result.ts';
import type { EngineContext } from '../features.ts';
import { driftCountSteps } from '../history/episode-query.ts';
import type { CollectSources } from './collect.ts';
import { kindNames, type KindNames } from './kind-table.ts';
import type { SnapshotLibrary } from './library.ts';
import { redactText } from './redact.ts';

/** Asks the engine's own contract handlers (history, graph) what a client would get. */
export type EngineRequest = <C extends RequestChannel>(channel: C, payload: RequestOf<C>) => Promise<Result<ResponseOf<C>>>;

/** Points per series in a snapshot: a window of an hour to a day charts well with this many. */
export const SNAPSHOT_SERIES_POINTS = 600;
/** Episodes whose Events are fetched one by one (the longest first). */
export const MAX_EPISODE_DETAILS = 300;

const HISTORY_KIND_SET: ReadonlySet<string> = new Set(HISTORY_KINDS);

const redactEvent = (event: HistoryEvent): HistoryEvent => ({ ...event, message: redactText(event.message) });

async function episodeDetails(request: EngineRequest, episodes: readonly Episode[]): Promise<Episode[]> {
  const detailed = new Set([...episodes].sort((a, b) => b.durationMs - a.durationMs).slice(0, MAX_EPISODE_DETAILS).map((episode) => episode.id));
  const out: Episode[] = [];
  for (const episode of episodes) {
    const full = detailed.has(episode.id) ? await request('history:episode', { id: episode.id }) : null;
    const events = full?.ok ? full.value.events : episode.events;
    out.push({ ...episode, ...(events ? { events: events.map(redactEvent) } : {}) });
  }
  return out;
}

/** The window's history of the scoped workloads, through `history:*`; null when nothing was recorded. */
export async function historyOf(
  request: EngineRequest,
  input: { window: { from: number; to: number }; objects: readonly SlimObject[]; namespace: string | null; selection: boolean; progress: (done: number, total: number) => void },
): Promise<SnapshotHistory | null> {
  const { from, to } = input.window;
  const listed = await request('history:episodes', { from, to, limit: 20_000, ...(input.namespace ? { namespace: input.namespace } : {}) });
  if (!listed.ok) return null;
  const workloads = input.objects.filter((object) => HISTORY_KIND_SET.has(BUILTIN_RESOLVER.keyOf(object.apiVersion, object.kind) ?? ''));
  const uids = new Set(workloads.map((object) => object.metadata.uid));
  const entries: SnapshotWorkloadHistory[] = [];
  for (const [index, object] of workloads.entries()) {
    input.progress(index, workloads.length);
    const answer = await request('history:series', { uid: object.metadata.uid, from, to, maxPoints: SNAPSHOT_SERIES_POINTS });
    if (!answer.ok) continue;
    const series = answer.value.series.filter((entry) => entry.points.some(([, value]) => value !== null));
    entries.push({ workload: answer.value.workload, series, rawSamples: answer.value.rawSamples, rollouts: answer.value.rollouts, warnings: answer.value.warnings.map(redactEvent) });
  }
  const episodes = input.selection ? listed.value.episodes.filter((episode) => uids.has(episode.workload.uid)) : listed.value.episodes;
  if (entries.length === 0 && episodes.length === 0) return null;
  const counted = episodes.filter((episode) => !episode.controller);
  const driftCount = input.selection ? driftCountSteps(counted.map((episode) => ({ start_at: episode.start, end_at: episode.end })), from, to) : listed.value.driftCount;
  return { window: { from, to }, since: listed.value.since, workloads: entries, episodes: await episodeDetails(request, episodes), driftCount };
}

/** The ownership graph of the scope at T through `graph:get`; null when there is none. */
export async function graphOf(request: EngineRequest, input: { namespace: string | null; focus: string | null; at: number | null }): Promise<SnapshotGraph | null> {
  const answer = await request('graph:get', {
    ...(input.namespace ? { namespace: input.namespace } : {}),
    ...(input.focus ? { focus: input.focus } : {}),
    ...(input.at !== null ? { at: input.at } : {}),
  });
  if (!answer.ok) return null;
  const { nodes, edges, truncated, message } = answer.value;
  return { nodes, edges, truncated, ...(message ? { message } : {}) };
}

/** Diff rows per `diff:rows` page. */
const DIFF_PAGE = 1_000;

/** The context's last finished diff (rows differing from the manifests first), or null. */
export async function diffOf(request: EngineRequest, state: DiffState | undefined, input: { context: string; namespace: string | null }): Promise<SnapshotDiff | null> {
  const summary = state?.state === 'done' ? state.summary : undefined;
  if (!summary || summary.context !== input.context) return null;
  const rows: DiffRow[] = [];
  for (let offset = 0; offset < summary.total; offset += DIFF_PAGE) {
    const page = await request('diff:rows', { runId: summary.runId, offset, limit: DIFF_PAGE });
    if (!page.ok) return null;
    rows.push(...page.value.rows);
  }
  const scoped = rows
    .filter((row) => input.namespace === null || row.namespace === input.namespace)
    .map((row) => (row.reason ? { ...row, reason: redactText(row.reason) } : row))
    .sort((a, b) => Number(a.status === 'InSync') - Number(b.status === 'InSync'));
  return { summary, rows: scoped.slice(0, MAX_SNAPSHOT_DIFF_ROWS), truncated: scoped.length > MAX_SNAPSHOT_DIFF_ROWS };
}

/**
 * Names the exported objects' kinds: the live cache's keys, the opened snapshot's table when the
 * selected context is one, and the selected context's discovery.
 */
async function namesOf(context: EngineContext, library: SnapshotLibrary): Promise<KindNames> {
  const selected = context.selected();
  const opened = selected ? library.byContext(selected.name) : undefined;
  const discovery = context.hub.last('cluster:discovery') as ClusterDiscovery | undefined;
  return kindNames({
    cached: context.cache.listWithKinds(),
    ...(opened ? { table: (await library.file(opened.id)).kinds } : {}),
    ...(discovery?.state && discovery.context === selected?.name ? { discovered: discovery.state.kinds } : {}),
  });
}

/** The selected context's restricted view from `cluster:access`, as the status bar says it; null when unrestricted or unchecked. */
export async function viewOf(request: EngineRequest): Promise<SnapshotView | null> {
  const answer = await request('cluster:access', {});
  const summary = answer.ok ? answer.value.summary : null;
  if (!summary || (!summary.restricted && summary.hiddenKinds.length === 0 && !summary.noAccess)) return null;
  return { namespaces: summary.namespaces, hiddenKinds: summary.hiddenKinds.map((k) => kindPlural(k.kind)), text: accessStatusText(summary) };
}

export function snapshotSources(context: EngineContext, library: SnapshotLibrary, request: EngineRequest | undefined): CollectSources {
  return {
    version: context.version,
    now: context.now,
    /** An opened snapshot re-exported names the cluster it came from, not its own context. */
    selected() {
      const selected = context.selected();
      const opened = selected ? library.byContext(selected.name) : undefined;
      return opened ? { ...opened.source } : selected;
    },
    live: () => context.cache.list(),
    objectsAt: (at) => context.objectsAt(at),
    kindNames: () => namesOf(context, library),
    statusRules: () => context.settings.get().statusRules ?? [],
    ...(request
      ? {
          history: (input: Parameters<typeof historyOf>[1]) => historyOf(request, input),
          graph: (input: Parameters<typeof graphOf>[1]) => graphOf(request, input),
          view: () => viewOf(request),
          diff: async (input: { namespace: string | null }) => {
            const selected = context.selected();
            return selected ? diffOf(request, context.hub.last('diff:changed') as DiffState | undefined, { context: selected.name, namespace: input.namespace }) : null;
          },
        }
      : {}),
  };
}
