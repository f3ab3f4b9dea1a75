/**
 * The Controllers screen on the demo cluster: a card per reporting controller with the
 * simulator's Events, a rollout the test starts (a new image on shop/catalog) showing up as the
 * deployment-controller's ScalingReplicaSet Events, an inferred reconcile with its lag and who
 * acted during it, the Event list's filters, and a click through to the workload.
 */
import { describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;

const env = useDemoShell('controllers');

describe('controllers screen', () => {
  it('shows each controller\'s Events and reconcile lag, filters its Events and opens their objects', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/controllers`);
    const card = (name: string) => page.locator(`[data-testid="controller-card"][data-controller="${name}"]`);
    // The demo's start-up: pods created, scheduled, pulled and started.
    for (const name of ['replicaset-controller', 'default-scheduler', 'kubelet']) await expect.poll(() => card(name).count(), { timeout: 30_000 }).toBe(1);

    // A rollout: the deployment controller acts and its reconcile is measured.
    env.demo.store.mutate(DEPLOYMENTS, 'shop', 'catalog', (copy) => {
      const containers = (copy['spec'] as { template: { spec: { containers: Array<{ image: string }> } } }).template.spec.containers;
      if (containers[0]) containers[0].image = 'ghcr.io/acme-shop/catalog:v5.2.0-e2e';
    });
    await expect.poll(() => card('deployment-controller').count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => card('deployment-controller').getByTestId('controller-lag').textContent(), { timeout: 15_000 }).toMatch(/p50 \d/);

    await card('deployment-controller').click();
    const detail = page.getByTestId('controller-detail');
    await expect.poll(() => detail.locator('h2').textContent()).toBe('deployment-controller');
    const rows = detail.locator('[data-testid="virtual-table"] .body [role="row"]');
    await expect.poll(() => rows.filter({ hasText: 'ScalingReplicaSet' }).filter({ hasText: 'Deployment/catalog' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);

    // Filters: Warnings only leaves none for this controller; the object filter narrows to catalog.
    await detail.locator('[data-testid="segment"][data-option="Warning"]').click();
    await expect.poll(() => detail.getByTestId('event-total').textContent()).toBe('0 events');
    await detail.locator('[data-testid="segment"][data-option=""]').click();
    await detail.getByPlaceholder('Object: Kind/name or uid').fill('deployment/catalog');
    await expect.poll(async () => (await rows.allTextContents()).every((text) => text.includes('Deployment/catalog'))).toBe(true);
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await detail.getByPlaceholder('Object: Kind/name or uid').fill('');

    // The kubelet: the busiest reporter, with its own reasons.
    await card('kubelet').click();
    await expect.poll(() => detail.locator('h2').textContent()).toBe('kubelet');
    await expect.poll(() => rows.filter({ hasText: 'Started' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // The last 15 minutes; the card (occurrences) catches up with the list (Events) at its next refresh.
    await page.locator('[data-testid="segment"][data-option="15m"]').click();
    const number = async (locator: ReturnType<typeof page.locator>) => Number(((await locator.textContent()) ?? '').replace(/[^\d]/g, ''));
    await expect.poll(async () => (await number(card('kubelet').getByTestId('controller-events'))) >= (await number(detail.getByTestId('event-total'))), { timeout: 10_000 }).toBe(true);
    await page.mouse.move(0, 0);
    await screenshot(page, 'controllers-dark');

    // Reconciles of the deployment controller: the rollout's, with a lag.
    await card('deployment-controller').click();
    await detail.locator('[data-testid="segment"][data-option="reconciles"]').click();
    await expect.poll(() => detail.getByTestId('reconcile-summary').textContent()).toMatch(/caught up\s*p50 \d/);
    await expect.poll(() => detail.getByTestId('reconcile-workload').filter({ hasText: 'Deployment/catalog' }).count()).toBeGreaterThan(0);
    // Who acted during the rollout: the deployment controller scaled, the ReplicaSet created a
    // Pod, the scheduler placed it, the kubelet pulled and started it.
    const steps = detail.getByTestId('action-step');
    await expect.poll(() => steps.filter({ hasText: 'ScalingReplicaSet' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    for (const reason of ['SuccessfulCreate', 'Scheduled', 'Started']) await expect.poll(() => steps.filter({ hasText: reason }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'controllers-reconciles-dark');

    // A workload opens its own screen.
    await detail.getByTestId('reconcile-workload').filter({ hasText: 'Deployment/catalog' }).first().click();
    await expect.poll(() => page.url()).toMatch(/#\/workload\?uid=/);
    await page.close();
  });
});
