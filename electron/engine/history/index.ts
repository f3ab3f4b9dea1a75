/**
 * The history feature: implements the `history:*` channels of shared/contracts/history.ts.
 * (Being built: until the recorder lands every channel answers `unavailable`.)
 */
import type { historyRequests } from '../../../shared/contracts/history.ts';
import { err } from '../../../shared/result.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createHistoryFeature(_context: EngineContext): Feature<typeof historyRequests> {
  const notYet = () => err('unavailable', 'History is not recorded yet');
  return {
    handlers: {
      'history:status': notYet,
      'history:series': notYet,
      'history:episodes': notYet,
      'history:episode': notYet,
      'history:state-at': notYet,
      'history:compare': notYet,
    },
    dispose() {},
  };
}
