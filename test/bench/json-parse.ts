/**
 * `json_parse_50k_pods_ms`: one JSON.parse of the 50,000-pod list in this run (list-parse.ts),
 * the yardstick of `initial_sync_vs_json_parse` (ratios.ts). Measured on the shared simulated
 * cluster process, right before the scenarios whose times it divides (with --quick, on the CRD
 * benchmarks' few pods: a smoke test of the harness).
 */
import { sizedSim } from './crd-engine.ts';
import { podListParse } from './list-parse.ts';
import { round } from './stats.ts';
import type { BenchScenario } from './types.ts';

export const jsonParse: BenchScenario = {
  name: 'json-parse',
  results: ['json_parse_50k_pods_ms'],
  sharedSimProcess: true,
  async run(ctx) {
    const { sim } = await sizedSim(ctx);
    const parse = await podListParse(sim.target);
    if (parse.pods !== sim.pods) throw new Error(`the pod list held ${parse.pods} pods, the cluster ${sim.pods}`);
    ctx.log(`json parse: ${parse.pods} pods, ${Math.round(parse.bytes / 1e6)} MB of list JSON parsed in ${round(parse.ms)} ms`);
    return { json_parse_50k_pods_ms: round(parse.ms) };
  },
};
