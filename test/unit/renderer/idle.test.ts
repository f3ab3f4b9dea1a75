import { afterEach, describe, expect, it, vi } from 'vitest';
import { whenIdle } from '../../../renderer/components/table/idle.ts';

describe('idle work', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('runs as a background-priority task where the browser schedules by priority', async () => {
    const postTask = vi.fn((callback: () => void) => Promise.resolve().then(callback));
    const requestIdleCallback = vi.fn();
    vi.stubGlobal('scheduler', { postTask });
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    const task = vi.fn();
    whenIdle(task);
    expect(postTask).toHaveBeenCalledWith(expect.any(Function), { priority: 'background' });
    await Promise.resolve();
    await Promise.resolve();
    expect(task).toHaveBeenCalledTimes(1);
    expect(requestIdleCallback).not.toHaveBeenCalled();
  });

  it('waits for an idle period, with a timeout, where there is no such scheduler', () => {
    const requestIdleCallback = vi.fn((callback: () => void) => (callback(), 1));
    vi.stubGlobal('scheduler', undefined);
    vi.stubGlobal('requestIdleCallback', requestIdleCallback);
    const task = vi.fn();
    whenIdle(task);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 2_000 });
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('falls back to a timer', () => {
    vi.useFakeTimers();
    vi.stubGlobal('scheduler', undefined);
    vi.stubGlobal('requestIdleCallback', undefined);
    const task = vi.fn();
    whenIdle(task);
    expect(task).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(task).toHaveBeenCalledTimes(1);
  });
});
