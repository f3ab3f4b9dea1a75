import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startSim, stop } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
});
afterAll(async () => cleanup());

describe('kubedrift sim --pods --nodes --namespaces', () => {
  it.skipIf(!existsSync('/usr/bin/kubectl'))('seeds a cluster of that size whose namespaces a --user may be bound in', { timeout: 90_000 }, async () => {
    const kubeconfig = path.join(dir, 'sized.kubeconfig');
    const { child } = await startSim(['--port', '0', '--pods', '1000', '--nodes', '10', '--namespaces', '2', '--write-kubeconfig', kubeconfig, '--user', 'dev=view:churn-001']);
    try {
      const kubectl = (...args: string[]) =>
        spawnSync('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'kube-cache'), ...args], { encoding: 'utf8', env: { ...process.env, HOME: dir }, timeout: 30_000 });
      const pods = kubectl('get', 'pods', '-A', '--no-headers');
      expect(pods.stderr).toBe('');
      expect(pods.stdout.trim().split('\n')).toHaveLength(1_000);
      // Beside the minimal scenario's own node.
      expect(kubectl('get', 'nodes', '--no-headers').stdout.match(/^churn-node-\d+ /gm)).toHaveLength(10);
      const devPods = kubectl('--context', 'kubedrift-demo-dev', 'get', 'pods', '-n', 'churn-001', '--no-headers');
      expect(devPods.stdout.trim().split('\n')).toHaveLength(500);
      expect(kubectl('--context', 'kubedrift-demo-dev', 'auth', 'can-i', 'list', 'pods', '-n', 'churn-000').stdout).toBe('no\n');
    } finally {
      await stop(child);
    }
  });

  it('refuses sizes it cannot lay out, and one flag without the others, with exit 2', { timeout: 60_000 }, async () => {
    const uneven = await runCli(['sim', '--pods', '1001', '--nodes', '10', '--namespaces', '2']);
    expect(uneven.code).toBe(2);
    expect(uneven.stderr).toContain('--pods (1001) must be a multiple of --namespaces (2)');
    const alone = await runCli(['sim', '--pods', '1000']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--pods, --nodes and --namespaces go together (got only --pods)');
    const above = await runCli(['sim', '--pods', '200000', '--nodes', '5000', '--namespaces', '50']);
    expect(above.code).toBe(2);
    expect(above.stderr).toContain('--pods must be a whole number from 1 to 150,000, got 200000');
  });
});
