/**
 * The benchmark runner behind run.ts: picks the scenarios, shares one seeded simulated cluster
 * between them, checks the goals and prints the report.
 */
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { jsonMegabytesPerSecond } from './calibration.ts';
import { FULL_SIZES, QUICK_SIZES, podCount, startSimFixture, type SimFixture } from './sim-fixture.ts';
import { causeFind } from './cause-find.ts';
import { graphBuild } from './graph-build.ts';
import { historyOverhead } from './history-overhead.ts';
import { historyStateAt } from './history-state-at.ts';
import { historyTimeline } from './history-timeline.ts';
import { livePipeline } from './live-pipeline.ts';
import { eventsGroup } from './events-group.ts';
import { simList } from './sim-list.ts';
import { simSeed } from './sim-seed.ts';
import { simWatch } from './sim-watch.ts';
import { diff500 } from './diff-500.ts';
import { snapshotExport } from './snapshot-export.ts';
import { PartialResultsError, type BenchContext, type BenchGoal, type BenchScenario, type BenchValue } from './types.ts';

/** In run order: seeding first, while the heap holds nothing else; the browser pipeline last. */
const SCENARIOS: readonly BenchScenario[] = [simSeed, simList, simWatch, eventsGroup, graphBuild, causeFind, snapshotExport, historyTimeline, historyStateAt, historyOverhead, diff500, livePipeline];

function select(only: string[]): readonly BenchScenario[] {
  if (only.length === 0) return SCENARIOS;
  const names = only.flatMap((o) => o.split(',')).filter(Boolean);
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n || s.results.includes(n)));
  if (unknown.length > 0) {
    const known = SCENARIOS.flatMap((s) => [s.name, ...s.results]).join(', ');
    throw new Error(`unknown benchmark ${unknown.join(', ')}; known: ${known}`);
  }
  return SCENARIOS.filter((s) => names.some((n) => s.name === n || s.results.includes(n)));
}

function goalText(goal: BenchGoal): string {
  return [goal.atLeast !== undefined ? `>= ${goal.atLeast}` : '', goal.atMost !== undefined ? `<= ${goal.atMost}` : '', goal.below !== undefined ? `< ${goal.below}` : '']
    .filter(Boolean)
    .join(' and ');
}

function checkGoals(scenarios: readonly BenchScenario[], results: Record<string, BenchValue>): Record<string, { goal: string; met: boolean }> {
  const goals: Record<string, { goal: string; met: boolean }> = {};
  for (const goal of scenarios.flatMap((s) => s.goals ?? [])) {
    const value = results[goal.result];
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
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' }, quick: { type: 'boolean' }, only: { type: 'string', multiple: true } }, strict: true });
  const quick = values.quick ?? false;
  const scenarios = select(values.only ?? []);
  const sizes = quick ? QUICK_SIZES : FULL_SIZES;
  const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
  let fixture: Promise<SimFixture> | undefined;
  const ctx: BenchContext = {
    quick,
    sizes,
    sim: () => {
      if (!fixture) {
        log(`seeding the simulated cluster with ${podCount(sizes)} pods`);
        fixture = startSimFixture(sizes);
      }
      return fixture;
    },
    log,
  };
  const speedBefore = jsonMegabytesPerSecond();
  const results: Record<string, BenchValue> = {};
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
  try {
    for (const [index, scenario] of scenarios.entries()) {
      log(`${scenario.name}...`);
      // Each scenario starts from a collected heap, not with the garbage of the one before.
      (globalThis as { gc?: () => void }).gc?.();
      try {
        Object.assign(results, await scenario.run(ctx));
      } catch (error) {
        if (error instanceof PartialResultsError) Object.assign(results, error.results);
        errors[scenario.name] = error instanceof Error ? error.message : String(error);
        log(`${scenario.name} failed: ${errors[scenario.name]}`);
      }
      if (index === lastSharedSim) await stopSharedSim();
    }
  } finally {
    await stopSharedSim();
  }
  const report = {
    machine: { cpus: availableParallelism(), node: process.version, json_mb_per_s: { before: speedBefore, after: jsonMegabytesPerSecond() } },
    config: { quick, pods: podCount(sizes) },
    results,
    goals: checkGoals(scenarios, results),
    ...(Object.keys(errors).length > 0 ? { errors } : {}),
  };
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  return Object.keys(errors).length > 0 ? 1 : 0;
}
