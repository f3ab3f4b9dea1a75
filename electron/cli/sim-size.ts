/** `kubedrift sim --pods N --nodes N --namespaces N`: a cluster of a given size, seeded by the churn generator. */
import { startChurn } from '../engine/simcluster/scenarios/churn.ts';
import { seedLayout, type ClusterSize } from '../engine/simcluster/scenarios/seed-layout.ts';
import type { ObjectStore } from '../engine/simcluster/store.ts';
import { UsageError } from './args.ts';

function whole(name: string, text: string): number {
  const value = Number(text.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(value)) throw new UsageError(`--${name} must be a whole number, got "${text}"`);
  return value;
}

/** The size the three flags give, undefined without them; all three or none. */
export function parseClusterSize(values: { pods?: string | undefined; nodes?: string | undefined; namespaces?: string | undefined }): ClusterSize | undefined {
  const given = (['pods', 'nodes', 'namespaces'] as const).filter((name) => values[name] !== undefined);
  if (given.length === 0) return undefined;
  if (given.length < 3) throw new UsageError(`--pods, --nodes and --namespaces go together (got only ${given.map((n) => `--${n}`).join(', ')})`);
  const size = { pods: whole('pods', values.pods as string), nodes: whole('nodes', values.nodes as string), namespaces: whole('namespaces', values.namespaces as string) };
  try {
    seedLayout(size);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return size;
}

/** Seeds `store` with `size` (namespaces churn-NNN, nodes churn-node-NNNN), and nothing changes them after. */
export function seedCluster(store: ObjectStore, size: ClusterSize): void {
  startChurn({ store, ...seedLayout(size), eventsPerSecond: 0 }).stop();
}
