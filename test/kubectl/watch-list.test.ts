/**
 * client-go's reflector with the WatchListClient feature gate (`KUBE_FEATURE_WatchListClient`)
 * takes its initial state from the simulator's WatchList stream: kubectl wait runs one.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSimCluster } from '../../electron/engine/simcluster/index.ts';
import { kubectl, kubectlMissing } from './kubectl.ts';

describe.skipIf(kubectlMissing !== undefined)('WatchList with real kubectl (client-go reflector)', () => {
  it('kubectl wait syncs from sendInitialEvents and the initial-events-end bookmark', async () => {
    const cluster = await startSimCluster({ scenario: 'minimal', kubernetesMinor: 32, controllers: false, onError: () => undefined });
    const home = await mkdtemp(join(tmpdir(), 'kubedrift-watchlist-'));
    const gate = process.env['KUBE_FEATURE_WatchListClient'];
    try {
      const kubeconfig = join(home, 'kubeconfig.yaml');
      await writeFile(kubeconfig, cluster.kubeconfig());
      process.env['KUBE_FEATURE_WatchListClient'] = 'true';
      const result = await kubectl(['wait', '--for=jsonpath={.status.phase}=Active', 'namespace/default', '--timeout=10s', '-v=6'], { kubeconfig, home });
      expect(result.stdout).toBe('namespace/default condition met\n');
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/GET \S+\/api\/v1\/namespaces\?allowWatchBookmarks=true&fieldSelector=metadata\.name%3Ddefault&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&\S+ 200 OK/);
      expect(result.stderr).toContain('received the bookmark that marks the end of initial events stream');
      expect(result.stderr).not.toMatch(/GET \S+\/api\/v1\/namespaces\?(\S*&)?limit=/);
    } finally {
      if (gate === undefined) delete process.env['KUBE_FEATURE_WatchListClient'];
      else process.env['KUBE_FEATURE_WatchListClient'] = gate;
      await rm(home, { recursive: true, force: true });
      await cluster.stop();
    }
  }, 60_000);
});
