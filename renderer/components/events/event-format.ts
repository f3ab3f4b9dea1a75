/**
 * How Events, reconcile lags and their objects read on screen, and where a click on an object
 * leads: a workload to its own screen, anything else to the ownership graph focused on it.
 */
import type { EventObject } from '../../../shared/contracts/events.ts';
import { HISTORY_KINDS } from '../../../shared/contracts/history.ts';
import { VIEWS, type ViewId } from '../../views/index.ts';
import { formatDuration } from '../charts/time-format.ts';
import { keyFromLegacy } from '../../../shared/builtin-kinds.ts';

/** "180 ms", "1.2 s", "12 s", "7m 05s": a reconcile lag, precise where it is short. */
export function formatLag(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 10_000) return `${(Math.floor(ms / 100) / 10).toFixed(1)} s`;
  if (ms < 60_000) return `${Math.round(ms / 1_000)} s`;
  return formatDuration(ms);
}

/** "12", "4.5", "1.2k": an occurrence count (series spread over a range can be fractional). */
export function formatCount(value: number): string {
  if (value >= 10_000) return `${Math.round(value / 1_000)}k`;
  if (value >= 1_000) return `${(Math.round(value / 100) / 10).toLocaleString('en-US')}k`;
  if (Number.isInteger(value) || value >= 100) return Math.round(value).toLocaleString('en-US');
  return (Math.round(value * 10) / 10).toLocaleString('en-US');
}

export function formatPercent(ratio: number): string {
  if (ratio <= 0) return '0%';
  if (ratio < 0.01) return '<1%';
  return `${Math.round(ratio * 100)}%`;
}

/** "Pod/web-7d4b9c-x2k4p". */
export function objectLabel(object: Pick<EventObject, 'kind' | 'name'>): string {
  return object.kind ? `${object.kind}/${object.name}` : object.name;
}

/** Where a click on an Event's object goes (null: nowhere to go yet). */
export type ObjectTarget = { view: ViewId; params: Record<string, string> } | null;

/** Workload kinds by key; an Event names its object's kind as Kubernetes does (`Deployment`). */
const WORKLOAD_SCREEN_KINDS: ReadonlySet<string> = new Set(HISTORY_KINDS);

function registered(id: string): ViewId | null {
  return VIEWS.find((view) => view.id === id)?.id ?? null;
}

/**
 * A workload (with its uid) opens its own screen; any other object opens the ownership graph
 * focused on it (by uid, else `Kind/namespace/name`), when that screen exists.
 */
export function objectTarget(object: EventObject): ObjectTarget {
  const workload = registered('workload');
  if (object.uid && workload && WORKLOAD_SCREEN_KINDS.has(keyFromLegacy(object.kind))) return { view: workload, params: { uid: object.uid } };
  const graph = registered('graph');
  if (!graph) return null;
  return { view: graph, params: { focus: object.uid ?? `${object.kind}/${object.namespace ?? ''}/${object.name}` } };
}
