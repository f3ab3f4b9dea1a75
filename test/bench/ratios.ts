/**
 * The ratio goals (issue #21): each headline time over work measured in the same run, so a goal
 * holds on a machine whose speed changes 3x from day to day. The absolute times stay in the
 * report as information; these are derived from them after every scenario has run, and only
 * when both sides were measured.
 * - `initial_sync_vs_json_parse`: `initial_sync_50k_pods_ms` (the browser pipeline's sync) over
 *   `json_parse_50k_pods_ms` (one JSON.parse of the same pod list in this run, json-parse.ts).
 *   Goal <= 1.5.
 * - `initial_sync_150k_vs_json_parse`: the engine's sync of the scale cluster over one
 *   JSON.parse of its pod list (scale-sync.ts measures both). Goal <= 1.5.
 * - `initial_sync_150k_linearity`: the scale sync's time per pod over the 50,000-pod engine sync's
 *   (crd-sync's `without_crds`, the same end point: every pod cached, every built-in kind live).
 *   "Linear from 50k" read as within 20 %: goal <= 1.2 (the 20 % is ours, the issue names none).
 * - `initial_sync_50_namespaces_ratio` (issue #18) and `sustained_events_ratio` are measured
 *   as ratios by their scenarios (namespaced-sync.ts, overload.ts); their goals are listed here.
 */
import { round } from './stats.ts';
import type { BenchGoal, BenchValue } from './types.ts';

export const RATIO_GOALS: readonly BenchGoal[] = [
  { result: 'initial_sync_vs_json_parse', atMost: 1.5 },
  { result: 'initial_sync_150k_vs_json_parse', atMost: 1.5 },
  { result: 'initial_sync_150k_linearity', atMost: 1.2 },
];

function num(results: Readonly<Record<string, BenchValue>>, name: string): number | undefined {
  const value = results[name];
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/**
 * The ratios whose two sides `results` holds; `pods` is what the 50,000-pod engine sync synced
 * (crd-sync), `scalePods` what the scale sync did.
 */
export function deriveRatios(results: Readonly<Record<string, BenchValue>>, counts: { pods: number; scalePods: number }): Record<string, number> {
  const ratios: Record<string, number> = {};
  const sync = num(results, 'initial_sync_50k_pods_ms');
  const parse = num(results, 'json_parse_50k_pods_ms');
  if (sync !== undefined && parse !== undefined) ratios['initial_sync_vs_json_parse'] = round(sync / parse, 2);
  const sync150 = num(results, 'initial_sync_150k_pods_ms');
  const parse150 = num(results, 'json_parse_150k_pods_ms');
  if (sync150 !== undefined && parse150 !== undefined) ratios['initial_sync_150k_vs_json_parse'] = round(sync150 / parse150, 2);
  const crd = results['initial_sync_50k_pods_300_crds_ms'];
  const sync50 = typeof crd === 'object' && crd !== null && typeof (crd as Record<string, number>)['without_crds'] === 'number' ? (crd as Record<string, number>)['without_crds'] : undefined;
  if (sync150 !== undefined && sync50 !== undefined && sync50 > 0) {
    ratios['initial_sync_150k_linearity'] = round(sync150 / counts.scalePods / (sync50 / counts.pods), 2);
  }
  return ratios;
}
