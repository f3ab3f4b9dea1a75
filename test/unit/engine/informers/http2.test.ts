import { createServer as createTcpServer, connect as connectTcp, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, getJson, readLines, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster, type SimClusterOptions } from '../../../../electron/engine/simcluster/index.ts';
import type { KindKey } from '../../../../shared/cluster.ts';
import { cacheMatchesStore, startQuietCluster, T, waitFor, watching, type Watching } from './helpers.ts';

let transport: Transport | undefined;
let sim: SimCluster | undefined;
let proxy: TcpServer | undefined;
let w: Watching | undefined;
const controllers: AbortController[] = [];
afterEach(async () => {
  for (const controller of controllers.splice(0)) controller.abort();
  await w?.watcher.stop();
  w = undefined;
  transport?.close();
  await sim?.stop();
  proxy?.close();
  transport = undefined;
  sim = undefined;
  proxy = undefined;
});

async function start(options: SimClusterOptions = {}): Promise<SimCluster> {
  sim = await startSimCluster({ scenario: 'minimal', controllers: false, bookmarkIntervalMs: 60_000, http2: true, ...options });
  return sim;
}

interface OpenWatch {
  controller: AbortController;
  lines: string[];
  /** Settles when the stream ends or breaks. */
  done: Promise<void>;
  httpVersion: string;
}

async function openWatch(t: Transport, path = '/api/v1/namespaces?watch=true'): Promise<OpenWatch> {
  const controller = new AbortController();
  controllers.push(controller);
  const response = await t.get(path, { signal: controller.signal });
  expect(response.statusCode).toBe(200);
  const lines: string[] = [];
  const done = readLines(response, (line) => lines.push(line));
  done.catch(() => undefined);
  return { controller, lines, done, httpVersion: response.httpVersion };
}

function createNamespace(cluster: SimCluster, name: string): void {
  cluster.store.create(T('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

describe('HTTP/2 transport against a server offering h2', () => {
  it('lists and watches over one HTTP/2 connection', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    const list = (await getJson(transport, '/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) })) as { kind: string; items: unknown[] };
    expect(list.kind).toBe('NamespaceList');
    const watch = await openWatch(transport);
    expect(watch.httpVersion).toBe('2.0');
    await waitFor('the initial ADDED events', () => watch.lines.length >= list.items.length);
    expect(cluster.server.connections()).toEqual({ open: 1, accepted: 1 });
    expect(cluster.server.http2Sessions()).toHaveLength(1);
  });

  it('carries 300 watches on one connection, and opens a second when the server allows fewer streams', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    const t = transport;
    await Promise.all(Array.from({ length: 300 }, () => openWatch(t)));
    expect(cluster.server.faults.openWatches()).toBe(300);
    expect(cluster.server.connections().accepted).toBe(1);
    t.close();
    await sim?.stop();

    const limited = await start({ http2MaxStreams: 100 });
    transport = createTransport(limited.kubeconfigObject());
    const u = transport;
    // The first connection's SETTINGS are known once one request went through it.
    await getJson(u, '/version', { signal: AbortSignal.timeout(5_000) });
    await Promise.all(Array.from({ length: 250 }, () => openWatch(u)));
    expect(limited.server.faults.openWatches()).toBe(250);
    expect(limited.server.connections().accepted).toBe(3);
  });

  it('aborting one watch resets its stream only: the other watches keep receiving events', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    const watches = [await openWatch(transport), await openWatch(transport), await openWatch(transport)];
    await waitFor('initial events', () => watches.every((w) => w.lines.length > 0));
    watches[0]?.controller.abort();
    await expect(watches[0]?.done).rejects.toThrow();
    await waitFor('the server to close the aborted watch', () => cluster.server.faults.openWatches() === 2);
    const before = watches.map((w) => w.lines.length);
    createNamespace(cluster, 'after-abort');
    await waitFor('the event on the remaining watches', () => watches.slice(1).every((w, i) => w.lines.length > (before[i + 1] ?? 0)));
    expect(watches[0]?.lines.length).toBe(before[0]);
    expect(cluster.server.connections().open).toBe(1);
  });

  it('a watch the server cuts fails alone, as a dropped connection does, and the session stays', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    const watch = await openWatch(transport);
    expect(cluster.server.faults.cutWatches()).toBe(1);
    await expect(watch.done).rejects.toThrow();
    await openWatch(transport);
    expect(cluster.server.connections().accepted).toBe(1);
  });

  it('replaces a session the server destroys: its watches fail, the next request connects anew', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    const watch = await openWatch(transport);
    for (const session of cluster.server.http2Sessions()) session.destroy();
    await expect(watch.done).rejects.toThrow();
    const again = await openWatch(transport);
    await waitFor('initial events on the new session', () => again.lines.length > 0);
    expect(cluster.server.connections().accepted).toBe(2);
  });

  it('after GOAWAY, new requests go to a new session', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject());
    await getJson(transport, '/version', { signal: AbortSignal.timeout(5_000) });
    for (const session of cluster.server.http2Sessions()) session.goaway();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const list = (await getJson(transport, '/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) })) as { kind: string };
    expect(list.kind).toBe('NamespaceList');
    expect(cluster.server.connections().accepted).toBe(2);
  });

  it('pings an idle session and ends it when the server stops answering', async () => {
    const cluster = await start();
    // A TCP relay that can go silent, as a dead network path does.
    let silent = false;
    proxy = createTcpServer((client: Socket) => {
      const upstream = connectTcp(cluster.server.port, '127.0.0.1');
      client.on('data', (data) => !silent && upstream.write(data));
      upstream.on('data', (data) => !silent && client.write(data));
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy?.listen(0, '127.0.0.1', resolve));
    const config = cluster.kubeconfigObject();
    const port = (proxy.address() as AddressInfo).port;
    const relayed = { ...config, clusters: config.clusters.map((c) => ({ ...c, cluster: { ...c.cluster, server: `https://127.0.0.1:${port}` } })) };
    transport = createTransport(relayed, { http2Sessions: { pingIntervalMs: 40, pingTimeoutMs: 80 } });
    const watch = await openWatch(transport);
    // Answered pings keep an idle session.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cluster.server.faults.openWatches()).toBe(1);
    silent = true;
    const started = Date.now();
    await expect(watch.done).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('gives up a connection whose TLS handshake never comes, so requests are not stuck behind it', async () => {
    const cluster = await start();
    // Accepts TCP and says nothing, as a half-open network path after a laptop slept.
    proxy = createTcpServer((client: Socket) => client.on('error', () => undefined));
    await new Promise<void>((resolve) => proxy?.listen(0, '127.0.0.1', resolve));
    const config = cluster.kubeconfigObject();
    const port = (proxy.address() as AddressInfo).port;
    const mute = { ...config, clusters: config.clusters.map((c) => ({ ...c, cluster: { ...c.cluster, server: `https://127.0.0.1:${port}` } })) };
    transport = createTransport(mute, { http2Sessions: { pingIntervalMs: 40, pingTimeoutMs: 150 } });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = Date.now();
      await expect(getJson(transport, '/version', { signal: AbortSignal.timeout(5_000) })).rejects.toThrow(/gave no TLS and HTTP\/2 handshake within/);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
  });
});

describe('informers over HTTP/2', () => {
  const KINDS: KindKey[] = ['namespaces', 'nodes', 'pods', 'deployments.apps', 'replicasets.apps'];

  /**
   * Syncs every kind over HTTP/2, cuts every watch's stream, and checks a change after the cut
   * arrives: with `connections` TCP connections throughout (the cut resets streams, not them).
   */
  async function syncCutAndRecover(reader: boolean, connections: number): Promise<void> {
    sim = await startQuietCluster({ http2: true });
    const cluster = sim;
    w = watching(cluster.kubeconfigObject(), { kinds: KINDS, pageSize: 5, ...(reader ? {} : { reader: false }) });
    await w.watcher.start();
    await waitFor('every kind live', () => w?.health.all(KINDS, 'live'));
    await waitFor('one watch per kind', () => cluster.server.faults.openWatches() === KINDS.length);
    expect(cacheMatchesStore(w.cache, cluster)).toBe(true);
    expect(cluster.server.connections().accepted).toBe(connections);
    expect(cluster.server.faults.cutWatches()).toBe(KINDS.length);
    const [pod] = cluster.store.all(T('pods'));
    if (!pod) throw new Error('no pod');
    cluster.store.update(T('pods'), { ...pod, metadata: { ...pod.metadata, labels: { ...pod.metadata.labels, touched: 'after-cut' } } });
    await waitFor('the change after the cut', () => w?.cache.get('pods', pod.metadata.uid as string)?.metadata.labels?.['touched'] === 'after-cut');
    await waitFor('one watch per kind again', () => cluster.server.faults.openWatches() === KINDS.length);
    expect(w.logs.some((m) => m.startsWith('pods: ') && m.includes('NGHTTP2_INTERNAL_ERROR'))).toBe(true);
    expect(cluster.server.connections().accepted).toBe(connections);
  }

  it('syncs every kind over one connection when watches are read on the engine thread, and recovers the watches the server cuts', async () => {
    await syncCutAndRecover(false, 1);
  });

  it('reads every watch over one more connection, the watch reader\'s (lists keep theirs), and recovers the watches the server cuts', async () => {
    await syncCutAndRecover(true, 2);
  });
});

describe('credentials over HTTP/2', () => {
  it('sends the bearer token on every stream, and a wrong one gets the 401 Status', async () => {
    const cluster = await start({ token: 'right' });
    transport = createTransport(cluster.kubeconfigObject());
    const list = (await getJson(transport, '/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) })) as { kind: string };
    expect(list.kind).toBe('NamespaceList');
    const config = cluster.kubeconfigObject();
    const wrong = createTransport({ ...config, users: config.users.map((u) => ({ name: u.name, user: { token: 'wrong' } })) });
    try {
      await expect(getJson(wrong, '/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) })).rejects.toMatchObject({ status: 401, reason: 'Unauthorized' });
    } finally {
      wrong.close();
    }
  });

  it('presents the kubeconfig client certificate: the server knows the user by it', async () => {
    const cluster = await start();
    const { certPem, keyPem } = await cluster.server.clientCertificate('jane', []);
    const config = cluster.kubeconfigObject();
    const user = { 'client-certificate-data': Buffer.from(certPem).toString('base64'), 'client-key-data': Buffer.from(keyPem).toString('base64') };
    transport = createTransport({ ...config, users: config.users.map((u) => ({ name: u.name, user })) });
    const response = await transport.get('/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) });
    expect(response.httpVersion).toBe('2.0');
    await expect(getJson(transport, '/api/v1/namespaces', { signal: AbortSignal.timeout(5_000) })).rejects.toMatchObject({ status: 403, message: expect.stringContaining('User "jane" cannot list resource "namespaces"') as unknown });
    response.destroy();
  });
});

describe('HTTP/1.1 fallback', () => {
  it('uses HTTP/1.1 when the server offers only http/1.1: a connection per open watch', async () => {
    const cluster = await start({ http2: false });
    transport = createTransport(cluster.kubeconfigObject());
    const watches = [await openWatch(transport), await openWatch(transport), await openWatch(transport)];
    expect(watches.map((w) => w.httpVersion)).toEqual(['1.1', '1.1', '1.1']);
    // The ALPN probe's connection, then one per watch.
    expect(cluster.server.connections().open).toBe(3);
    expect(cluster.server.connections().accepted).toBe(4);
  });

  it('uses HTTP/1.1 when h2 is switched off, though the server offers it', async () => {
    const cluster = await start();
    transport = createTransport(cluster.kubeconfigObject(), { http2: false });
    const watch = await openWatch(transport);
    expect(watch.httpVersion).toBe('1.1');
  });

  it('speaks HTTP/1.1 to a plain-HTTP server', async () => {
    const cluster = await start({ tls: false, http2: false });
    transport = createTransport(cluster.kubeconfigObject());
    const watch = await openWatch(transport);
    expect(watch.httpVersion).toBe('1.1');
  });
});
