/**
 * The diff feature: implements the `diff:*` channels of shared/contracts/diff.ts.
 */
import type { diffRequests } from '../../../shared/contracts/diff.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createDiffFeature(_context: EngineContext): Feature<typeof diffRequests> {
  return {
    handlers: {},
    dispose() {},
  };
}
