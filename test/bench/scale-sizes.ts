/**
 * The scale scenario's sizes from the command line: `npm run bench -- --pods N --nodes N
 * --namespaces N` (default Kubernetes' ceiling, 150,000 pods on 5,000 nodes, in 50 namespaces).
 */
import { seedLayout, type ClusterSize } from '../../electron/engine/simcluster/scenarios/seed-layout.ts';
import type { SeedSizes } from './sim-fixture.ts';

/** parseArgs options for the three flags. */
export const SCALE_OPTIONS = { pods: { type: 'string' }, nodes: { type: 'string' }, namespaces: { type: 'string' } } as const;

export const DEFAULT_SCALE: ClusterSize = { pods: 150_000, nodes: 5_000, namespaces: 50 };

function number(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text.replaceAll('_', '').replaceAll(',', ''));
  if (!Number.isInteger(value)) throw new Error(`--${name} must be a whole number, got "${text}"`);
  return value;
}

/** The sizes the flags give (throws a clear message when they cannot be laid out). */
export function parseScaleSizes(values: { pods?: string; nodes?: string; namespaces?: string }): ClusterSize {
  const size = { pods: number('pods', values.pods, DEFAULT_SCALE.pods), nodes: number('nodes', values.nodes, DEFAULT_SCALE.nodes), namespaces: number('namespaces', values.namespaces, DEFAULT_SCALE.namespaces) };
  seedLayout(size);
  return size;
}

/** The churn seeding of `size`. */
export function scaleSeed(size: ClusterSize): SeedSizes {
  return seedLayout(size);
}
