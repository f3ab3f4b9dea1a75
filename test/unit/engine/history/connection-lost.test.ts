import { describe, expect, it } from 'vitest';
import type { KindHealth } from '../../../../shared/cluster.ts';
import { connectionLost } from '../../../../electron/engine/history/coverage.ts';

const kind = (key: string, state: KindHealth['state']): KindHealth => ({ kind: key, state, count: 0, since: 0 });

describe('connectionLost', () => {
  it('is lost when every kind reconnects', () => {
    expect(connectionLost([kind('pods', 'reconnecting'), kind('deployments.apps', 'reconnecting')])).toBe(true);
  });

  it('is lost for a restricted user too: kinds hidden by permissions or not served stay so while the server is unreachable', () => {
    expect(connectionLost([kind('pods', 'reconnecting'), kind('nodes', 'forbidden'), kind('certificates.cert-manager.io', 'unavailable')])).toBe(true);
  });

  it('is not lost while any kind is live or listing', () => {
    expect(connectionLost([kind('pods', 'reconnecting'), kind('deployments.apps', 'live')])).toBe(false);
    expect(connectionLost([kind('pods', 'reconnecting'), kind('jobs.batch', 'syncing')])).toBe(false);
  });

  it('is not lost when nothing reconnects (no kinds yet, or every kind forbidden)', () => {
    expect(connectionLost([])).toBe(false);
    expect(connectionLost([kind('pods', 'forbidden'), kind('nodes', 'forbidden')])).toBe(false);
  });
});
