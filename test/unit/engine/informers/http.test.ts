import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, readLines, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { waitFor, watching, type Watching } from './helpers.ts';

let server: Server | undefined;
let transport: Transport | undefined;
let sim: SimCluster | undefined;
let w: Watching | undefined;
let dir: string | undefined;
afterEach(async () => {
  await w?.watcher.stop();
  transport?.close();
  await sim?.stop();
  if (server) {
    server.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
  w = undefined;
  transport = undefined;
  sim = undefined;
  server = undefined;
  dir = undefined;
});

async function serve(write: (res: ServerResponse) => void): Promise<string> {
  server = createServer((_req, res) => write(res));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function plainConfig(url: string): object {
  return {
    clusters: [{ name: 'c', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'u', user: {} }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  };
}

describe('watch stream framing', () => {
  it('splits lines across chunks, skips bare keep-alive lines and keeps multi-byte characters whole', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const line = Buffer.from('{"type":"ADDED","object":{"note":"caf\u00e9"}}\n');
      res.write('\n');
      // Split inside the two-byte "é".
      const cut = line.indexOf(0xc3) + 1;
      res.write(line.subarray(0, cut));
      setTimeout(() => {
        res.write(Buffer.concat([line.subarray(cut), Buffer.from('\n\r\n{"type":"BOOKMARK"}\n')]));
        res.end();
      }, 20);
    });
    transport = createTransport(plainConfig(url));
    const lines: string[] = [];
    let chunks = 0;
    await readLines(await transport.get('/w', { signal: new AbortController().signal }), (l) => lines.push(l), () => (chunks += 1));
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual([{ type: 'ADDED', object: { note: 'caf\u00e9' } }, { type: 'BOOKMARK' }]);
    expect(chunks).toBeGreaterThanOrEqual(2);
  });

  it('rejects when the connection breaks mid-stream', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"type":"ADDED"}\n');
      setTimeout(() => res.destroy(), 20);
    });
    transport = createTransport(plainConfig(url));
    const lines: string[] = [];
    await expect(readLines(await transport.get('/w', { signal: new AbortController().signal }), (l) => lines.push(l))).rejects.toThrow();
    expect(lines).toHaveLength(1);
  });
});

describe('credentials through the kubeconfig', () => {
  it.skipIf(process.platform === 'win32')('authenticates with a token from an exec credential plugin', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, token: 'from-the-plugin' });
    dir = mkdtempSync(join(tmpdir(), 'kubedrift-exec-'));
    const plugin = join(dir, 'fake-auth-plugin');
    writeFileSync(plugin, `#!/bin/sh\necho '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"from-the-plugin"}}'\n`);
    chmodSync(plugin, 0o755);
    const config = sim.kubeconfigObject();
    const exec = { apiVersion: 'client.authentication.k8s.io/v1beta1', command: plugin, interactiveMode: 'Never' };
    w = watching({ ...config, users: config.users.map((u) => ({ name: u.name, user: { exec } })) }, { kinds: ['namespaces'] });
    await w.watcher.start();
    await waitFor('namespaces live', () => w?.health.latest('namespaces')?.state === 'live');
    expect(w.cache.size('namespaces')).toBeGreaterThan(0);
  });

  it('shows a wrong token as a 401 with a message naming the credentials', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, token: 'right' });
    const config = sim.kubeconfigObject();
    w = watching({ ...config, users: config.users.map((u) => ({ name: u.name, user: { token: 'wrong' } })) }, { kinds: ['namespaces'] });
    await w.watcher.start();
    await waitFor('a discovery failure', () => w?.health.latest('namespaces')?.state === 'reconnecting');
    expect(w.health.latest('namespaces')?.message).toMatch(/^Discovery failed: https:\/\/127\.0\.0\.1:\d+ rejected the credentials \(401 Unauthorized\)/);
  });
});
