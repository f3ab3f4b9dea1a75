import { CoreV1Api, KubeConfig, type V1NamespaceList } from '@kubernetes/client-node';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ContextRegistry } from '../../../../electron/engine/cluster/contexts.ts';
import { diagnosticsSnapshot, prepareEnvironment } from '../../../../electron/engine/cluster/environment.ts';
import { probeServer } from '../../../../electron/engine/cluster/probe.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { DiagnosticsSchema } from '../../../../shared/diagnostics.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const TOKEN = 'kd-exec-token-4c1d';
const PLUGIN = 'kd-fake-auth';

let sim: SimCluster;
let dir: string;
let cleanup: () => Promise<void>;
let pluginDir: string;
let loginShell: string;
let registry: ContextRegistry;
let userSeq = 0;
const inheritedPath = process.env['PATH'];

beforeAll(async () => {
  sim = await startSimCluster({ scenario: 'minimal', token: TOKEN, controllers: false });
});
afterAll(async () => sim.stop());

beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
  pluginDir = path.join(dir, 'login-only-bin');
  await mkdir(pluginDir);
  // The plugin exists only in a folder the login profile adds, never on the inherited PATH.
  const credential = { apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: TOKEN } };
  await writeFile(path.join(pluginDir, PLUGIN), `#!/bin/sh\nprintf '%s' '${JSON.stringify(credential)}'\n`, { mode: 0o755 });
  loginShell = path.join(dir, 'login-sh');
  await writeFile(loginShell, `#!/bin/sh\necho "Welcome back"\nexport PATH="${pluginDir}:$PATH"\n/bin/sh -c "$2"\n`, { mode: 0o755 });
  // client-node caches exec credentials per user name for the whole process: a fresh name per test.
  userSeq += 1;
  const cluster = sim.kubeconfigObject().clusters[0]?.cluster;
  const config = path.join(dir, 'config');
  await writeFile(
    config,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'sim',
      clusters: [{ name: 'sim', cluster }],
      users: [
        { name: `exec-user-${userSeq}`, user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: PLUGIN, interactiveMode: 'Never' } } },
        { name: 'nobody', user: {} },
      ],
      contexts: [
        { name: 'sim', context: { cluster: 'sim', user: `exec-user-${userSeq}` } },
        { name: 'sim-anonymous', context: { cluster: 'sim', user: 'nobody' } },
      ],
    }),
  );
  registry = new ContextRegistry({ explicit: config, env: {}, homeDir: dir });
  await registry.reload();
});

afterEach(async () => {
  if (inheritedPath === undefined) delete process.env['PATH'];
  else process.env['PATH'] = inheritedPath;
  await cleanup();
});

function clientConfig(name: string): object {
  const config = registry.clientConfig(name);
  if (!config) throw new Error(`no client config for ${name}`);
  return config;
}

/** A request the simulated server only answers with the token, through client-node's own auth. */
function listNamespaces(context: string): Promise<V1NamespaceList> {
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(clientConfig(context)));
  return kc.makeApiClient(CoreV1Api).listNamespace();
}

describe('prepareEnvironment', () => {
  it('fails with a message naming the missing plugin binary while the login-shell PATH is not in use', async () => {
    const outcome = await probeServer(clientConfig('sim'));
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('kubeconfig');
    expect(outcome.error.message).toContain(`The credential plugin "${PLUGIN}"`);
    expect(outcome.error.message).toContain('was not found on PATH');
  });

  it('lets client-node find and run an exec plugin that only the login shell PATH has', async () => {
    const diagnostics = await prepareEnvironment({ shell: loginShell });
    expect(diagnostics).toEqual({ value: process.env['PATH'], source: 'login-shell', shell: loginShell });
    expect(process.env['PATH']?.split(':')[0]).toBe(pluginDir);

    const outcome = await probeServer(clientConfig('sim'));
    expect(outcome).toMatchObject({ ok: true, version: sim.version });
    // /version is public (as on real clusters), so prove the plugin's token authorises a
    // request that needs it, and that the same request without it is refused.
    expect((await listNamespaces('sim')).items.length).toBeGreaterThan(0);
    await expect(listNamespaces('sim-anonymous')).rejects.toMatchObject({ code: 401 });
  });

  it('leaves PATH alone and reports why when the login shell fails', async () => {
    const broken = path.join(dir, 'broken-sh');
    await writeFile(broken, '#!/bin/sh\nexit 1\n', { mode: 0o755 });
    const diagnostics = await prepareEnvironment({ shell: broken });
    expect(process.env['PATH']).toBe(inheritedPath);
    expect(diagnostics).toMatchObject({ value: inheritedPath, source: 'inherited', shell: broken, error: expect.stringMatching(/exited with code 1/) });
  });
});

describe('diagnosticsSnapshot', () => {
  it('shows the PATH in use, the binary each exec plugin resolves to, and the kubeconfig files', async () => {
    const before = diagnosticsSnapshot({ path: { value: inheritedPath ?? '', source: 'inherited' }, registry });
    expect(before.execPlugins).toMatchObject([{ user: `exec-user-${userSeq}`, command: PLUGIN, resolved: null, status: 'not-found', contexts: ['sim'] }]);

    const pathDiagnostics = await prepareEnvironment({ shell: loginShell });
    const after = diagnosticsSnapshot({ path: pathDiagnostics, registry });
    expect(DiagnosticsSchema.parse(after)).toEqual(after);
    expect(after.path.source).toBe('login-shell');
    expect(after.execPlugins).toMatchObject([
      { command: PLUGIN, resolved: path.join(pluginDir, PLUGIN), status: 'ok', apiVersion: 'client.authentication.k8s.io/v1', interactiveMode: 'Never' },
    ]);
    expect(after.kubeconfigSources).toEqual([{ path: path.join(dir, 'config'), state: 'loaded' }]);
  });
});
