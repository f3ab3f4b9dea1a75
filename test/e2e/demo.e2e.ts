import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { expectConsistent } from './consistency.ts';
import { launchBrowser, screenshot } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';
import { withTempDir } from '../helpers/tmp.ts';

let browser: Browser;
let shell: LiveShell;
let demo: SimCluster | undefined;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await withTempDir('kubedrift-e2e-demo-');
  cleanup = tmp.cleanup;
  // In-process, as `kubedrift serve` runs it, so the test holds the demo cluster and the engine.
  shell = await startLiveShell({
    dataDir: path.join(tmp.dir, 'data'),
    kubeconfig: path.join(tmp.dir, 'no-such-kubeconfig'),
    demoCluster: async () => (demo = await startSimCluster({ scenario: 'demo' })),
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await cleanup?.();
});

describe('demo cluster', () => {
  it('opens on the built-in demo cluster when no kubeconfig exists, and connects to it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await page.goto(shell.url);
    await expect.poll(() => page.getByTestId('context-picker').textContent()).toMatch(/kubedrift-demo/);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected · v1\.\d+\.\d+ · https:\/\/127\.0\.0\.1:\d+/);
    // The Overview is the demo's workloads, live from the cluster stream.
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    await expect.poll(() => page.locator('[data-testid="virtual-table"] [role="row"]', { hasText: 'frontend' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'overview-demo-dark');
    // The simulator, the engine cache and the renderer store hold the same objects.
    if (!demo) throw new Error('the engine never started the demo cluster');
    const consistent = await expectConsistent({ cluster: demo, engine: shell.engine, page });
    expect(consistent.objects).toBeGreaterThan(50);
    // Where the kubeconfig came from is on the Cluster screen.
    await page.getByTestId('nav-cluster').click();
    const missing = page.locator('[data-testid="kubeconfig-source"][data-state="missing"]');
    await expect.poll(() => missing.count()).toBe(1);
    await screenshot(page, 'cluster-demo-dark');
    await page.close();
  });
});
