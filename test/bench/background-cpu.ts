/**
 * `background_record_cpu_ratio` (issue #20): what recording three contexts in the background
 * costs an otherwise idle app. The demo cluster (history-sim-child.ts: its controllers and
 * timeline running, and POD_CHANGES_PER_S pod changes a second besides, in another process) is recorded under three context names, each with its
 * own informers and history file (background/manager.ts), nothing selected and no window. Once
 * all three have synced and backfilled, this process's CPU time is taken over a fixed window,
 * less what the same process used idle over a window before they started, and divided by the
 * window: the share of one core the three recorders use. The budget is
 * BACKGROUND_CPU_BUDGET_PER_CONTEXT of a core per context; the heap they hold is reported beside.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createBackgroundRecording } from '../../electron/engine/background/manager.ts';
import { startHistorySim } from './history-sim.ts';
import { round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const CONTEXTS = ['bg-east', 'bg-west', 'bg-north'];
/** Pod changes a second the cluster makes besides the demo's own (history-sim-child.ts). */
const POD_CHANGES_PER_S = 100;
/** The budget: each background context may use this share of one core at most (5 %). */
export const BACKGROUND_CPU_BUDGET_PER_CONTEXT = 0.05;
const WINDOW_MS = 30_000;
const IDLE_WINDOW_MS = 10_000;
const QUICK_WINDOW_MS = 1_000;
/** After the backfills, before the window: the first flushes and retention have run. */
const SETTLE_MS = 3_000;
const START_TIMEOUT_MS = 120_000;

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const cpuSeconds = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** Cores used over `ms` of waiting (CPU seconds / wall seconds). */
async function coresOver(ms: number): Promise<number> {
  const cpu = cpuSeconds();
  const wall = performance.now();
  await sleep(ms);
  return (cpuSeconds() - cpu) / ((performance.now() - wall) / 1_000);
}

export const backgroundCpu: BenchScenario = {
  name: 'background-record',
  results: ['background_record_cpu_ratio', 'background_record_cpu_per_context', 'background_record_heap_mb'],
  goals: [
    { result: 'background_record_cpu_ratio', atMost: round(BACKGROUND_CPU_BUDGET_PER_CONTEXT * CONTEXTS.length, 4) },
    { result: 'background_record_cpu_per_context', atMost: BACKGROUND_CPU_BUDGET_PER_CONTEXT },
  ],
  async run(ctx) {
    const sim = await startHistorySim(['demo', String(POD_CHANGES_PER_S)]);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kubedrift-bench-background-'));
    const window = ctx.quick ? QUICK_WINDOW_MS : WINDOW_MS;
    let backfilled = 0;
    const recording = createBackgroundRecording({
      dataDir,
      now: Date.now,
      log: (message) => {
        if (message.includes('history: backfill read')) backfilled += 1;
        if (message.includes('retrying')) ctx.log(message);
      },
      chosen: () => CONTEXTS,
      selected: () => null,
      recordable: () => true,
      clientConfig: async () => sim.kubeconfig,
      limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
    });
    try {
      gc();
      const idle = await coresOver(ctx.quick ? QUICK_WINDOW_MS : IDLE_WINDOW_MS);
      const heapBefore = process.memoryUsage().heapUsed;
      recording.reconcile();
      const deadline = Date.now() + START_TIMEOUT_MS;
      while (backfilled < CONTEXTS.length) {
        if (Date.now() > deadline) throw new Error(`only ${backfilled} of ${CONTEXTS.length} background contexts synced within ${START_TIMEOUT_MS / 1000} s: ${JSON.stringify(recording.status())}`);
        await sleep(100);
      }
      await sleep(ctx.quick ? 500 : SETTLE_MS);
      gc();
      const busy = await coresOver(window);
      gc();
      const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 ** 2;
      const ratio = Math.max(0, busy - idle);
      ctx.log(`${CONTEXTS.length} contexts of the demo cluster (${sim.pods} pods, ${POD_CHANGES_PER_S} pod changes/s) recorded in the background: ${round(busy * 100)} % of a core over ${window / 1000} s, ${round(idle * 100)} % idle before; budget ${BACKGROUND_CPU_BUDGET_PER_CONTEXT * 100} % per context; heap +${round(heapMb)} MB`);
      return {
        background_record_cpu_ratio: round(ratio, 4),
        background_record_cpu_per_context: round(ratio / CONTEXTS.length, 4),
        background_record_heap_mb: round(heapMb),
      };
    } finally {
      await recording.dispose();
      await sim.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
