import { afterEach, describe, expect, it, vi } from 'vitest';
import { FramesFlow } from '../../../electron/web/frames-flow.ts';

const delta = { type: 'delta' };
const begin = { type: 'snapshot-begin' };

let flow: FramesFlow<{ bufferedAmount: number }> | undefined;
afterEach(() => flow?.close());

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('frames flow', () => {
  it('cuts a client off past the bound and leaves the others flowing', () => {
    flow = new FramesFlow({ requestSnapshot: vi.fn(), cutoffBytes: 1000 });
    const slow = { bufferedAmount: 0 };
    const fast = { bufferedAmount: 0 };
    flow.add(slow);
    flow.add(fast);
    expect(flow.admit(slow, delta)).toBe(true);
    slow.bufferedAmount = 1001;
    fast.bufferedAmount = 600;
    expect(flow.backlog()).toBe(1001);
    expect(flow.admit(slow, delta)).toBe(false);
    expect(flow.admit(fast, delta)).toBe(true);
    expect(flow.backlog()).toBe(600);
    expect(flow.cutoffs()).toBe(1);
  });

  it('asks once for a snapshot when cut-off clients drain, and resumes them at its begin frame', async () => {
    const requestSnapshot = vi.fn();
    flow = new FramesFlow({ requestSnapshot, cutoffBytes: 1000, resumeBytes: 100, pollMs: 2 });
    const a = { bufferedAmount: 5000 };
    const b = { bufferedAmount: 5000 };
    flow.add(a);
    flow.add(b);
    flow.admit(a, delta);
    flow.admit(b, delta);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(requestSnapshot).not.toHaveBeenCalled();
    a.bufferedAmount = 0;
    b.bufferedAmount = 50;
    await until(() => requestSnapshot.mock.calls.length > 0);
    expect(requestSnapshot).toHaveBeenCalledTimes(1);
    expect(flow.admit(a, delta)).toBe(false);
    expect(flow.admit(a, { type: 'snapshot-chunk' })).toBe(false);
    expect(flow.admit(a, begin)).toBe(true);
    expect(flow.admit(a, delta)).toBe(true);
  });

  it('forgets a client that unsubscribed', () => {
    flow = new FramesFlow({ requestSnapshot: vi.fn() });
    const socket = { bufferedAmount: 0 };
    flow.add(socket);
    flow.remove(socket);
    expect(flow.admit(socket, delta)).toBe(false);
  });
});
