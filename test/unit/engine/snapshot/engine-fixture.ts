/**
 * An engine connected to a simulated cluster, for the snapshot tests: waits until every kind is
 * listed, exports through the contract and reads downloads back in pieces like the renderer.
 */
import type { Engine } from '../../../../electron/engine/engine.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import type { Scenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import type { ClusterHealth } from '../../../../shared/cluster.ts';
import type { ExportRequest, ExportResult } from '../../../../shared/contracts/snapshot.ts';
import type { ConnectionStatus } from '../../../../shared/model.ts';
import type { Result } from '../../../../shared/result.ts';
import type { FileDialogs } from '../../../../electron/engine/dialogs.ts';
import { createIsolatedEngine } from '../../../helpers/engine.ts';

export interface Fixture {
  engine: Engine;
  cluster: SimCluster;
  stop(): Promise<void>;
}

/** Resolves once the hub's last `cluster:health` has every kind live (or the timeout passes). */
export async function waitForSync(engine: Engine, context: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const health = engine.hub.last('cluster:health') as ClusterHealth | undefined;
    const connection = engine.hub.last('connection:changed') as ConnectionStatus | undefined;
    if (connection?.context === context && connection.state === 'error') throw new Error(`connection failed: ${connection.message}`);
    if (health?.context === context && health.kinds.length > 0 && health.kinds.every((kind) => kind.state === 'live')) return;
    if (Date.now() > deadline) throw new Error(`${context} did not sync: ${JSON.stringify(health)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Resolves once the engine cache holds objects of every kind in `keys`: kinds beyond the
 * built-in ones are watched once discovery found them, which may be after `waitForSync`.
 */
export async function waitForKinds(engine: Engine, keys: readonly string[], timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const cached = new Set(engine.inspectCache().map((stamp) => stamp.kind));
    const missing = keys.filter((key) => !cached.has(key));
    if (missing.length === 0) return;
    if (Date.now() > deadline) throw new Error(`the engine cache holds no ${missing.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** An engine whose demo context is a sim of `scenario`. */
export async function startFixture(dir: string, scenario: string | Scenario = 'minimal', extra: { dialogs?: FileDialogs; dataDir?: string; waitFor?: string } = {}): Promise<Fixture> {
  let cluster: SimCluster | undefined;
  const engine = createIsolatedEngine(dir, async () => (cluster = await startSimCluster({ scenario })), {
    version: '9.9.9-test',
    ...(extra.dataDir ? { dataDir: extra.dataDir } : {}),
    ...(extra.dialogs ? { dialogs: extra.dialogs } : {}),
  });
  await engine.start();
  try {
    await waitForSync(engine, extra.waitFor ?? 'kubedrift-demo');
  } catch (error) {
    await engine.dispose();
    throw error;
  }
  return {
    engine,
    get cluster() {
      if (!cluster) throw new Error('the demo cluster was not started');
      return cluster;
    },
    async stop() {
      await engine.dispose();
    },
  };
}

export function unwrap<T>(result: Result<unknown>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}${result.error.detail ? ` (${result.error.detail})` : ''}`);
  return result.value as T;
}

/** Exports through the contract and downloads the bytes piece by piece. */
export async function exportBytes(engine: Engine, request: Omit<ExportRequest, 'destination'>): Promise<{ result: ExportResult; bytes: Buffer }> {
  const result = unwrap<ExportResult>(await engine.dispatch('snapshot:export', { ...request, destination: 'download' }));
  const parts: Buffer[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const chunk: { data: string; nextOffset: number | null } = unwrap(await engine.dispatch('snapshot:download', { id: result.id, offset }));
    parts.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
  }
  return { result, bytes: Buffer.concat(parts) };
}
