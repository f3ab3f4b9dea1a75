/** A registry on a fake discovery server with a fake clock, and ways to wait for its discoveries. */
import type { DiscoveryState } from '../../../../../shared/discovery.ts';
import type { KindChanges } from '../../../../../electron/engine/cluster/discovery/catalog.ts';
import { DiscoveryRegistry, type DiscoveryRegistryOptions } from '../../../../../electron/engine/cluster/discovery/registry.ts';
import { FakeClock, waitFor } from '../../informers/helpers.ts';
import type { FakeServer } from './fake-server.ts';

export interface RegistryRig {
  registry: DiscoveryRegistry;
  clock: FakeClock;
  changes: KindChanges[];
  states: DiscoveryState[];
  /** Discoveries finished (or failed) so far. */
  finished(): number;
  /** Waits until `n` discoveries have finished. */
  untilFinished(n: number): Promise<void>;
  /** The mode of every kind, by key. */
  modes(): Record<string, string>;
}

export function registryRig(fake: FakeServer, options: Partial<DiscoveryRegistryOptions> = {}): RegistryRig {
  const clock = new FakeClock();
  const registry = new DiscoveryRegistry({ transport: fake.transport(), clock, random: () => 0.5, ...options });
  const changes: KindChanges[] = [];
  const states: DiscoveryState[] = [];
  let finished = 0;
  let lastProgress = false;
  registry.onChange((c) => changes.push(c));
  registry.onState((s) => {
    states.push(s);
    // A discovery ends when progress goes from set to null.
    if (lastProgress && s.progress === null) finished += 1;
    lastProgress = s.progress !== null;
  });
  return {
    registry,
    clock,
    changes,
    states,
    finished: () => finished,
    untilFinished: async (n) => {
      await waitFor(`${n} discoveries`, () => finished >= n);
    },
    modes: () => Object.fromEntries(registry.kinds().map((k) => [k.key, k.mode])),
  };
}
