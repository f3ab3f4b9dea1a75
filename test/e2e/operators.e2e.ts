/**
 * The demo's operators across the screens (issue #17): their custom resources in the Overview
 * beside the workloads, with the kind filter and a Database's printer columns as the server
 * prints them; a version the database operator does not support (the change the demo's timeline
 * makes at 2 min, made here at once) stalls orders-db, which the Overview shows failed, the drift
 * timeline records as an episode of its own lane with the operator's reason, and the Graph draws
 * as Database → StatefulSet with the pods' uses edges.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('operators');
const DATABASES = 'databases.db.kubedrift.dev';

describe('operators on the demo cluster', () => {
  it('lists custom resources in the Overview, records the database stall on the timeline and draws it in the Graph', { timeout: 120_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(`${env.shell.url}#/overview`);
    const customRows = page.locator('[data-testid="custom-row"]');
    await expect.poll(() => customRows.filter({ hasText: 'orders-db' }).count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('[data-testid="custom-row"][data-kind="certificates.cert-manager.io"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);

    // One custom kind chosen: its rows only, with the CRD's printer columns from the server's Table.
    await page.getByTestId('kind-filter').selectOption(DATABASES);
    const bodyRows = page.locator('[data-testid="virtual-table"] .body [role="row"]');
    await expect.poll(() => bodyRows.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => page.locator(`[data-testid="custom-row"][data-kind="${DATABASES}"]`).count(), { timeout: 10_000 }).toBe(1);
    const headers = page.locator('[data-testid="virtual-table"] [role="columnheader"]');
    await expect.poll(async () => (await headers.allTextContents()).join('|'), { timeout: 15_000 }).toMatch(/Version/);

    // The operator is asked for a version it does not run: it stalls, as the demo's timeline makes it.
    const databases = env.demo.store.types.byGVR('db.kubedrift.dev', 'v1', 'databases') as ResourceType;
    env.demo.store.mutate(databases, 'shop', 'orders-db', (copy) => {
      (copy['spec'] as { version: string }).version = '17.0';
    });
    const row = page.locator(`[data-testid="custom-row"][data-kind="${DATABASES}"]`).filter({ hasText: 'orders-db' });
    await expect.poll(() => row.textContent(), { timeout: 30_000 }).toMatch(/Failed|Stalled/);
    await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('UnsupportedVersion');
    await page.mouse.move(0, 0);
    await screenshot(page, 'overview-operators-light');

    // The drift timeline: a lane of its own, its episode failed with the operator's reason.
    await page.goto(`${env.shell.url}#/timeline?range=15m`);
    const lane = page.locator(`[data-testid="lane"][data-kind="${DATABASES}"][data-workload="orders-db"]`);
    await expect.poll(() => lane.count(), { timeout: 30_000 }).toBe(1);
    const episode = lane.locator('[data-testid="lane-episode"]');
    await expect.poll(() => episode.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    // The episode opens as "spec not observed" (pending) and turns failed once the operator stalls.
    await expect.poll(() => episode.last().getAttribute('data-severity'), { timeout: 30_000 }).toBe('danger');
    await expect.poll(() => episode.last().getAttribute('title'), { timeout: 10_000 }).toContain('UnsupportedVersion');
    await screenshot(page, 'timeline-operators-light');

    // The Graph: the Database owns its StatefulSet; pods use the Secret it made.
    await page.goto(`${env.shell.url}#/graph?namespace=shop`);
    const database = page.locator(`[data-testid="graph-node"][data-kind-key="${DATABASES}"]`);
    await expect.poll(() => database.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.locator('[data-testid="graph-node"][data-kind-key="statefulsets.apps"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await expect.poll(() => page.locator('path[data-type="uses"]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.mouse.move(0, 0);
    await screenshot(page, 'graph-operators-light');
    await page.close();
  });
});
