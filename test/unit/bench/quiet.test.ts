import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { treeCpuSeconds, waitForQuiet } from '../../bench/quiet.ts';

const BUSY_CHILD = 'const end = Date.now() + 600; while (Date.now() < end);';

describe.runIf(process.platform === 'linux')('waiting for a process tree to go quiet', () => {
  it('counts the CPU of its children and waits until they stop working', { timeout: 20_000 }, async () => {
    const before = (await treeCpuSeconds(process.pid)) as number;
    const child = spawn(process.execPath, ['-e', BUSY_CHILD], { stdio: 'ignore' });
    const exited = once(child, 'exit');
    // Sampled while the child spins: its CPU is the tree's.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(((await treeCpuSeconds(process.pid)) as number) - before).toBeGreaterThan(0.1);
    const started = performance.now();
    await waitForQuiet(process.pid, { windowMs: 200 });
    // Not quiet while the child still had ~200 ms to spin.
    expect(performance.now() - started).toBeGreaterThan(150);
    await exited;
  });
});
