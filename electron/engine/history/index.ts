/**
 * The history feature: implements the `history:*` channels of shared/contracts/history.ts.
 */
import type { historyRequests } from '../../../shared/contracts/history.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createHistoryFeature(_context: EngineContext): Feature<typeof historyRequests> {
  return {
    handlers: {},
    dispose() {},
  };
}
