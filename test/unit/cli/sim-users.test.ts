/**
 * `kubedrift sim --user NAME=ROLE:NS,...` as someone trying a restricted user by hand: the
 * written kubeconfig's user context is set up like the demo's kubedrift-demo-dev (view in its
 * namespaces, namespace-viewer, context namespace the first one), and the real kubectl (each
 * build the dispatcher runs) sees exactly that: namespaces listed, shop readable without -n,
 * and the apiserver's own 403 for a cluster-wide pod list.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSim, stop } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { MINORS } from '../../kubectl/session.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
});
afterAll(async () => cleanup());

describe.skipIf(!existsSync('/usr/bin/kubectl'))('kubedrift sim --user dev=view:shop,payments and the real kubectl', () => {
  it.each(MINORS)('kubectl 1.%i sees the demo developer\'s rights', async (minor) => {
    const kubeconfig = path.join(dir, `sim-dev-${minor}.kubeconfig`);
    const { child, output } = await startSim(['--port', '0', '--kubernetes-minor', String(minor), '--write-kubeconfig', kubeconfig, '--user', 'dev=view:shop,payments']);
    try {
      expect(output()).toContain('context kubedrift-demo-dev: view in shop, payments; may list namespaces; context namespace shop');
      const asDev = (...args: string[]) => {
        const result = spawnSync('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--context', 'kubedrift-demo-dev', '--cache-dir', path.join(dir, `kube-cache-${minor}`), ...args], {
          encoding: 'utf8',
          env: { ...process.env, HOME: dir },
          timeout: 30_000,
        });
        return { code: result.status, stdout: result.stdout, stderr: result.stderr };
      };
      const namespaces = asDev('get', 'namespaces', '-o', 'name');
      expect([namespaces.code, namespaces.stderr]).toEqual([0, '']);
      expect(namespaces.stdout.split('\n')).toEqual(expect.arrayContaining(['namespace/shop', 'namespace/payments', 'namespace/platform']));
      const shop = asDev('get', 'pods', '-n', 'shop', '-o', 'name');
      expect([shop.code, shop.stderr]).toEqual([0, '']);
      expect(shop.stdout).toMatch(/^pod\//m);
      // No -n: the context namespace, shop.
      const here = asDev('get', 'deployments', '-o', 'name');
      expect(here.code).toBe(0);
      expect(here.stdout).toMatch(/^deployment\.apps\//m);
      expect(here.stdout).toBe(asDev('get', 'deployments', '-n', 'shop', '-o', 'name').stdout);
      const everywhere = asDev('get', 'pods', '-A');
      expect([everywhere.code, everywhere.stderr]).toEqual([1, 'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope\n']);
      const platform = asDev('get', 'pods', '-n', 'platform');
      expect([platform.code, platform.stderr]).toEqual([1, 'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"\n']);
      expect(asDev('auth', 'can-i', 'delete', 'namespaces').stdout).toBe('no\n');
    } finally {
      await stop(child);
    }
  });
});
