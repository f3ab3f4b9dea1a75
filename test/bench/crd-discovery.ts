/**
 * Discovery and watches of a cluster with 300 CRDs (Crossplane installs 300-900), all empty.
 * The simulated cluster runs in its own process (live-sim.ts) with a handful of pods; the engine
 * (a LiveCluster: discovery registry, CRD watch, informers) runs here. Runs alternate between the
 * cluster with the CRDs and the same cluster without them (they are created and deleted between
 * runs), so both arms see the same machine speed:
 * - `discovery_300_crds_ms`: from `LiveCluster.watch` until discovery has finished, it knows
 *   every one of the 300 kinds, and every kind the engine follows (the 300 and the built-in
 *   ones) reports live; median of the runs with the CRDs.
 * - `watch_connections_300_crds`: watch streams the server holds open once everything is live,
 *   with the CRDs minus without them (median of the pairs): what the 300 kinds cost in watches.
 * - `tcp_connections_300_crds`: established TCP connections to the server, the same difference.
 *   The engine speaks HTTP/1.1, so each open watch holds a socket of its own.
 * - `excluded_kind_requests`: requests (list or watch) for the one kind of a group the engine
 *   is told to exclude (EXCLUDED_GROUP, created beside the 300): must be 0.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { discovered, fewPodsSim, followedLive, startEngine } from './crd-engine.ts';
import { benchKind, EXCLUDED_GROUP } from './crd-fixture.ts';
import type { SimProcess } from './live-sim.ts';
import { percentile, round } from './stats.ts';
import type { BenchContext, BenchScenario } from './types.ts';

const LIVE_TIMEOUT_MS = 60_000;

function plan(quick: boolean): { crds: number; pairs: number } {
  return quick ? { crds: 10, pairs: 1 } : { crds: 300, pairs: 3 };
}

/** Reads the server's connections until two readings 200 ms apart agree (watches opening late). */
async function steadyConnections(sim: SimProcess): Promise<{ watches: number; tcp: number | null }> {
  let last = await sim.crds.connections();
  for (let i = 0; i < 25; i += 1) {
    await sleep(200);
    const now = await sim.crds.connections();
    if (now.watches === last.watches && now.tcp === last.tcp) return now;
    last = now;
  }
  return last;
}

/** Waits until the server holds no watch open: the previous engine is gone. */
async function drained(sim: SimProcess): Promise<void> {
  const deadline = performance.now() + 10_000;
  while ((await sim.crds.connections()).watches > 0) {
    if (performance.now() > deadline) throw new Error('the server still held watches open 10 s after the engine stopped');
    await sleep(50);
  }
}

interface RunResult {
  ms: number;
  /** CPU seconds of this process (the engine) and of the server's process until everything was live. */
  engineCpu: number;
  serverCpu: number;
  watches: number;
  tcp: number | null;
  excludedRequests: number;
}

async function runOnce(sim: SimProcess, crds: number): Promise<RunResult> {
  const keys = Array.from({ length: crds }, (_, i) => benchKind(i).key);
  const excludedKey = benchKind(0, EXCLUDED_GROUP).key;
  if (crds > 0) await sim.crds.install(crds, true);
  // Its objects' paths (`/apis/<group>/v1/...`), not its discovery document (`/apis/<group>/v1`);
  // and, to show the count works, those of a kind that is watched.
  await sim.crds.recordRequests([`/apis/${EXCLUDED_GROUP}/v1/`, `/apis/${benchKind(0).group}/v1/`]);
  const serverCpuBefore = await sim.cpuSeconds();
  const cpuBefore = process.cpuUsage();
  const engine = await startEngine(sim, [{ apiGroups: [EXCLUDED_GROUP], kinds: ['*'] }]);
  try {
    const wanted = crds > 0 ? [...keys, excludedKey] : [];
    const at = await engine.until('discovery done and every followed kind live', (view) => discovered(view, wanted) && followedLive(view), LIVE_TIMEOUT_MS);
    const cpu = process.cpuUsage(cpuBefore);
    const serverCpu = (await sim.cpuSeconds()) - serverCpuBefore;
    if (crds > 0) {
      const entries = new Map(engine.cluster.discoveryState().state?.kinds.map((k) => [k.key, k]));
      if (entries.get(excludedKey)?.mode !== 'excluded') throw new Error(`${excludedKey} is ${entries.get(excludedKey)?.mode ?? 'missing'}, not excluded`);
      const notFull = keys.filter((key) => entries.get(key)?.mode !== 'full');
      if (notFull.length > 0) throw new Error(`${notFull.length} benchmark kinds are not watched in full (${notFull[0]}: ${entries.get(notFull[0] as string)?.mode})`);
    }
    const { watches, tcp } = await steadyConnections(sim);
    const [excludedRequests = 0, watchedRequests = 0] = await sim.crds.recordedRequests();
    // A list and a watch at least, or the count of the excluded kind's requests means nothing.
    if (crds > 0 && watchedRequests < 2) throw new Error(`the simulator counted ${watchedRequests} requests for ${keys[0]}, which is watched`);
    return { ms: at - engine.startedAt, engineCpu: (cpu.user + cpu.system) / 1e6, serverCpu, watches, tcp, excludedRequests };
  } finally {
    await engine.stop();
    await drained(sim);
    if (crds > 0) await sim.crds.remove();
  }
}

async function measure(ctx: BenchContext, sim: SimProcess) {
  const { crds, pairs } = plan(ctx.quick);
  const withCrds: RunResult[] = [];
  const without: RunResult[] = [];
  // An untimed first run: the engine's modules, the list worker and the JIT warm up on it.
  if (!ctx.quick) await runOnce(sim, 0);
  for (let i = 0; i < pairs; i += 1) {
    // Alternate which arm goes first, so neither always runs on the warmer process.
    const order = i % 2 === 0 ? [crds, 0] : [0, crds];
    for (const count of order) {
      (globalThis as { gc?: () => void }).gc?.();
      const run = await runOnce(sim, count);
      (count > 0 ? withCrds : without).push(run);
      ctx.log(
        `discovery: ${count} CRDs, every kind live after ${Math.round(run.ms)} ms (CPU: engine ${round(run.engineCpu, 2)} s, server ${round(run.serverCpu, 2)} s); ` +
          `server holds ${run.watches} watches, ${run.tcp ?? '?'} TCP connections`,
      );
    }
  }
  const median = (values: number[]) => percentile(values, 50);
  const tcpDiffs = withCrds.flatMap((w, i) => {
    const base = without[i]?.tcp;
    return w.tcp !== null && typeof base === 'number' ? [w.tcp - base] : [];
  });
  return {
    discovery_300_crds_ms: Math.round(median(withCrds.map((r) => r.ms))),
    watch_connections_300_crds: median(withCrds.map((w, i) => w.watches - (without[i]?.watches ?? 0))),
    ...(tcpDiffs.length > 0 ? { tcp_connections_300_crds: median(tcpDiffs) } : {}),
    excluded_kind_requests: Math.max(...withCrds.map((r) => r.excludedRequests)),
    discovery_without_crds_ms: round(median(without.map((r) => r.ms))),
  };
}

export const crdDiscovery: BenchScenario = {
  name: 'crd-discovery',
  results: ['discovery_300_crds_ms', 'watch_connections_300_crds', 'tcp_connections_300_crds', 'excluded_kind_requests', 'discovery_without_crds_ms'],
  goals: [
    { result: 'discovery_300_crds_ms', below: 2_000 },
    { result: 'excluded_kind_requests', atMost: 0 },
  ],
  sharedSimProcess: true,
  async run(ctx) {
    return measure(ctx, await fewPodsSim(ctx));
  },
};
