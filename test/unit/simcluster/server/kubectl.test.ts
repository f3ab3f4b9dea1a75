/**
 * The machine's real kubectl (the google-cloud-sdk dispatcher, which picks its 1.27–1.33 build
 * from the server's /version) against the server with the minimal test extensions.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestCluster, type TestCluster } from './helpers.ts';

const KUBECTL = '/usr/bin/kubectl';
const available = existsSync(KUBECTL);
const suite = available ? 'real kubectl' : `real kubectl (skipped: ${KUBECTL} is not installed on this machine)`;

let cluster: TestCluster | undefined;
let home: string | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
  if (home) rmSync(home, { recursive: true, force: true });
  home = undefined;
});

/** Runs kubectl without blocking the event loop the in-process server needs. */
function kubectl(kubeconfig: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(KUBECTL, ['--kubeconfig', kubeconfig, '--cache-dir', join(home ?? tmpdir(), 'cache'), ...args], { env: { ...process.env, HOME: home }, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

async function setUp(minor: number): Promise<string> {
  cluster = await startTestCluster({ tls: true, kubernetesMinor: minor });
  home = mkdtempSync(join(tmpdir(), 'kubedrift-kubectl-'));
  const path = join(home, 'kubeconfig');
  writeFileSync(path, cluster.server.kubeconfig());
  const { server } = cluster;
  await call(server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } } });
  for (const [namespace, name] of [['default', 'web-1'], ['shop', 'cart-1']] as const) {
    await call(server, 'POST', `/api/v1/namespaces/${namespace}/pods`, { body: { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
  }
  return path;
}

describe.skipIf(!available)(suite, () => {
  it.each([32, 27])('kubectl 1.%i lists namespaces and pods in all namespaces', async (minor) => {
    const kubeconfig = await setUp(minor);
    const version = await kubectl(kubeconfig, 'version', '-o', 'json');
    expect(version.code).toBe(0);
    const versions = JSON.parse(version.stdout) as { clientVersion: { minor: string }; serverVersion: { minor: string } };
    expect(versions.serverVersion.minor).toBe(String(minor));
    // The 1.32 build is the dispatcher itself and reports "32+".
    expect(versions.clientVersion.minor).toMatch(new RegExp(`^${minor}\\+?$`));

    const namespaces = await kubectl(kubeconfig, 'get', 'namespaces');
    expect(namespaces.stderr).toBe('');
    expect(namespaces.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 1).join())).toEqual(['NAME', 'default', 'shop']);

    const pods = await kubectl(kubeconfig, 'get', 'pods', '-A');
    expect(pods.code).toBe(0);
    expect(pods.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2))).toEqual([
      ['NAMESPACE', 'NAME'],
      ['default', 'web-1'],
      ['shop', 'cart-1'],
    ]);
  }, 120_000);

  it('kubectl 1.32 creates objects it sends as Kubernetes protobuf', async () => {
    const kubeconfig = await setUp(32);
    const created = await kubectl(kubeconfig, 'create', 'configmap', 'app', '--from-literal=mode=demo');
    expect([created.code, created.stdout.trim(), created.stderr]).toEqual([0, 'configmap/app created', '']);
    const res = await call(cluster?.server ?? { url: '' }, 'GET', '/api/v1/namespaces/default/configmaps/app');
    expect(res.json).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'app', namespace: 'default' }, data: { mode: 'demo' } });
  }, 120_000);
});
