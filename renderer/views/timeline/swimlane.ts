/**
 * The swimlane's layout math, pure so it is testable and cheap: episodes grouped into one lane
 * per workload, and each lane's bars as percentages of the visible window (the table renders
 * only the lanes in view, so thousands of workloads cost a few dozen rows of DOM). Episodes
 * closer together than a fraction of a pixel merge into one bar, so a flapping workload with
 * hundreds of episodes still draws a handful of elements.
 */
import { BUILTIN_KEYS } from '../../../shared/builtin-kinds.ts';
import type { Episode, WorkloadRef } from '../../../shared/contracts/history.ts';
import { episodeSeverity, type DriftSeverity } from '../../../shared/drift-reasons.ts';
import type { TimeRange } from '../../components/charts/time-range.ts';
import { kindLabelOf } from './kind-label.ts';

export interface Lane {
  uid: string;
  workload: WorkloadRef;
  /** By start time. */
  episodes: Episode[];
  ongoing: boolean;
  /** Sum of the episodes' lengths (ongoing ones up to now). */
  driftMs: number;
  peakGap: number;
  /** When the lane last drifted (now for an ongoing episode): recent trouble sorts first. */
  lastActivity: number;
  /** Lower-cased "kind group namespace/name" for the text filter (a custom resource's group too). */
  search: string;
  /** The Deployment that runs this ReplicaSet, as the engine recorded it (its drift is the Deployment's). */
  controller?: WorkloadRef;
}

/** A drawn bar: one episode, or several merged (count > 1). */
export interface LaneBar {
  /** Percent of the window. */
  left: number;
  width: number;
  /** The (first) episode the bar stands for; a click opens it. */
  episode: Episode;
  count: number;
  ongoing: boolean;
  /** The worst among the merged episodes (shared/drift-reasons.ts): a controller that gave up beats a lag. */
  severity: DriftSeverity;
}

/** Groups episodes into lanes (one per workload). */
export function buildLanes(episodes: readonly Episode[], now: number): Lane[] {
  const lanes = new Map<string, Lane>();
  for (const episode of episodes) {
    const uid = episode.workload.uid;
    let lane = lanes.get(uid);
    if (!lane) {
      const { namespace, name } = episode.workload;
      const label = kindLabelOf(episode.workload);
      const kindText = label.custom ? `${label.kind} ${label.group}` : label.kind;
      lane = { uid, workload: episode.workload, episodes: [], ongoing: false, driftMs: 0, peakGap: 0, lastActivity: 0, search: `${kindText} ${namespace}/${name}`.toLowerCase() };
      lanes.set(uid, lane);
    }
    const end = episode.end ?? now;
    if (episode.controller) lane.controller = episode.controller;
    lane.episodes.push(episode);
    lane.ongoing ||= episode.end === null;
    lane.driftMs += Math.max(0, end - episode.start);
    lane.peakGap = Math.max(lane.peakGap, episode.peakGap);
    lane.lastActivity = Math.max(lane.lastActivity, end);
  }
  const list = [...lanes.values()];
  for (const lane of list) lane.episodes.sort((a, b) => a.start - b.start);
  return list;
}

const severityOf = (episode: Episode): DriftSeverity => episodeSeverity(episode.reasons);

const SEVERITY_RANK: Record<LaneBar['severity'], number> = { danger: 2, warning: 1, pending: 0 };

/**
 * The bars of a lane within `range`, in percent; bars whose gap is under `mergePercent` merge.
 * Episodes outside the window are left out; ones crossing an edge are clipped to it.
 */
export function laneBars(lane: Lane, range: TimeRange, now: number, mergePercent = 0.25): LaneBar[] {
  const span = range.to - range.from;
  if (span <= 0) return [];
  const bars: LaneBar[] = [];
  for (const episode of lane.episodes) {
    const end = episode.end ?? now;
    if (end < range.from || episode.start > range.to) continue;
    const left = (Math.max(episode.start, range.from) - range.from) / span * 100;
    const right = (Math.min(end, range.to) - range.from) / span * 100;
    const last = bars[bars.length - 1];
    if (last && left - (last.left + last.width) < mergePercent) {
      last.width = Math.max(last.width, right - last.left);
      last.count += 1;
      last.ongoing ||= episode.end === null;
      const severity = severityOf(episode);
      if (SEVERITY_RANK[severity] > SEVERITY_RANK[last.severity]) last.severity = severity;
      continue;
    }
    bars.push({ left, width: right - left, episode, count: 1, ongoing: episode.end === null, severity: severityOf(episode) });
  }
  return bars;
}

/** A ReplicaSet's name is its Deployment's name, a dash and the pod-template hash. */
const TEMPLATE_HASH = /^(.+)-[a-z0-9]{5,10}$/;

export interface ManagedOptions {
  /** From the live cluster when it still has the ReplicaSet: run by a Deployment? (undefined: unknown). */
  ownedByDeployment?: (uid: string) => boolean | undefined;
  deploymentExists?: (namespace: string, name: string) => boolean;
}

/**
 * Leaves out the ReplicaSets a Deployment runs: their drift is the Deployment's (as the
 * Overview's "All" does). The live cluster's owner reference decides when it still has the
 * ReplicaSet; else one named after a Deployment among `items`, or that `deploymentExists`,
 * counts as run by it.
 */
export function hideManagedReplicaSets<T>(items: readonly T[], refOf: (item: T) => WorkloadRef, options: ManagedOptions = {}): { kept: T[]; hidden: number } {
  const deployments = new Set(items.map(refOf).filter((ref) => ref.kind === BUILTIN_KEYS.Deployment).map((ref) => `${ref.namespace}/${ref.name}`));
  const managed = (ref: WorkloadRef): boolean => {
    if (ref.kind !== BUILTIN_KEYS.ReplicaSet) return false;
    const owned = options.ownedByDeployment?.(ref.uid);
    if (owned !== undefined) return owned;
    const base = TEMPLATE_HASH.exec(ref.name)?.[1];
    return base !== undefined && (deployments.has(`${ref.namespace}/${base}`) || (options.deploymentExists?.(ref.namespace, base) ?? false));
  };
  const kept = items.filter((item) => !managed(refOf(item)));
  return { kept, hidden: items.length - kept.length };
}

/**
 * Lanes of workloads in their own right: a ReplicaSet the engine recorded as run by a Deployment
 * is left out, by the same rule the engine's drift count uses, so the headline, the chart and the
 * lanes count the same things. `hidden` says how many were folded away.
 */
export function workloadLanes(lanes: readonly Lane[]): { kept: Lane[]; hidden: number } {
  const kept = lanes.filter((lane) => !lane.controller);
  return { kept, hidden: lanes.length - kept.length };
}

/** Lanes whose search text has every word of `search`. */
export function filterLanes(lanes: readonly Lane[], search: string): readonly Lane[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return words.length === 0 ? lanes : lanes.filter((lane) => words.every((word) => lane.search.includes(word)));
}

/** Where `at` sits in the window, in percent (null when outside it). */
export function percentOf(at: number, range: TimeRange): number | null {
  if (!Number.isFinite(at) || at < range.from || at > range.to || range.to <= range.from) return null;
  return ((at - range.from) / (range.to - range.from)) * 100;
}
