// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { effectScope } from 'vue';
import { ok } from '../../../../shared/result.ts';
import { LIVE_REFRESH_MS, useLiveRefresh } from '../../../../renderer/components/charts/live-refresh.ts';
import type { RangeSelection } from '../../../../renderer/components/charts/time-range.ts';
import { STATUS } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

useRendererTest({ hash: '#/overview' });
afterEach(() => vi.useRealTimers());

async function follow(selection: RangeSelection) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const api = installApi({ 'history:status': () => ok(STATUS) });
  const reload = vi.fn();
  const scope = effectScope();
  scope.run(() => useLiveRefresh(() => selection, reload));
  await flushPromises();
  let samples = STATUS.samples;
  const recorded = async (): Promise<void> => {
    samples += 10;
    api.emit('history:status', { ...STATUS, samples });
    await flushPromises();
  };
  return { reload, recorded, scope };
}

describe('live refresh of history views', () => {
  it('re-asks as the recorder writes, at most once per interval, while the range ends now', async () => {
    const { reload, recorded, scope } = await follow({ choice: '1h', custom: null });
    await recorded();
    await recorded();
    expect(reload).not.toHaveBeenCalled();
    vi.advanceTimersByTime(LIVE_REFRESH_MS);
    expect(reload).toHaveBeenCalledTimes(1);
    await recorded();
    vi.advanceTimersByTime(LIVE_REFRESH_MS);
    expect(reload).toHaveBeenCalledTimes(2);
    scope.stop();
    await recorded();
    vi.advanceTimersByTime(LIVE_REFRESH_MS);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('leaves a custom range alone', async () => {
    const { reload, recorded } = await follow({ choice: 'custom', custom: { from: 1, to: 2 } });
    await recorded();
    vi.advanceTimersByTime(LIVE_REFRESH_MS * 2);
    expect(reload).not.toHaveBeenCalled();
  });
});
