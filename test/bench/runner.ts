/**
 * The benchmark runner behind run.ts: picks the scenarios, shares one seeded simulated cluster
 * between them, checks the goals and prints the report.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { jsonMegabytesPerSecond } from './calibration.ts';
import { collectBetweenScenarios } from './collect.ts';
import { FULL_SIZES, QUICK_SIZES, podCount, startSimFixture, type SeedSizes, type SimFixture } from './sim-fixture.ts';
import { startSimProcess, type SimProcess } from './live-sim.ts';
import { causeFind } from './cause-find.ts';
import { graphBuild } from './graph-build.ts';
import { historyOverhead } from './history-overhead.ts';
import { historyStateAt } from './history-state-at.ts';
import { historyTimeline } from './history-timeline.ts';
import { backfillConnect } from './backfill-connect.ts';
import { backgroundCpu } from './background-cpu.ts';
import { livePipeline } from './live-pipeline.ts';
import { eventsGroup } from './events-group.ts';
import { simList } from './sim-list.ts';
import { simSeed } from './sim-seed.ts';
import { simWatch } from './sim-watch.ts';
import { diff500 } from './diff-500.ts';
import { snapshotExport } from './snapshot-export.ts';
import { crdDiscovery } from './crd-discovery.ts';
import { crdHeap } from './crd-heap.ts';
import { crdSync } from './crd-sync.ts';
import { jsonParse } from './json-parse.ts';
import { overload } from './overload.ts';
import { namespacedSync } from './namespaced-sync.ts';
import { scaleSync } from './scale-sync.ts';
import { scalePage } from './scale-page.ts';
import { deriveRatios, RATIO_GOALS } from './ratios.ts';
import { parseScaleSizes, SCALE_OPTIONS } from './scale-sizes.ts';
import { PartialResultsError, type BenchContext, type BenchGoal, type BenchScenario, type BenchValue } from './types.ts';

/** In run order: seeding first, while the heap holds nothing else; the browser pipeline last. */
const SCENARIOS: readonly BenchScenario[] = [
  simSeed,
  simList,
  simWatch,
  eventsGroup,
  graphBuild,
  causeFind,
  snapshotExport,
  historyTimeline,
  historyStateAt,
  historyOverhead,
  backfillConnect,
  backgroundCpu,
  diff500,
  crdDiscovery,
  crdSync,
  crdHeap,
  jsonParse,
  overload,
  namespacedSync,
  scaleSync,
  scalePage,
  livePipeline,
];

/** The names in `--only`/`--skip` values (each may be a comma-separated list); throws on one no scenario has. */
function namesOf(values: string[]): string[] {
  const names = values.flatMap((o) => o.split(',')).filter(Boolean);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n || s.results.includes(n)));
  if (unknown.length > 0) {
    const known = SCENARIOS.flatMap((s) => [s.name, ...s.results]).join(', ');
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${known}`);
  }
  return names;
}

function select(only: string[], skip: string[]): readonly BenchScenario[] {
  const picked = namesOf(only);
  const skipped = namesOf(skip);
  const named = (s: BenchScenario, names: string[]) => names.some((n) => s.name === n || s.results.includes(n));
  return SCENARIOS.filter((s) => (picked.length === 0 || named(s, picked)) && !named(s, skipped));
}

function goalText(goal: BenchGoal): string {
  return [goal.atLeast !== undefined ? `>= ${goal.atLeast}` : '', goal.atMost !== undefined ? `<= ${goal.atMost}` : '', goal.below !== undefined ? `< ${goal.below}` : '']
    .filter(Boolean)
    .join(' and ');
}

function checkGoals(scenarios: readonly BenchScenario[], results: Record<string, BenchValue>): Record<string, { goal: string; met: boolean }> {
  const goals: Record<string, { goal: string; met: boolean }> = {};
  for (const goal of [...scenarios.flatMap((s) => s.goals ?? []), ...RATIO_GOALS]) {
    const value = results[goal.result];
    if (typeof value === 'boolean' && goal.equals !== undefined) goals[goal.result] = { goal: `= ${goal.equals}`, met: value === goal.equals };
    if (typeof value !== 'number') continue;
    goals[goal.result] = { goal: goalText(goal), met: (goal.atLeast === undefined || value >= goal.atLeast) && (goal.atMost === undefined || value <= goal.atMost) && (goal.below === undefined || value < goal.below) };
  }
  return goals;
}

/**
 * Runs the benchmarks `args` select and prints the report on stdout; resolves with the exit code
 * (1 when a scenario failed). Needs `global.gc` (node --expose-gc).
 */
export async function runBench(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, quick: { type: 'boolean' }, only: { type: 'string', multiple: true }, skip: { type: 'string', multiple: true }, ...SCALE_OPTIONS }, strict: true });
  const quick = values.quick ?? false;
  const scale = parseScaleSizes(values);
  const scenarios = select(values.only ?? [], values.skip ?? []);
  const sizes = quick ? QUICK_SIZES : FULL_SIZES;
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  let fixture: Promise<SimFixture> | undefined;
  const processes = new Map<string, Promise<SimProcess>>();
  const results: Record<string, BenchValue> = {};
  const ctx: BenchContext = {
    quick,
    sizes,
    results,
    scale,
    sim: () => {
      if (!fixture) {
        log(`seeding the simulated cluster with ${podCount(sizes)} pods`);
        fixture = startSimFixture(sizes);
      }
      return fixture;
    },
    simProcess: (seed: SeedSizes) => {
      const key = JSON.stringify(seed);
      let started = processes.get(key);
      if (!started) {
        log(`seeding a simulated cluster process with ${podCount(seed)} pods`);
        started = startSimProcess(seed);
        processes.set(key, started);
      }
      return started;
    },
    log,
  };
  const speedBefore = jsonMegabytesPerSecond();
  const errors: Record<string, string> = {};
  // The shared cluster holds 50,000 pods in this process (~320 MB of heap), which the engine of
  // the live pipeline, also in this process, would otherwise have to collect around (its first
  // sync took ~0.5 s longer): it stops after the last scenario that reads it.
  const lastSharedSim = scenarios.findLastIndex((scenario) => scenario.sharedSim);
  const stopSharedSim = async (): Promise<void> => {
    const stopping = fixture;
    fixture = undefined;
    if (stopping) await (await stopping).stop();
  };
  const lastSimProcess = scenarios.findLastIndex((scenario) => scenario.sharedSimProcess);
  const stopSimProcesses = async (): Promise<void> => {
    const stopping = [...processes.values()];
    processes.clear();
    await Promise.all(stopping.map(async (started) => (await started.catch(() => undefined))?.stop()));
  };
  try {
    for (const [index, scenario] of scenarios.entries()) {
      log(`${scenario.name}...`);
      // Each scenario starts from a collected heap, not with the garbage of the one before.
      await collectBetweenScenarios();
      try {
        Object.assign(results, await scenario.run(ctx));
      } catch (error) {
        if (error instanceof PartialResultsError) Object.assign(results, error.results);
        errors[scenario.name] = error instanceof Error ? error.message : String(error);
        log(`${scenario.name} failed: ${errors[scenario.name]}`);
      }
      if (index === lastSharedSim) await stopSharedSim();
      if (index === lastSimProcess) await stopSimProcesses();
    }
  } finally {
    await stopSharedSim();
    await stopSimProcesses();
  }
  // The ratio goals: each headline time over work measured in the same run (ratios.ts).
  // crd-sync's 50,000-pod engine sync runs only in a whole run (--quick syncs a handful of pods).
  Object.assign(results, deriveRatios(quick ? { ...results, initial_sync_50k_pods_300_crds_ms: 0 } : results, { pods: podCount(sizes), scalePods: scale.pods }));
  const report = {
    machine: { cpus: availableParallelism(), node: process.version, json_mb_per_s: { before: speedBefore, after: jsonMegabytesPerSecond() } },
    config: { quick, pods: podCount(sizes), ...(quick ? {} : { scale }) },
    results,
    goals: checkGoals(scenarios, results),
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.keys(errors).length > 0 ? 1 : 0;
}
