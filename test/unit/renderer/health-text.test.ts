import { describe, expect, it } from 'vitest';
import { describeBlockedKinds, describeHealth } from '../../../renderer/stores/cluster/health-text.ts';
import { WATCHED_KINDS } from '../../../shared/cluster.ts';
import { clusterHealth, kindHealth } from './cluster-fixtures.ts';

/** H:M local time today: a "since" today is written without its day. */
const today = (hour: number, minute: number): number => new Date().setHours(hour, minute, 0, 0);

const ALL_KINDS = WATCHED_KINDS;

describe('cluster health text', () => {
  it('says nothing before the engine reported any kind', () => {
    expect(describeHealth(null)).toBeNull();
    expect(describeHealth(clusterHealth('e', []))).toBeNull();
  });

  it('says how far behind a live kind is while it catches up, and forgets it once caught up', () => {
    const behind = clusterHealth('e', [
      kindHealth('pods', 'live', 50_000, { lagMs: 7_000 }),
      kindHealth('events', 'live', 900, { lagMs: 3_000 }),
      kindHealth('nodes', 'live', 12),
    ]);
    expect(describeHealth(behind)).toMatchObject({
      tone: 'syncing',
      headline: 'Live · pods behind by 7 s, catching up (+1 more kind)',
      reason: 'changes arrive faster than they can be applied; intermediate states are skipped',
    });
    expect(describeHealth(behind)?.detail).toContain('pods: live · 50,000 objects · behind by 7 s');
    const caughtUp = clusterHealth('e', [kindHealth('pods', 'live', 50_000), kindHealth('nodes', 'live', 12)]);
    expect(describeHealth(caughtUp)?.headline).toBe('Live · 2 kinds · 50,012 objects');
  });

  it('puts reconnecting before syncing, naming every reconnecting kind and the earliest error', () => {
    const health = clusterHealth('e', [
      kindHealth('pods', 'syncing', 10),
      kindHealth('nodes', 'reconnecting', 3, { since: today(12, 5), message: 'later' }),
      kindHealth('events', 'reconnecting', 3, { since: today(11, 58), message: 'HTTP 500 from the API server' }),
    ]);
    expect(describeHealth(health)).toMatchObject({
      tone: 'reconnecting',
      headline: 'Reconnecting events, nodes since 11:58',
      reason: 'HTTP 500 from the API server',
      text: 'Reconnecting events, nodes since 11:58 — HTTP 500 from the API server',
    });
  });

  it('writes the day beside a "since" that is not today (a laptop that slept through the night)', () => {
    const health = clusterHealth('e', [kindHealth('pods', 'reconnecting', 10, { since: new Date(2025, 4, 1, 23, 58).getTime(), message: 'Cannot reach https://k8s (ECONNREFUSED).' })]);
    expect(describeHealth(health)?.headline).toBe('Reconnecting pods since May 1, 23:58');
  });

  it('counts the kinds instead of naming them once more than two reconnect, and says so when it is all of them', () => {
    const refused = 'Cannot reach https://api.prod-eu-west-1.example.com:6443 (ECONNREFUSED).';
    const at = (minute: number) => today(14, minute);
    const kinds = ALL_KINDS.map((kind, i) => kindHealth(kind, 'reconnecting', 10, { since: at(3 + (i % 3)), message: refused }));
    const all = describeHealth(clusterHealth('e', kinds));
    expect(all).toMatchObject({ headline: 'Reconnecting all 12 kinds since 14:03', reason: refused });
    const some = describeHealth(clusterHealth('e', kinds.map((kind, i) => (i < 5 ? kind : { ...kind, state: 'live' as const, message: undefined }))));
    expect(some?.headline).toBe('Reconnecting 5 of 12 kinds since 14:03');
  });

  it('puts every reconnecting kind in the tooltip, one line per distinct message, then the kinds that are fine', () => {
    const health = clusterHealth('e', [
      kindHealth('pods', 'reconnecting', 50_000, { since: today(14, 3), message: 'https://k8s dropped the Pod connection (ECONNRESET).' }),
      kindHealth('nodes', 'reconnecting', 12, { since: today(14, 4), message: 'Cannot reach https://k8s (ECONNREFUSED).' }),
      kindHealth('services', 'reconnecting', 40, { since: today(14, 5), message: 'Cannot reach https://k8s (ECONNREFUSED).' }),
      kindHealth('deployments.apps', 'live', 300),
    ]);
    expect(describeHealth(health)?.detail).toBe(
      [
        'Reconnecting 3 kinds; objects stay as last seen until each is back:',
        '• pods (since 14:03): https://k8s dropped the Pod connection (ECONNRESET).',
        '• nodes, services (since 14:04): Cannot reach https://k8s (ECONNREFUSED).',
        '',
        'deployments: live · 300 objects',
      ].join('\n'),
    );
  });

  it('shows the snapshot still on its way once the engine has listed everything', () => {
    const health = clusterHealth('e', [kindHealth('pods', 'live', 50_000)]);
    expect(describeHealth(health, { sent: 12_000, total: 50_000 })?.text).toBe('Loading 12,000/50,000 objects');
    expect(describeHealth(health, { sent: 50_000, total: 50_000 })?.text).toBe('Live · 1 kind · 50,000 objects');
  });

  it('says "Offline snapshot", not "Live", when the objects come from an opened snapshot file', () => {
    const health = clusterHealth('e', [kindHealth('pods', 'live', 12)]);
    expect(describeHealth(health, null, { offline: true })?.text).toBe('Offline snapshot · 1 kind · 12 objects');
    expect(describeHealth(health, null)?.text).toBe('Live · 1 kind · 12 objects');
  });

  it('lists one line per kind for the tooltip', () => {
    const health = clusterHealth('e', [kindHealth('pods', 'live', 5), kindHealth('events', 'forbidden', 0, { message: 'no list verb' })]);
    expect(describeHealth(health)?.detail).toBe('pods: live · 5 objects\nevents: forbidden · 0 objects · since 12:01 · no list verb');
  });

  it('names forbidden and unavailable kinds apart', () => {
    const health = clusterHealth('e', [kindHealth('events', 'forbidden', 0), kindHealth('horizontalpodautoscalers.autoscaling', 'unavailable', 0, { message: 'not served' })]);
    expect(describeBlockedKinds(health)).toEqual({
      text: 'Forbidden: events · Unavailable: horizontalpodautoscalers',
      detail: 'events: forbidden\nhorizontalpodautoscalers: not served',
    });
    expect(describeBlockedKinds(clusterHealth('e', [kindHealth('pods', 'live', 1)]))).toBeNull();
  });
});
