/**
 * Where an export's parts come from. The objects: the live cache, or the history feature's
 * rebuilt state for a past time (through the engine context). The history window: the history
 * store of the selected context; for an opened snapshot, the snapshot's own recorded window, so
 * re-exporting a snapshot (as YAML or a report) keeps its timeline.
 */
import type { SnapshotHistory, TimeWindow } from '../../../shared/contracts/snapshot.ts';
import type { EngineContext } from '../features.ts';
import type { CollectSources } from './collect.ts';
import type { SnapshotLibrary } from './library.ts';
import { redactText } from './redact.ts';

const within = (at: number, window: TimeWindow) => at >= window.from && at <= window.to;

/** The part of a recorded history that falls in `window` and concerns the scope. */
export function sliceHistory(history: SnapshotHistory, request: { window: TimeWindow; uids: ReadonlySet<string> | null; namespace: string | null }): SnapshotHistory {
  const { window, uids, namespace } = request;
  const inScope = (workload: { uid: string; namespace: string }) => (uids === null || uids.has(workload.uid)) && (namespace === null || workload.namespace === namespace);
  return {
    window,
    since: history.since,
    workloads: history.workloads.filter((entry) => inScope(entry.workload)).map((entry) => ({ workload: entry.workload, samples: entry.samples.filter((sample) => within(sample.at, window)) })),
    episodes: history.episodes.filter((episode) => inScope(episode.workload) && episode.start <= window.to && (episode.end ?? Infinity) >= window.from),
    driftCount: history.driftCount.filter(([at]) => within(at, window)),
    events: history.events.filter((event) => within(event.at, window) && (namespace === null || event.object.namespace === namespace)).map((event) => ({ ...event, message: redactText(event.message) })),
  };
}

export function snapshotSources(context: EngineContext, library: SnapshotLibrary): CollectSources {
  return {
    version: context.version,
    now: context.now,
    /** An opened snapshot re-exported names the cluster it came from, not its own context. */
    selected() {
      const selected = context.selected();
      const opened = selected ? library.byContext(selected.name) : undefined;
      return opened ? { ...opened.source, demo: opened.source.demo } : selected;
    },
    live: () => context.cache.list(),
    objectsAt: (at) => context.objectsAt(at),
    async history(request) {
      const selected = context.selected();
      const opened = selected ? library.byContext(selected.name) : undefined;
      if (!opened) return null;
      const file = await library.file(opened.id);
      return file.history ? sliceHistory(file.history, request) : null;
    },
  };
}
