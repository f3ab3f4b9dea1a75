/** The shapes every benchmark scenario shares with the runner. */
import type { SimProcess } from './live-sim.ts';
import type { SeedSizes, SimFixture } from './sim-fixture.ts';

/** One measured value: a number, a yes/no outcome, or a latency distribution (`{ p50, p95, runs }`). */
export type BenchValue = number | boolean | Record<string, number>;

/** What the runner hands each scenario. */
export interface BenchContext {
  /** Small sizes and short runs: a smoke test of the harness, not a measurement. */
  quick: boolean;
  /** How many pods the seeded clusters hold (50,000, or 1,000 when quick). */
  sizes: SeedSizes;
  /** The seeded simulated cluster, started on first use and shared by the scenarios of a run. */
  sim(): Promise<SimFixture>;
  /**
   * A simulated cluster in a process of its own (live-sim.ts) seeded with `sizes`, started on
   * first use and shared by the scenarios of a run that ask for the same sizes.
   */
  simProcess(sizes: SeedSizes): Promise<SimProcess>;
  /** Human notes; they go to stderr so stdout stays one JSON object. */
  log(message: string): void;
  /**
   * What the scenarios before this one measured (read-only): a scenario whose load is relative to
   * this machine's capacity (overload.ts: 2x `sim_watch_events_per_s`) reads it here.
   */
  readonly results: Readonly<Record<string, BenchValue>>;
  /** The scale scenario's sizes (`--pods/--nodes/--namespaces`; 150,000 pods on 5,000 nodes by default). */
  readonly scale: ScaleSizes;
}

/** The cluster the scale scenario seeds. */
export interface ScaleSizes {
  pods: number;
  nodes: number;
  namespaces: number;
}

/** A target from the issue, checked against a result (numbers only). */
export interface BenchGoal {
  result: string;
  atLeast?: number;
  atMost?: number;
  /** Strictly less than (the issue's `< 250`). */
  below?: number;
  /** A yes/no result's required outcome (`overload_final_state_complete`: true). */
  equals?: boolean;
}

/** A benchmark module: the results it reports and how to measure them. */
export interface BenchScenario {
  /** What `--only` matches, besides the result names. */
  name: string;
  results: readonly string[];
  goals?: readonly BenchGoal[];
  /**
   * Reads `ctx.sim()`. The runner stops that shared cluster after the last scenario that does,
   * so the 50,000 pods it holds in this process do not weigh on the ones after it.
   */
  sharedSim?: boolean;
  /** Reads `ctx.simProcess()`: the runner stops those processes after the last scenario that does. */
  sharedSimProcess?: boolean;
  run(ctx: BenchContext): Promise<Record<string, BenchValue>>;
}

/**
 * A scenario that measured some of its results and then failed: the runner keeps `results` and
 * reports the failure beside them (a 30 s run's sync time should not be lost to a later step).
 */
export class PartialResultsError extends Error {
  readonly results: Record<string, BenchValue>;

  constructor(message: string, results: Record<string, BenchValue>) {
    super(message);
    this.results = results;
  }
}
