/**
 * A watch far behind on an HTTP/2 connection does not refuse the connection's other requests.
 * Node's HTTP/2 server counts a session's queued data against `maxSessionMemory` (10 MB by
 * default) and answers new streams with RST_STREAM ENHANCE_YOUR_CALM beyond it; Go's server
 * (kube-apiserver's) does not, so the simulator must not either: while the engine's pods watch
 * was backlogged, its progress probes and any re-watch or list on that connection were refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, getJson, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { T } from './helpers.ts';

let transport: Transport | undefined;
let sim: SimCluster | undefined;
const controllers: AbortController[] = [];
afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  transport?.close();
  await sim?.stop();
  transport = undefined;
  sim = undefined;
});

describe('an HTTP/2 connection with a watch far behind', () => {
  it('still answers another request on the same connection while ~30 MB wait for the watch', { timeout: 60_000 }, async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, bookmarkIntervalMs: 60_000, http2: true });
    transport = createTransport(sim.kubeconfigObject());
    const controller = new AbortController();
    controllers.push(controller);
    // A watch nobody reads: past the client's 4 MB window, what the server sends waits at the server.
    const watch = await transport.get('/api/v1/namespaces?watch=true&allowWatchBookmarks=true', { signal: controller.signal });
    expect(watch.statusCode).toBe(200);
    const note = 'x'.repeat(8 * 1024);
    for (let i = 0; i < 3_600; i += 1) sim.store.create(T('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `backlog-${i}`, annotations: { note } } });
    // Let the server queue the events (each written as it is made; the socket takes what it can).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sim.server.http2Sessions()).toHaveLength(1);
    const list = (await getJson(transport, '/api/v1/namespaces?limit=1', { signal: AbortSignal.timeout(10_000), accept: 'application/json' })) as { metadata: { resourceVersion: string } };
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(3_600);
    // Same connection: the request was not sent elsewhere.
    expect(sim.server.connections().accepted).toBe(1);
  });
});
