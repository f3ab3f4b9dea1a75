/**
 * The order the Vitest configs start test files in: the files known to take longest first, then
 * Vitest's own order (longest last run, from its cache; on a fresh clone, largest file first).
 *
 * Why: CI runs on a fresh clone, where Vitest has no durations and starts the largest files
 * first. A 90-second file that happens to be small starts last and runs alone at the end while
 * the other workers sit idle. Naming the long ones here keeps every worker busy to the end.
 * The lists are the slowest files of a CI run (2 cores); a file missing from them still runs,
 * only in Vitest's order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The rank of `spec` in `slow` (its path relative to the project), or `slow.length` when absent. */
function rankOf(spec: TestSpecification, slow: readonly string[]): number {
  const file = spec.moduleId.replaceAll('\\', '/');
  const index = slow.findIndex((name) => file.endsWith(`/${name}`));
  return index === -1 ? slow.length : index;
}

/** A sequencer class for `test.sequence.sequencer` that starts `slow` (in that order) before the rest. */
export function slowFirst(slow: readonly string[]): typeof BaseSequencer {
  return class SlowFirstSequencer extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const sorted = await super.sort(files);
      // Array.prototype.sort is stable: files of the same rank keep Vitest's order.
      return sorted.map((spec, order) => ({ spec, order, rank: rankOf(spec, slow) })).sort((a, b) => a.rank - b.rank || a.order - b.order).map(({ spec }) => spec);
    }
  };
}
