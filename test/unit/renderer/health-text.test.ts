import { describe, expect, it } from 'vitest';
import { describeBlockedKinds, describeHealth } from '../../../renderer/stores/cluster/health-text.ts';
import { clusterHealth, kindHealth } from './cluster-fixtures.ts';

describe('cluster health text', () => {
  it('says nothing before the engine reported any kind', () => {
    expect(describeHealth(null)).toBeNull();
    expect(describeHealth(clusterHealth('e', []))).toBeNull();
  });

  it('puts reconnecting before syncing, naming every reconnecting kind and the earliest error', () => {
    const health = clusterHealth('e', [
      kindHealth('Pod', 'syncing', 10),
      kindHealth('Node', 'reconnecting', 3, { since: new Date(2025, 4, 1, 12, 5).getTime(), message: 'later' }),
      kindHealth('Event', 'reconnecting', 3, { since: new Date(2025, 4, 1, 11, 58).getTime(), message: 'HTTP 500 from the API server' }),
    ]);
    expect(describeHealth(health)).toMatchObject({ tone: 'reconnecting', text: 'Reconnecting events, nodes since 11:58 — HTTP 500 from the API server' });
  });

  it('shows the snapshot still on its way once the engine has listed everything', () => {
    const health = clusterHealth('e', [kindHealth('Pod', 'live', 50_000)]);
    expect(describeHealth(health, { sent: 12_000, total: 50_000 })?.text).toBe('Loading 12,000/50,000 objects');
    expect(describeHealth(health, { sent: 50_000, total: 50_000 })?.text).toBe('Live · 1 kind · 50,000 objects');
  });

  it('lists one line per kind for the tooltip', () => {
    const health = clusterHealth('e', [kindHealth('Pod', 'live', 5), kindHealth('Event', 'forbidden', 0, { message: 'no list verb' })]);
    expect(describeHealth(health)?.detail).toBe('pods: live · 5 objects\nevents: forbidden · 0 objects · since 12:01 · no list verb');
  });

  it('names forbidden and unavailable kinds apart', () => {
    const health = clusterHealth('e', [kindHealth('Event', 'forbidden', 0), kindHealth('HorizontalPodAutoscaler', 'unavailable', 0, { message: 'not served' })]);
    expect(describeBlockedKinds(health)).toEqual({
      text: 'Forbidden: events · Unavailable: horizontalpodautoscalers',
      detail: 'events: forbidden\nhorizontalpodautoscalers: not served',
    });
    expect(describeBlockedKinds(clusterHealth('e', [kindHealth('Pod', 'live', 1)]))).toBeNull();
  });
});
