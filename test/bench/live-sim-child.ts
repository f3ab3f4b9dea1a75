/**
 * The live-pipeline benchmark's simulated cluster, in a process of its own (forked by
 * live-sim.ts): a real API server is another process than the app, so the engine must not be
 * charged for serving its own lists and watches, nor share an event loop with the server. It
 * seeds the fixture, reports where it listens, then serves the parent's requests over the fork
 * IPC channel: the stamps of the watched objects (how many the renderer must end up with), a
 * stamped churn, its own CPU time, and the CRD benchmarks' side (crd-fixture.ts). It stops when the parent disconnects.
 */
import { simulatorStamps } from '../e2e/consistency.ts';
import { CrdBench } from './crd-fixture.ts';
import type { SimChildReady, SimChildReply, SimChildRequest } from './live-sim.ts';
import { podCount, startSimFixture, type SeedSizes } from './sim-fixture.ts';
import { stampedChurn } from './stamped-churn.ts';

const sizes = JSON.parse(process.argv[2] ?? '') as SeedSizes;
const fixture = await startSimFixture(sizes);
let crdBench: CrdBench | undefined;
const crds = (): CrdBench => (crdBench ??= new CrdBench(fixture.sim));

function reply(message: SimChildReply | SimChildReady): void {
  process.send?.(message);
}

async function handle(request: SimChildRequest): Promise<SimChildReply> {
  switch (request.op) {
    case 'stamps':
      return { id: request.id, value: simulatorStamps(fixture.sim.store).length };
    case 'churn':
      return { id: request.id, value: await stampedChurn(fixture.sim.store, request.perSecond, request.count) };
    case 'cpu': {
      const { user, system } = process.cpuUsage();
      return { id: request.id, value: (user + system) / 1e6 };
    }
    case 'install-crds':
      return { id: request.id, value: crds().installCrds(request.count, request.excluded) };
    case 'remove-crds':
      await crds().removeCrds();
      return { id: request.id, value: null };
    case 'create-resources':
      return { id: request.id, value: crds().createResources(request.count) };
    case 'record-requests':
      crds().recordRequests(request.prefixes);
      return { id: request.id, value: null };
    case 'recorded-requests':
      return { id: request.id, value: crds().recordedRequests() };
    case 'connections':
      return { id: request.id, value: await crds().connections() };
  }
}

process.on('message', (request: SimChildRequest) => {
  handle(request).then(
    (answer) => reply(answer),
    (error: unknown) => reply({ id: request.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
// The parent disconnects to stop it, and a parent gone (crashed, killed) will never ask: go.
process.on('disconnect', () => void fixture.stop().finally(() => process.exit(0)));

reply({ ready: true, pods: podCount(sizes), target: fixture.target });
