/**
 * The status bar's words for the live cluster stream: one line for the worst thing going on
 * (reconnecting beats syncing beats live) and one for kinds the user may not see at all. The
 * line stays short however many kinds are affected (a lost server takes all twelve down at
 * once); the tooltip carries every kind and every message.
 */
import type { ClusterHealth, KindHealth } from '../../../shared/cluster.ts';
import { formatShortMoment } from '../../components/charts/time-format.ts';
import { kindResource } from './kinds.ts';

export type HealthTone = 'live' | 'syncing' | 'reconnecting';

export interface HealthSummary {
  tone: HealthTone;
  /** The whole line: `headline`, then ` — reason` when there is one. */
  text: string;
  /** What is going on, short enough to always show in full. */
  headline: string;
  /** Why (the server's or the network's words); the part to cut when the bar is narrow. */
  reason?: string;
  /** Everything, for the tooltip: the reconnecting kinds with their messages, or one line per kind. */
  detail: string;
}

/** Up to this many reconnecting kinds are named in the line; more are counted. */
export const NAMED_KINDS_MAX = 2;

export interface SnapshotProgress {
  sent: number;
  total: number;
}

const COUNT = new Intl.NumberFormat('en-US');

/** 12,000 — fixed grouping so the bar reads the same everywhere. */
export function formatCount(value: number): string {
  return COUNT.format(value);
}

function kindLine(kind: KindHealth): string {
  const parts = [`${kindResource(kind.kind)}: ${kind.state}`, `${formatCount(kind.count)} objects`];
  if (kind.state !== 'live') parts.push(`since ${formatShortMoment(kind.since)}`);
  if (kind.message) parts.push(kind.message);
  if (kind.lagMs !== undefined) parts.push(`behind by ${Math.round(kind.lagMs / 1000)} s`);
  return parts.join(' · ');
}

function names(kinds: readonly KindHealth[]): string {
  return kinds.map((kind) => kindResource(kind.kind)).join(', ');
}

function summary(tone: HealthTone, headline: string, detail: string, reason?: string): HealthSummary {
  return { tone, headline, detail, text: reason ? `${headline} — ${reason}` : headline, ...(reason ? { reason } : {}) };
}

/** "pods", "events, nodes", "5 of 12 kinds", "all 12 kinds". */
function reconnectingWhat(reconnecting: readonly KindHealth[], total: number): string {
  if (reconnecting.length <= NAMED_KINDS_MAX) return names(reconnecting);
  return reconnecting.length === total ? `all ${total} kinds` : `${reconnecting.length} of ${total} kinds`;
}

/**
 * The tooltip while kinds reconnect: one bullet per distinct message (kinds failing the same way,
 * as they do when the server is gone, share one), earliest first, then what is still fine.
 */
function reconnectingDetail(reconnecting: readonly KindHealth[], others: readonly KindHealth[]): string {
  const groups = new Map<string, KindHealth[]>();
  for (const kind of reconnecting) {
    const message = kind.message ?? 'no message from the engine';
    groups.set(message, [...(groups.get(message) ?? []), kind]);
  }
  const lines = [`Reconnecting ${reconnecting.length === 1 ? '1 kind' : `${reconnecting.length} kinds`}; objects stay as last seen until each is back:`];
  for (const [message, kinds] of groups) lines.push(`• ${names(kinds)} (since ${formatShortMoment(kinds[0]?.since ?? 0)}): ${message}`);
  if (others.length > 0) lines.push('', ...others.map(kindLine));
  return lines.join('\n');
}

/**
 * The headline for the cluster stream, or null before the engine said anything. `progress` is
 * the snapshot still on its way to this window (the engine has the objects, the view not yet).
 */
export function describeHealth(health: ClusterHealth | null, progress: SnapshotProgress | null = null, options: { offline?: boolean } = {}): HealthSummary | null {
  if (!health || health.kinds.length === 0) return null;
  const detail = health.kinds.map(kindLine).join('\n');
  const reconnecting = health.kinds.filter((kind) => kind.state === 'reconnecting').sort((a, b) => a.since - b.since);
  const first = reconnecting[0];
  if (first) {
    const headline = `Reconnecting ${reconnectingWhat(reconnecting, health.kinds.length)} since ${formatShortMoment(first.since)}`;
    const others = health.kinds.filter((kind) => kind.state !== 'reconnecting');
    return summary('reconnecting', headline, reconnectingDetail(reconnecting, others), first.message);
  }
  const syncing = health.kinds.filter((kind) => kind.state === 'syncing').sort((a, b) => b.count - a.count);
  const biggest = syncing[0];
  if (biggest) {
    const more = syncing.length > 1 ? ` +${syncing.length - 1} more` : '';
    return summary('syncing', `Syncing ${kindResource(biggest.kind)} ${formatCount(biggest.count)}…${more}`, detail);
  }
  if (progress && progress.sent < progress.total) {
    return summary('syncing', `Loading ${formatCount(progress.sent)}/${formatCount(progress.total)} objects`, detail);
  }
  const live = health.kinds.filter((kind) => kind.state === 'live');
  const objects = live.reduce((sum, kind) => sum + kind.count, 0);
  // Overload never goes unsaid: the kind furthest behind names how far, while it catches up.
  const behind = live.filter((kind) => kind.lagMs !== undefined).sort((a, b) => (b.lagMs ?? 0) - (a.lagMs ?? 0));
  const furthest = behind[0];
  if (furthest?.lagMs !== undefined) {
    const more = behind.length > 1 ? ` (+${behind.length - 1} more ${behind.length === 2 ? 'kind' : 'kinds'})` : '';
    return summary('syncing', `Live · ${kindResource(furthest.kind)} behind by ${Math.max(1, Math.round(furthest.lagMs / 1000))} s, catching up${more}`, detail, 'changes arrive faster than they can be applied; intermediate states are skipped');
  }
  const kinds = `${live.length} ${live.length === 1 ? 'kind' : 'kinds'}`;
  // An opened snapshot file holds its objects; nothing is being watched, so it is not "Live".
  return summary('live', `${options.offline ? 'Offline snapshot' : 'Live'} · ${kinds} · ${formatCount(objects)} objects`, detail);
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
