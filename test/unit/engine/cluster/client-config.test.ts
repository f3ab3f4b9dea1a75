/**
 * A kubeconfig whose cluster is served over plain HTTP (`kubectl proxy`): every HTTP client of the
 * engine reaches it without `insecure-skip-tls-verify`, and none sends the user's token in the
 * clear, as kubectl does; where the kubeconfig sets the flag, the token goes as client-node sends
 * it (client-config.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadClientConfig, withoutCredentials } from '../../../../electron/engine/cluster/client-config.ts';
import { createTransport, getJson } from '../../../../electron/engine/cluster/informers/http.ts';
import { createApiClient } from '../../../../electron/engine/diff/cluster/client.ts';

let server: http.Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A stand-in proxy answering every GET with its path, remembering each request's Authorization. */
async function proxy(): Promise<{ url: string; seen: Array<string | undefined> }> {
  const seen: Array<string | undefined> = [];
  server = http.createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ path: req.url }));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const kubeconfig = (url: string, cluster: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'c', cluster: { server: url, ...cluster } }],
  users: [{ name: 'u', user: { token: 'secret' } }],
  contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  'current-context': 'x',
});

describe('a plain-HTTP cluster', () => {
  it('is loaded where client-node alone refuses it, and an HTTPS one is left as it was', () => {
    const proxied = loadClientConfig(kubeconfig('http://127.0.0.1:8001'));
    expect(proxied.getCurrentCluster()).toMatchObject({ server: 'http://127.0.0.1:8001', skipTLSVerify: true });
    expect(withoutCredentials(proxied)).toBe(true);
    expect(withoutCredentials(loadClientConfig(kubeconfig('http://127.0.0.1:8001', { 'insecure-skip-tls-verify': true })))).toBe(false);
    const secure = loadClientConfig(kubeconfig('https://k8s.example:6443'));
    expect(secure.getCurrentCluster()?.skipTLSVerify).toBeFalsy();
    expect(withoutCredentials(secure)).toBe(false);
    expect(() => loadClientConfig({ ...kubeconfig('http://x'), 'current-context': 'nope' })).toThrow(/names no cluster/);
  });

  it('is read by the informers\' transport, with no token sent', async () => {
    const { url, seen } = await proxy();
    const transport = createTransport(kubeconfig(url));
    try {
      expect(await getJson(transport, '/api/v1/pods', { signal: AbortSignal.timeout(5_000) })).toEqual({ path: '/api/v1/pods' });
    } finally {
      transport.close();
    }
    expect(seen).toEqual([undefined]);
  });

  it('gets the token where the kubeconfig itself marks the plain-HTTP cluster insecure', async () => {
    const { url, seen } = await proxy();
    const transport = createTransport(kubeconfig(url, { 'insecure-skip-tls-verify': true }));
    try {
      await getJson(transport, '/version', { signal: AbortSignal.timeout(5_000) });
    } finally {
      transport.close();
    }
    const client = await createApiClient(kubeconfig(url, { 'insecure-skip-tls-verify': true }));
    try {
      await client.request('GET', '/version');
    } finally {
      client.close();
    }
    expect(seen).toEqual(['Bearer secret', 'Bearer secret']);
  });

  it('is read by the diff\'s client, with no token sent', async () => {
    const { url, seen } = await proxy();
    const client = await createApiClient(kubeconfig(url));
    try {
      expect(await client.request('GET', '/version')).toEqual({ status: 200, body: { path: '/version' } });
    } finally {
      client.close();
    }
    expect(seen).toEqual([undefined]);
  });
});
