/**
 * `backfill_on_connect_ms` (issue #20): a context is connected to a 5,000-pod aged cluster
 * (history-sim-child.ts: Deployments with their old ReplicaSets, crash-looping pods, Jobs and
 * the last hour of Events; ~30,000 objects) and the time is taken from the connect (a background
 * context recorder started: probe, history opened, informers listing) to the backfill's rows
 * written, as its log line reports; `backfill_write_ms` is the backfill's own part (from the
 * informers' first lists to its rows written; the rest is listing the cluster and recording
 * its first state). Twice over the same file: the second connect must add no row
 * (deterministic ids); its time is reported as `backfill_reconnect_ms`. The cluster runs in
 * another process, as a real API server does. Quick: 300 pods.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startContextRecorder } from '../../electron/engine/background/context-recorder.ts';
import { startHistorySim } from './history-sim.ts';
import type { BenchScenario } from './types.ts';

const FULL_PODS = 5_000;
const QUICK_PODS = 300;
/** The whole connect must end well within this; more is a failure, not a measurement. */
const CONNECT_TIMEOUT_MS = 120_000;

const BACKFILL_LINE = /backfill read (\d+) objects into (\d+) inferred rows \((\d+) new\) in (\d+) ms/;

interface Connect {
  ms: number;
  objects: number;
  rows: number;
  added: number;
  backfillMs: number;
}

/** Starts a recorder of `config` into `dataDir` and resolves when its backfill is written. */
async function connect(config: object, dataDir: string): Promise<Connect> {
  let done: ((value: Connect) => void) | undefined;
  const finished = new Promise<Connect>((resolve) => (done = resolve));
  const started = performance.now();
  const recorder = startContextRecorder({
    context: 'aged',
    dataDir,
    clientConfig: async () => config,
    now: Date.now,
    log: (message) => {
      const match = BACKFILL_LINE.exec(message);
      if (match) done?.({ ms: performance.now() - started, objects: Number(match[1]), rows: Number(match[2]), added: Number(match[3]), backfillMs: Number(match[4]) });
    },
    limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 4 }),
    onStatus: () => undefined,
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      finished,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no backfill within ${CONNECT_TIMEOUT_MS / 1000} s of connecting (status ${JSON.stringify(recorder.status())})`)), CONNECT_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    await recorder.stop();
  }
}

export const backfillConnect: BenchScenario = {
  name: 'backfill-connect',
  results: ['backfill_on_connect_ms', 'backfill_write_ms', 'backfill_reconnect_ms', 'backfill_rows'],
  goals: [{ result: 'backfill_on_connect_ms', below: 2_000 }],
  async run(ctx) {
    const sim = await startHistorySim(['aged', String(ctx.quick ? QUICK_PODS : FULL_PODS)]);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'kubedrift-bench-backfill-'));
    try {
      ctx.log(`aged cluster: ${sim.pods} pods, ${sim.objects} objects seeded`);
      (globalThis as { gc?: () => void }).gc?.();
      const first = await connect(sim.kubeconfig, dataDir);
      ctx.log(`first connect: backfill of ${first.objects} objects into ${first.rows} rows (${first.added} new) written ${Math.round(first.ms)} ms after connecting (backfill itself ${first.backfillMs} ms)`);
      (globalThis as { gc?: () => void }).gc?.();
      const again = await connect(sim.kubeconfig, dataDir);
      ctx.log(`reconnect: ${again.rows} rows rewritten, ${again.added} new, in ${Math.round(again.ms)} ms`);
      if (again.added !== 0) throw new Error(`a reconnect added ${again.added} inferred rows; deterministic ids should add none`);
      if (first.rows === 0) throw new Error('the backfill of an aged cluster wrote no rows');
      return { backfill_on_connect_ms: Math.round(first.ms), backfill_write_ms: first.backfillMs, backfill_reconnect_ms: Math.round(again.ms), backfill_rows: first.rows };
    } finally {
      await sim.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
