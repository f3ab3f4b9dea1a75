/**
 * `state_at_time_rebuild_ms`: rebuilding a 10,000-object cluster (the churn generator's pods,
 * ReplicaSets, Deployments, nodes and namespaces, slimmed exactly as the informers slim them) as
 * it was at a past moment, from the history database, with nothing cached.
 *
 * The history is recorded by the production recorder (store.ts, manual clock): the initial
 * objects and keyframe, then 100,000 modifications from the churn generator (readiness flips,
 * label changes, restarts) at 1,000 a second, flushed every 500 ms as the timer would. The
 * moments measured are the worst ones — shortly before a keyframe, where the most changes must
 * be replayed — plus a few in between (logged). Reported: the median of the worst moments, each
 * a cold rebuild (a new reader, nothing cached, the heap collected first).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { slimObject } from '../../electron/engine/cluster/informers/slim.ts';
import { createStateReader } from '../../electron/engine/history/state-at.ts';
import { openStore } from '../../electron/engine/history/store.ts';
import { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../electron/engine/simcluster/types.ts';
import { ObjectCache } from '../../electron/engine/stream/cache.ts';
import { seedChurn } from './sim-fixture.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';
import { upsertBuiltin } from '../unit/engine/stream/cache-helpers.ts';
import { builtinKeyOf } from '../../shared/builtin-kinds.ts';

/** ~10,000 objects: 10 namespaces x 20 Deployments x 45 pods, plus ReplicaSets, nodes, namespaces. */
const SIZES = { namespaces: 10, deploymentsPerNamespace: 20, podsPerDeployment: 45 };
const QUICK_SIZES = { namespaces: 2, deploymentsPerNamespace: 10, podsPerDeployment: 45 };
const MODIFICATIONS_MS = 1;
const FLUSH_EVERY = 500;

const slim = (object: KubeObject) => slimObject(object, { kind: builtinKeyOf(object), objectKind: object.kind, apiVersion: object.apiVersion });
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

export const historyStateAt: BenchScenario = {
  name: 'history-state-at',
  results: ['state_at_time_rebuild_ms'],
  goals: [{ result: 'state_at_time_rebuild_ms', below: 500 }],
  async run(ctx) {
    const dir = await mkdtemp(path.join(tmpdir(), 'kubedrift-bench-state-'));
    const sim = new ObjectStore();
    const cache = new ObjectCache();
    let now = Date.now() - 3_600_000;
    const store = openStore({
      file: path.join(dir, 'history.sqlite'),
      context: 'bench',
      cache,
      record: true,
      now: () => now,
      log: ctx.log,
      limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 4 }),
      onStatus: () => {},
      timing: { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30 },
    });
    try {
      sim.onChange((change) => {
        if (change.type === 'DELETED') cache.delete(builtinKeyOf(change.object), change.object.metadata.uid);
        else upsertBuiltin(cache, slim(change.object));
      });
      const driver = seedChurn(sim, ctx.quick ? QUICK_SIZES : SIZES);
      store.synced();
      // The first keyframe is taken here: the state log starts at this moment (state-at.ts
      // refuses an earlier one), so no moment measured is older.
      const recordedFrom = now;
      await store.flush();
      await settle();
      ctx.log(`state-at: ${cache.size()} objects recorded`);
      // Keyframes come every four changes per object (~40,000 here): two and a half spans.
      const modifications = ctx.quick ? 6_000 : 100_000;
      const keyframeTimes: number[] = [];
      const db = store.db;
      const lastKeyframe = () => (db.prepare('SELECT max(at) AS at FROM keyframes WHERE complete = 1').get() as { at: number | null }).at;
      for (let done = 0; done < modifications; done += FLUSH_EVERY) {
        const before = lastKeyframe();
        driver.modify(FLUSH_EVERY / driver.batchSize);
        now += FLUSH_EVERY * MODIFICATIONS_MS;
        const flushAt = now;
        await store.flush();
        await settle();
        if (lastKeyframe() !== before) keyframeTimes.push(flushAt);
      }
      driver.churn.stop();
      const counts = db.prepare('SELECT (SELECT count(*) FROM keyframes WHERE complete = 1) AS keyframes, (SELECT sum(count) FROM delta_batches) AS deltas').get() as { keyframes: number; deltas: number };
      ctx.log(`state-at: ${counts.deltas} changes recorded, ${counts.keyframes} keyframes`);
      // Shortly before each keyframe taken for the count of changes (the most to replay), and
      // a few moments in between. The first keyframe, right after the initial sync, is skipped.
      // (With fewer changes than one span, as with --quick, the end of the recording is the worst.)
      const spanEnds = keyframeTimes.length > 1 ? keyframeTimes.slice(1) : [now + FLUSH_EVERY * MODIFICATIONS_MS];
      const worst = spanEnds.flatMap((at) => [1, 5, 10].map((flushes) => at - flushes * FLUSH_EVERY * MODIFICATIONS_MS));
      const between = keyframeTimes.map((at) => at - 40 * FLUSH_EVERY * MODIFICATIONS_MS).filter((at) => at >= recordedFrom);
      const rebuild = async (at: number): Promise<{ ms: number; cpuMs: number; objects: number }> => {
        (globalThis as { gc?: () => void }).gc?.();
        const reader = createStateReader(db);
        const cpu = process.cpuUsage();
        const start = performance.now();
        const objects = (await reader.objectsAt(at)).length;
        const ms = performance.now() - start;
        const used = process.cpuUsage(cpu);
        reader.clear();
        return { ms, cpuMs: (used.user + used.system) / 1000, objects };
      };
      const worstRuns = [];
      for (const at of worst) worstRuns.push(await rebuild(at));
      const otherRuns = [];
      for (const at of [...between, now]) otherRuns.push(await rebuild(at));
      const ms = worstRuns.map((r) => r.ms);
      ctx.log(
        `state-at: ${worstRuns[0]?.objects} objects rebuilt at ${worst.length} moments just before keyframes: p50 ${round(percentile(ms, 50))} ms, slowest ${round(Math.max(...ms))} ms ` +
          `(CPU p50 ${round(percentile(worstRuns.map((r) => r.cpuMs), 50))} ms); elsewhere p50 ${round(percentile(otherRuns.map((r) => r.ms), 50))} ms`,
      );
      return { state_at_time_rebuild_ms: round(percentile(ms, 50)) };
    } finally {
      store.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
};
