import { describe, expect, it } from 'vitest';
import { expectConsistent } from './consistency.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('demo');

describe('demo cluster', () => {
  it('opens on the built-in demo cluster when no kubeconfig exists, and connects to it', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await page.goto(env.shell.url);
    await expect.poll(() => page.getByTestId('context-picker').textContent()).toMatch(/kubedrift-demo/);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected · v1\.\d+\.\d+ · https:\/\/127\.0\.0\.1:\d+/);
    // The Overview is the demo's workloads, live from the cluster stream.
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    await expect.poll(() => page.locator('[data-testid="virtual-table"] [role="row"]', { hasText: 'frontend' }).count()).toBeGreaterThan(0);
    await screenshot(page, 'overview-demo-dark');
    // The simulator, the engine cache and the renderer store hold the same objects.
    const consistent = await expectConsistent({ cluster: env.demo, engine: env.shell.engine, page });
    expect(consistent.objects).toBeGreaterThan(50);
    // Where the kubeconfig came from is on the Cluster screen.
    await page.getByTestId('nav-cluster').click();
    const missing = page.locator('[data-testid="kubeconfig-source"][data-state="missing"]');
    await expect.poll(() => missing.count()).toBe(1);
    await screenshot(page, 'cluster-demo-dark');
    await page.close();
  });
});
