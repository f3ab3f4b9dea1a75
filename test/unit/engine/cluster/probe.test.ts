/**
 * The connect's first question, `/version`, against stand-in servers on 127.0.0.1: asked through
 * the informers' transport, it reaches a server on a port fetch refuses and a plain-HTTP one (as
 * kubectl: without sending the token in the clear), names a refused or silent server in plain
 * words, and tells a server that is no API server apart.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { chainText, probeServer } from '../../../../electron/engine/cluster/probe.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function kubeconfig(server: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'c', cluster: { server } }],
    users: [{ name: 'u', user: { token: 'secret' } }],
    contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
    'current-context': 'x',
  };
}

/** Listens on the first of `ports` that is free (0: any). */
async function listen(handler: http.RequestListener, ports: readonly number[] = [0]): Promise<number> {
  for (const port of ports) {
    const server = http.createServer(handler);
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    servers.push(server);
    return (server.address() as AddressInfo).port;
  }
  throw new Error(`none of the ports ${ports.join(', ')} is free`);
}

const versionAnswer: http.RequestListener = (req, res) => {
  res.writeHead(req.url === '/version' ? 200 : 404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(req.url === '/version' ? { major: '1', minor: '33', gitVersion: 'v1.33.2' } : { kind: 'Status', code: 404 }));
};

describe('probeServer', () => {
  it('reaches an API server on a port that fetch refuses as a "bad port" (kubectl reaches it)', async () => {
    // The fetch standard's blocked ports above 1024: a server may listen there without privileges.
    const port = await listen(versionAnswer, [6000, 6665, 6666, 6667, 6668, 6669, 6697, 10080]);
    expect(await probeServer(kubeconfig(`http://127.0.0.1:${port}`))).toEqual({ ok: true, server: `http://127.0.0.1:${port}`, version: 'v1.33.2' });
  });

  it('reaches a plain-HTTP server (kubectl proxy) as kubectl does: no insecure-skip-tls-verify needed, no token sent in the clear', async () => {
    const seen: Array<string | undefined> = [];
    const port = await listen((req, res) => {
      seen.push(req.headers.authorization);
      versionAnswer(req, res);
    });
    expect(await probeServer(kubeconfig(`http://127.0.0.1:${port}`))).toEqual({ ok: true, server: `http://127.0.0.1:${port}`, version: 'v1.33.2' });
    expect(seen).toEqual([undefined]);
  });

  it('names a refused connection in plain words', async () => {
    const port = await listen(versionAnswer);
    const [server] = servers.splice(0);
    await new Promise((resolve) => server?.close(resolve));
    const outcome = await probeServer(kubeconfig(`https://127.0.0.1:${port}`));
    expect(outcome).toEqual({ ok: false, server: `https://127.0.0.1:${port}`, error: { code: 'unreachable', message: `Cannot reach https://127.0.0.1:${port}`, detail: `connect ECONNREFUSED 127.0.0.1:${port}` } });
  });

  it('gives up on a server that never answers, and says after how long', async () => {
    const port = await listen(() => undefined);
    const outcome = await probeServer(kubeconfig(`http://127.0.0.1:${port}`), { timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unreachable', message: `Cannot reach http://127.0.0.1:${port}`, detail: 'timed out after 300 ms' } });
  });

  it('tells a server that answers /version without a Kubernetes version apart', async () => {
    const port = await listen((_, res) => res.end('{"name":"some other service"}'));
    const outcome = await probeServer(kubeconfig(`http://127.0.0.1:${port}`));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable', message: `http://127.0.0.1:${port} answered /version without a Kubernetes version; is it an API server?` } });
  });

  it('tells a web page where the server URL points (a login page) from an API server', async () => {
    const port = await listen((_, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!DOCTYPE html><html><body>Sign in</body></html>');
    });
    const outcome = await probeServer(kubeconfig(`http://127.0.0.1:${port}`));
    expect(outcome).toMatchObject({ ok: false, error: { code: 'unavailable', message: `http://127.0.0.1:${port} answered /version without a Kubernetes version; is it an API server?` } });
    if (!outcome.ok) expect(outcome.error.detail).toMatch(/not valid JSON/);
  });

  it('says which kubeconfig is unusable before asking anything', async () => {
    const outcome = await probeServer({ apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [{ name: 'x', context: { cluster: 'gone', user: 'u' } }], 'current-context': 'x' });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'kubeconfig' } });
    if (!outcome.ok) expect(outcome.error.message).toMatch(/^The kubeconfig for this context is unusable: /);
  });
});

describe('chainText', () => {
  it('leaves out the wrapper that only says a cause follows, and a code the message names', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' });
    expect(chainText(new TypeError('fetch failed', { cause: refused }))).toBe('connect ECONNREFUSED 127.0.0.1:6443');
  });

  it('adds a code the message does not name, and every cause that says something new', () => {
    const tls = Object.assign(new Error('self-signed certificate in certificate chain'), { code: 'SELF_SIGNED_CERT_IN_CHAIN' });
    expect(chainText(new Error('request to https://k8s failed', { cause: tls }))).toBe('request to https://k8s failed: self-signed certificate in certificate chain (SELF_SIGNED_CERT_IN_CHAIN)');
  });

  it('reads the first of an AggregateError\'s errors (a host with several addresses, all refused)', () => {
    const first = Object.assign(new Error('connect ECONNREFUSED ::1:6443'), { code: 'ECONNREFUSED' });
    const all = Object.assign(new AggregateError([first, new Error('connect ECONNREFUSED 127.0.0.1:6443')], ''), { code: 'ECONNREFUSED' });
    expect(chainText(all)).toBe('connect ECONNREFUSED ::1:6443');
  });
});
