/**
 * The graph feature: implements the `graph:*` channels of shared/contracts/graph.ts.
 */
import type { graphRequests } from '../../../shared/contracts/graph.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createGraphFeature(_context: EngineContext): Feature<typeof graphRequests> {
  return {
    handlers: {},
    dispose() {},
  };
}
