/**
 * Operators on the Controllers screen, on the demo cluster: the database operator and the
 * cert-manager-like certificate controller have cards of their own, named as their Events
 * report them; a spec change the test makes to the orders-db Database is reconciled by the
 * database operator, whose card then shows its reconcile lag and whose reconciles list the
 * Database.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('controllers-operators');

describe('controllers screen with operators', () => {
  it('shows the operators\' Events under their own names and the database operator\'s reconcile lag of its Database', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/controllers`);
    const card = (name: string) => page.locator(`[data-testid="controller-card"][data-controller="${name}"]`);
    for (const name of ['database-operator', 'cert-manager-certificates-trigger', 'cert-manager-certificates-issuing']) await expect.poll(() => card(name).count(), { timeout: 30_000 }).toBe(1);
    // Names of one family differ only at their ends: each card shows its whole name (wrapped,
    // not cut to "cert-manager-certificate…" twice).
    for (const name of ['cert-manager-certificates-trigger', 'cert-manager-certificates-issuing']) {
      const shown = await card(name).locator('.name').evaluate((element) => ({ text: element.textContent, cut: element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight }));
      expect(shown).toEqual({ text: name, cut: false });
    }

    // A new desired state for orders-db (a third replica): the operator observes it.
    const databases = env.demo.store.types.byGVR('db.kubedrift.dev', 'v1', 'databases') as ResourceType;
    env.demo.store.mutate(databases, 'shop', 'orders-db', (copy) => {
      (copy['spec'] as { replicas: number }).replicas = 3;
    });
    // Each ask gives up after 1 s (a lag not shown yet), so the poll's own 15 s bound the wait.
    await expect.poll(() => card('database-operator').getByTestId('controller-lag').textContent({ timeout: 1_000 }).catch(() => null), { timeout: 15_000 }).toMatch(/p50 \d/);

    await card('database-operator').click();
    const detail = page.getByTestId('controller-detail');
    await expect.poll(() => detail.locator('h2').textContent()).toBe('database-operator');
    const rows = detail.locator('[data-testid="virtual-table"] .body [role="row"]');
    await expect.poll(() => rows.filter({ hasText: 'Database/orders-db' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);

    await detail.locator('[data-testid="segment"][data-option="reconciles"]').click();
    await expect.poll(() => detail.getByTestId('reconcile-summary').textContent()).toMatch(/caught up\s*p50 \d/);
    await expect.poll(() => detail.getByTestId('reconcile-workload').filter({ hasText: 'Database/orders-db' }).count()).toBeGreaterThan(0);
    // Who acted: the operator updated its StatefulSet, whose controller then made a Pod.
    const steps = detail.getByTestId('action-step');
    await expect.poll(() => steps.filter({ hasText: 'Updated' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'controllers-operator-dark');

    // A custom resource has no workload screen: it opens in the graph.
    await detail.getByTestId('reconcile-workload').filter({ hasText: 'Database/orders-db' }).first().click();
    await expect.poll(() => page.url()).toMatch(/#\/graph\?focus=/);
    await page.close();
  });
});
