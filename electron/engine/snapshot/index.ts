/**
 * The snapshot feature: implements the `snapshot:*` channels of shared/contracts/snapshot.ts.
 */
import type { snapshotRequests } from '../../../shared/contracts/snapshot.ts';
import type { EngineContext, Feature } from '../features.ts';

export function createSnapshotFeature(_context: EngineContext): Feature<typeof snapshotRequests> {
  return {
    handlers: {},
    dispose() {},
  };
}
