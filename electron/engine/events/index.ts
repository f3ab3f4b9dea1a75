/**
 * The events feature: implements the `events:*` channels of shared/contracts/events.ts.
 */
import type { eventsRequests } from '../../../shared/contracts/events.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createEventsFeature(_context: EngineContext): Feature<typeof eventsRequests> {
  return {
    handlers: {},
    dispose() {},
  };
}
