/**
 * `record_overhead_ratio`: the engine's CPU while 5,000 pod modifications a second arrive for
 * 30 s, with history recording on, over the same with recording off (the `historyRecording`
 * setting). The simulated cluster (50,000 pods; 1,000 and 500/s for 3 s when quick) runs in its
 * own process (live-sim.ts), so this process holds only the engine: informers, cache, frame
 * stream, and — when on — the recorder, its compression, the flushes and keyframes.
 *
 * Each run starts a fresh engine with a fresh data directory, waits for the initial sync and for
 * the engine to go quiet (the first keyframe of 50,000 objects is written then, as after any
 * connect), then measures from the first write until the engine has applied the last one plus
 * the flush interval and a second, so every change has been written to the history too. The
 * runs go off, on, on, off, and the ratio is of the sums.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Engine } from '../../electron/engine/engine.ts';
import { borrowedCluster, createIsolatedEngine } from '../helpers/engine.ts';
import type { ClusterFrame } from '../../shared/cluster.ts';
import { startSimProcess, type SimProcess } from './live-sim.ts';
import { round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

const SYNC_TIMEOUT_MS = 180_000;
const QUIET_TIMEOUT_MS = 90_000;
const CATCH_UP_TIMEOUT_MS = 60_000;
/** After the last write is applied: one flush interval and a margin, so recording has caught up. */
const SETTLE_MS = 1_500;

function load(quick: boolean) {
  return quick ? { perSecond: 500, seconds: 3 } : { perSecond: 5_000, seconds: 30 };
}

const cpuSeconds = (since?: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** Waits until this process used under 10% of a core for two seconds in a row. */
async function quiet(): Promise<void> {
  const deadline = performance.now() + QUIET_TIMEOUT_MS;
  let calm = 0;
  while (calm < 2) {
    if (performance.now() > deadline) throw new Error('the engine did not go quiet after its sync');
    const before = process.cpuUsage();
    await sleep(1_000);
    calm = cpuSeconds(before) < 0.1 ? calm + 1 : 0;
  }
}

async function measure(ctx: BenchContext, sim: SimProcess, recording: boolean): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-overhead-'));
  await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ historyRecording: recording }));
  let engine: Engine | undefined;
  try {
    engine = createIsolatedEngine(dataDir, borrowedCluster(sim), { version: 'bench', dataDir, log: (m) => ctx.log(`engine: ${m}`) });
    // The store's resourceVersions only grow: the last write is applied once its version is sent.
    let newestRv = 0;
    engine.hub.listen((stream, payload) => {
      const frame = payload as ClusterFrame;
      if (stream !== 'cluster:frames' || frame.type !== 'delta') return;
      for (const object of frame.upserts) newestRv = Math.max(newestRv, Number(object.metadata.resourceVersion));
    });
    const expected = await sim.watchedObjects();
    await engine.start();
    const live = engine;
    await until(() => live.inspectCache().length >= expected, SYNC_TIMEOUT_MS, `the engine to hold ${expected} objects`);
    await quiet();
    const { perSecond, seconds } = load(ctx.quick);
    const before = process.cpuUsage();
    const run = await sim.churn(perSecond, perSecond * seconds);
    await until(() => newestRv >= run.lastRv, CATCH_UP_TIMEOUT_MS, 'the engine to apply the last write');
    await sleep(SETTLE_MS);
    const used = cpuSeconds(before);
    const status = await engine.dispatch('history:status', {});
    ctx.log(`overhead: recording ${recording ? 'on' : 'off'}: ${round(used, 2)} CPU s for ${run.written} writes at ${Math.round(run.achievedPerSecond)}/s; history ${JSON.stringify(status.ok ? status.value : status.error)}`);
    return used;
  } finally {
    await engine?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export const historyOverhead: BenchScenario = {
  name: 'history-overhead',
  results: ['record_overhead_ratio'],
  goals: [{ result: 'record_overhead_ratio', atMost: 1.2 }],
  async run(ctx) {
    const sim = await startSimProcess(ctx.sizes);
    try {
      // Off, on, on, off: whatever drifts over the runs (the cluster's growing history, the
      // machine's other load) weighs on both sides alike.
      const cpu = { on: 0, off: 0 };
      for (const recording of [false, true, true, false]) {
        (globalThis as { gc?: () => void }).gc?.();
        cpu[recording ? 'on' : 'off'] += await measure(ctx, sim, recording);
      }
      return { record_overhead_ratio: round(cpu.on / cpu.off, 2) };
    } finally {
      await sim.stop();
    }
  },
};
