/**
 * The Graph screen on the demo cluster: the shop namespace's ownership graph live (workloads,
 * ReplicaSets, pods, Services, the HPA, nodes), a node's side panel with spec vs status and its
 * Events, then a rollout the test starts (a new image on shop/catalog) seen in focus mode mid-way:
 * the new ReplicaSet beside the old one, pods of both, the Deployment progressing.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;

const env = useDemoShell('graph');

const card = (page: Page, kind: string, name: string) => page.locator(`[data-testid="graph-node"][data-kind="${kind}"]`).filter({ has: page.locator('title', { hasText: new RegExp(`^${kind} shop/${name}\\n`) }) });

/** Moves the pointer off the graph and lets cards finish gliding to new places (260 ms). */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(700);
}

describe('graph screen', () => {
  it('draws the shop namespace live, explains a node, and follows a rollout in focus mode', { timeout: 90_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/graph?namespace=shop`);
    const nodes = page.getByTestId('graph-node');
    await expect.poll(() => nodes.count(), { timeout: 30_000 }).toBeGreaterThan(20);
    // The demo's start-up settles: every shop Deployment ready (readiness takes ~10 s).
    await expect.poll(() => page.locator('[data-testid="graph-node"][data-kind="Deployment"][data-health="ready"]').count(), { timeout: 40_000 }).toBeGreaterThanOrEqual(6);
    expect(await page.locator('[data-testid="graph-node"][data-kind="Service"]').count()).toBeGreaterThanOrEqual(6);
    expect(await page.locator('[data-testid="graph-node"][data-kind="HorizontalPodAutoscaler"]').count()).toBe(1);
    expect(await page.locator('[data-testid="graph-node"][data-kind="Node"]').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('path[data-type="selects"]').count()).toBeGreaterThan(5);
    await settle(page);
    await screenshot(page, 'graph-demo-dark');

    // A Deployment's panel: desired vs actual, conditions, Events, spec beside status.
    await card(page, 'Deployment', 'catalog').click();
    const panel = page.getByTestId('graph-detail');
    await expect.poll(() => panel.getByTestId('graph-detail-name').textContent()).toBe('catalog');
    await expect.poll(() => panel.getByTestId('graph-pair').count(), { timeout: 10_000 }).toBeGreaterThan(3);
    await expect.poll(() => panel.getByTestId('graph-spec').textContent()).toContain('replicas: 2');
    await expect.poll(() => panel.getByTestId('graph-event').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // Focus on catalog, then roll it out to a new image (and scale it to 4) and catch it mid-way.
    await panel.getByTestId('graph-focus').click();
    await expect.poll(() => page.getByTestId('graph-focus-chip').textContent()).toContain('Deployment catalog');
    await expect.poll(() => page.locator('[data-testid="graph-node"][data-kind="Deployment"]').count()).toBe(1);
    expect(await card(page, 'Service', 'catalog').count()).toBe(1);
    env.demo.store.mutate(DEPLOYMENTS, 'shop', 'catalog', (copy) => {
      const spec = copy['spec'] as { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };
      spec.replicas = 4;
      if (spec.template.spec.containers[0]) spec.template.spec.containers[0].image = 'ghcr.io/acme-shop/catalog:v5.2.0';
    });
    // Mid-rollout: two ReplicaSets with pods, the Deployment progressing.
    await expect.poll(() => page.locator('[data-testid="graph-node"][data-kind="ReplicaSet"]').count(), { timeout: 15_000 }).toBe(2);
    await expect.poll(() => card(page, 'Deployment', 'catalog').getAttribute('data-health')).toBe('progressing');
    await expect.poll(() => page.locator('[data-testid="graph-node"][data-kind="Pod"]').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
    await settle(page);
    await screenshot(page, 'graph-focus-rollout');

    // Its panel: the pods run both images while the rollout is under way.
    await card(page, 'Deployment', 'catalog').click();
    const image = panel.locator('[data-testid="graph-pair"]', { hasText: 'Image catalog' });
    await expect.poll(() => image.textContent(), { timeout: 10_000 }).toMatch(/catalog:v5\.0\.3.*catalog:v5\.2\.0|catalog:v5\.2\.0.*catalog:v5\.0\.3/);
    expect(await image.getAttribute('data-match')).toBe('false');
    await settle(page);
    await screenshot(page, 'graph-rollout-panel');
    await page.close();
  });
});
