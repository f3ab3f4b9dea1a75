/**
 * The live-pipeline benchmark's simulated cluster, in a process of its own (forked by
 * live-sim.ts): a real API server is another process than the app, so the engine must not be
 * charged for serving its own lists and watches, nor share an event loop with the server. It
 * seeds the fixture, reports where it listens, then serves the parent's requests over the fork
 * IPC channel: the stamps of the watched objects (how many the renderer must end up with), a
 * stamped churn, its own CPU time, the CRD benchmarks' side (crd-fixture.ts), a count of the
 * requests that list a resource again (list-counter.ts) and restricted users (namespaced-sync.ts). It stops when the parent disconnects.
 */
import { simulatorStamps } from '../e2e/consistency.ts';
import { addPresetUser } from '../../electron/engine/simcluster/rbac/preset-users.ts';
import { userKubeconfig } from '../../electron/engine/simcluster/rbac/kubeconfig-users.ts';
import { ListCounter } from './list-counter.ts';
import { CrdBench } from './crd-fixture.ts';
import type { SimChildReady, SimChildReply, SimChildRequest } from './live-sim.ts';
import { podCount, startSimFixture, type SeedSizes } from './sim-fixture.ts';
import { settleStore } from './sim-settle.ts';
import { stampedChurn } from './stamped-churn.ts';

const sizes = JSON.parse(process.argv[2] ?? '') as SeedSizes;
const fixture = await startSimFixture(sizes);
let crdBench: CrdBench | undefined;
const crds = (): CrdBench => (crdBench ??= new CrdBench(fixture.sim));
let listCounter: ListCounter | undefined;

function reply(message: SimChildReply | SimChildReady): void {
  process.send?.(message);
}

async function handle(request: SimChildRequest): Promise<SimChildReply> {
  switch (request.op) {
    case 'stamps':
      return { id: request.id, value: simulatorStamps(fixture.sim.store).length };
    case 'churn':
      return { id: request.id, value: await stampedChurn(fixture.sim.store, request.perSecond, request.count, { withOrder: request.withOrder ?? false }) };
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
    case 'count-lists':
      listCounter ??= new ListCounter(fixture.sim.server.access);
      listCounter.count(request.resource);
      return { id: request.id, value: null };
    case 'counted-lists':
      return { id: request.id, value: listCounter?.counted() ?? 0 };
    case 'add-user': {
      const { server } = fixture.sim;
      const credentials = await addPresetUser({ store: fixture.sim.store, access: server.access, user: request.user });
      return { id: request.id, value: userKubeconfig(fixture.sim.kubeconfigObject(), credentials, { contextName: 'bench', prefer: 'token' }) };
    }
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

// Its objects' JSON made and its heap collected first, as a running API server's are (sim-settle.ts).
await settleStore(fixture.sim.store);
reply({ ready: true, pods: podCount(sizes), target: fixture.target });
