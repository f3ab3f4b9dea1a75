/**
 * The status bar's words for the live cluster stream: one line for the worst thing going on
 * (reconnecting beats syncing beats live) and one for kinds the user may not see at all.
 */
import type { ClusterHealth, KindHealth } from '../../../shared/cluster.ts';
import { kindResource } from './kinds.ts';

export type HealthTone = 'live' | 'syncing' | 'reconnecting';

export interface HealthSummary {
  tone: HealthTone;
  text: string;
  /** One line per kind, for the tooltip. */
  detail: string;
}

export interface SnapshotProgress {
  sent: number;
  total: number;
}

const COUNT = new Intl.NumberFormat('en-US');

/** 12,000 — fixed grouping so the bar reads the same everywhere. */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

/** Local wall-clock time as HH:MM, the precision a "since" needs. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

function kindLine(kind: KindHealth): string {
  const parts = [`${kindResource(kind.kind)}: ${kind.state}`, `${formatCount(kind.count)} objects`];
  if (kind.state !== 'live') parts.push(`since ${formatClock(kind.since)}`);
  if (kind.message) parts.push(kind.message);
  return parts.join(' · ');
}

function names(kinds: readonly KindHealth[]): string {
  return kinds.map((kind) => kindResource(kind.kind)).join(', ');
}

/**
 * The headline for the cluster stream, or null before the engine said anything. `progress` is
 * the snapshot still on its way to this window (the engine has the objects, the view not yet).
 */
export function describeHealth(health: ClusterHealth | null, progress: SnapshotProgress | null = null): HealthSummary | null {
  if (!health || health.kinds.length === 0) return null;
  const detail = health.kinds.map(kindLine).join('\n');
  const reconnecting = health.kinds.filter((kind) => kind.state === 'reconnecting').sort((a, b) => a.since - b.since);
  const first = reconnecting[0];
  if (first) {
    const text = `Reconnecting ${names(reconnecting)} since ${formatClock(first.since)}${first.message ? ` — ${first.message}` : ''}`;
    return { tone: 'reconnecting', text, detail };
  }
  const syncing = health.kinds.filter((kind) => kind.state === 'syncing').sort((a, b) => b.count - a.count);
  const biggest = syncing[0];
  if (biggest) {
    const more = syncing.length > 1 ? ` +${syncing.length - 1} more` : '';
    return { tone: 'syncing', text: `Syncing ${kindResource(biggest.kind)} ${formatCount(biggest.count)}…${more}`, detail };
  }
  if (progress && progress.sent < progress.total) {
    return { tone: 'syncing', text: `Loading ${formatCount(progress.sent)}/${formatCount(progress.total)} objects`, detail };
  }
  const live = health.kinds.filter((kind) => kind.state === 'live');
  const objects = live.reduce((sum, kind) => sum + kind.count, 0);
  const kinds = `${live.length} ${live.length === 1 ? 'kind' : 'kinds'}`;
  return { tone: 'live', text: `Live · ${kinds} · ${formatCount(objects)} objects`, detail };
}

/** "Forbidden: secrets · Unavailable: hpas", or null when every kind can be watched. */
export function describeBlockedKinds(health: ClusterHealth | null): { text: string; detail: string } | null {
  if (!health) return null;
  const forbidden = health.kinds.filter((kind) => kind.state === 'forbidden');
  const unavailable = health.kinds.filter((kind) => kind.state === 'unavailable');
  if (forbidden.length === 0 && unavailable.length === 0) return null;
  const parts: string[] = [];
  if (forbidden.length > 0) parts.push(`Forbidden: ${names(forbidden)}`);
  if (unavailable.length > 0) parts.push(`Unavailable: ${names(unavailable)}`);
  const detail = [...forbidden, ...unavailable].map((kind) => `${kindResource(kind.kind)}: ${kind.message ?? kind.state}`).join('\n');
  return { text: parts.join(' · '), detail };
}
