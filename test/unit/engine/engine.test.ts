import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../electron/engine/engine.ts';
import { DEFAULT_SETTINGS } from '../../../electron/engine/settings.ts';
import { startSimCluster } from '../../../electron/engine/simcluster/index.ts';
import type { ConnectionStatus } from '../../../shared/model.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { writeKubeconfig } from '../../helpers/kubeconfig.ts';

let dir: string;
let cleanup: () => Promise<void>;
let engine: Engine | undefined;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
  await cleanup();
});

/** The demo context runs the small built-in scenario here, to keep the tests quick. */
const minimalDemo = async () => startSimCluster({ scenario: 'minimal' });

function make(kubeconfig: string, extra: { context?: string } = {}): Engine {
  engine = createEngine({ version: '0.0.0-test', dataDir: `${dir}/data`, shell: 'test', kubeconfig, env: {}, homeDir: dir, log: () => {}, demoCluster: minimalDemo, loginShellPath: false, ...extra });
  return engine;
}

function nextConnection(e: Engine, state: ConnectionStatus['state']): Promise<ConnectionStatus> {
  return new Promise((resolve) => {
    const stop = e.hub.listen((stream, payload) => {
      if (stream === 'connection:changed' && (payload as ConnectionStatus).state === state) {
        stop();
        resolve(payload as ConnectionStatus);
      }
    });
  });
}

/** A stand-in API server answering /version, as a real one does. */
async function versionServer(status = 200): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(status === 200 ? JSON.stringify({ major: '1', minor: '32', gitVersion: 'v1.32.4' }) : JSON.stringify({ kind: 'Status', code: status }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('engine', () => {
  it('lists kubeconfig contexts plus the demo contexts and starts on current-context', async () => {
    const file = await writeKubeconfig(dir, 'config', [{ name: 'a', server: 'https://127.0.0.1:1' }, { name: 'b', server: 'https://127.0.0.1:1' }], 'b');
    const e = make(file);
    await e.start();
    const result = await e.dispatch('contexts:list', {});
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const list = result.value as { contexts: Array<{ name: string; demo: boolean }>; selected: string };
    expect(list.contexts.map((c) => c.name)).toEqual(['a', 'b', 'kubedrift-demo', 'kubedrift-demo-dev']);
    expect(list.contexts.at(-1)?.demo).toBe(true);
    expect(list.selected).toBe('b');
  });

  it('falls back to the demo context when no kubeconfig exists', async () => {
    const e = make(`${dir}/missing`);
    await e.start();
    const result = await e.dispatch('contexts:list', {});
    expect(result).toMatchObject({ ok: true, value: { selected: 'kubedrift-demo', sources: [{ state: 'missing' }] } });
  });

  it('connects the demo context to the built-in simulated cluster over TLS', async () => {
    const e = make(`${dir}/missing`);
    const connected = nextConnection(e, 'connected');
    await e.start();
    const status = await connected;
    expect(status).toMatchObject({ context: 'kubedrift-demo', serverVersion: expect.stringMatching(/^v1\.\d+\.\d+$/) });
    expect(status.server).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('reports a demo cluster that cannot start', async () => {
    engine = createEngine({
      version: '0', dataDir: `${dir}/data`, shell: 'test', kubeconfig: `${dir}/missing`, env: {}, homeDir: dir, log: () => {}, loginShellPath: false,
      demoCluster: async () => {
        throw new Error('port in use');
      },
    });
    const failed = nextConnection(engine, 'error');
    await engine.start();
    expect((await failed).message).toBe('The demo cluster could not start: port in use');
  });

  it('remembers the selected context across restarts', async () => {
    const file = await writeKubeconfig(dir, 'config', [{ name: 'a', server: 'https://127.0.0.1:1' }, { name: 'b', server: 'https://127.0.0.1:1' }], 'a');
    const first = make(file);
    await first.start();
    expect(await first.dispatch('contexts:select', { name: 'b' })).toMatchObject({ ok: true, value: { selected: 'b' } });
    await first.dispose();
    const second = make(file);
    await second.start();
    expect(await second.dispatch('contexts:list', {})).toMatchObject({ ok: true, value: { selected: 'b' } });
  });

  it('answers not-found for an unknown context and keeps the selection', async () => {
    const file = await writeKubeconfig(dir, 'config', [{ name: 'a', server: 'https://127.0.0.1:1' }]);
    const e = make(file);
    await e.start();
    expect(await e.dispatch('contexts:select', { name: 'zzz' })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await e.dispatch('contexts:list', {})).toMatchObject({ ok: true, value: { selected: 'a' } });
  });

  it('reports connected with the server version', async () => {
    const server = await versionServer();
    try {
      const file = await writeKubeconfig(dir, 'config', [{ name: 'live', server: server.url }]);
      const e = make(file);
      const connected = nextConnection(e, 'connected');
      await e.start();
      expect(await connected).toMatchObject({ context: 'live', serverVersion: 'v1.32.4', server: server.url });
    } finally {
      await server.close();
    }
  });

  it('reports an unreachable server', async () => {
    const file = await writeKubeconfig(dir, 'config', [{ name: 'down', server: 'https://127.0.0.1:1' }]);
    const e = make(file);
    const failed = nextConnection(e, 'error');
    await e.start();
    expect((await failed).message).toMatch(/Cannot reach https:\/\/127\.0\.0\.1:1/);
  });

  it('reports 401 and 403 precisely', async () => {
    for (const [status, text] of [
      [401, /rejected the credentials \(401 Unauthorized\)/],
      [403, /refused access \(403 Forbidden\)/],
    ] as const) {
      const server = await versionServer(status);
      try {
        const file = await writeKubeconfig(dir, `config-${status}`, [{ name: `s${status}`, server: server.url }]);
        const e = make(file);
        const failed = nextConnection(e, 'error');
        await e.start();
        expect((await failed).message).toMatch(text);
        await e.dispose();
      } finally {
        await server.close();
      }
    }
  });

  it('persists the theme setting and streams the change', async () => {
    const e = make(`${dir}/missing`);
    await e.start();
    const seen: unknown[] = [];
    e.hub.listen((stream, payload) => stream === 'settings:changed' && seen.push(payload));
    expect(await e.dispatch('settings:update', { theme: 'dark' })).toMatchObject({ ok: true, value: { theme: 'dark' } });
    expect(seen).toEqual([{ ...DEFAULT_SETTINGS, theme: 'dark' }]);
    expect(await e.dispatch('settings:update', { theme: 'purple' })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });
});
