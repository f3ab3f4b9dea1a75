/**
 * The demo's restricted context, kubedrift-demo-dev, in the browser shell: the user "dev" may
 * view shop and payments and list namespaces, and Kubedrift works that out by itself. The
 * Overview shows exactly the workloads of shop and payments, the status bar and the banner say
 * what is visible and what is hidden, the Nodes screen says Nodes are hidden, and the Cluster
 * screen's "Accessible namespaces" editor lists where each namespace came from and takes a
 * namespace of the user's own (one that does not exist gets its own message); Diagnostics lists
 * the access reviews per namespace.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startDemoWithDeveloper } from '../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { DEMO_DEV_CONTEXT } from '../../shared/model.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { launchBrowser, screenshot } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';

/** The workload kinds whose Overview rows link to their history (CronJobs have no link). */
const WORKLOADS: ReadonlyArray<[string, string]> = [['apps', 'deployments'], ['apps', 'statefulsets'], ['apps', 'daemonsets'], ['batch', 'jobs']];

let shell: LiveShell;
let browser: Browser;
let demo: SimCluster | undefined;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = await withTempDir('kubedrift-e2e-restricted-'));
  shell = await startLiveShell({ dataDir: path.join(dir, 'data'), kubeconfig: path.join(dir, 'no-such-kubeconfig'), demoCluster: async () => (demo = await startDemoWithDeveloper()) });
  browser = await launchBrowser();
  const selected = await shell.engine.dispatch('contexts:select', { name: DEMO_DEV_CONTEXT });
  expect(selected.ok).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await cleanup?.();
});

/** Names of the demo's workloads (as the Overview lists them) in these namespaces. */
function workloadsIn(namespaces: readonly string[] | null): string[] {
  if (!demo) throw new Error('the demo cluster has not started');
  const cluster = demo;
  const names = WORKLOADS.flatMap(([group, plural]) => {
    const type = cluster.store.types.byGVR(group, 'v1', plural);
    return type ? cluster.store.all(type) : [];
  })
    .filter((object) => namespaces === null || namespaces.includes(object.metadata.namespace ?? ''))
    .map((object) => object.metadata.name);
  return [...new Set(names)].sort();
}

describe('the restricted demo context', () => {
  it('shows only what dev may read, says what is hidden, and takes a namespace of the user’s own on the Cluster screen', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1400 }, colorScheme: 'light' });
    await page.goto(`${shell.url}#/overview`);

    // The status bar and the banner: found by itself, no namespace added by hand.
    await expect.poll(() => page.getByTestId('cluster-access').textContent(), { timeout: 30_000 }).toMatch(/^Namespaces payments, shop · Nodes, .* hidden by your permissions$/);
    expect(await page.getByTestId('access-text').textContent()).toMatch(/^Namespaces payments, shop · Nodes/);

    // The Overview: exactly the workloads of shop and payments, none of another namespace.
    const expected = workloadsIn(['shop', 'payments']);
    expect(expected.length).toBeGreaterThan(0);
    expect(workloadsIn(null).length).toBeGreaterThan(expected.length);
    const shown = async () => [...new Set(await page.locator('[data-testid="virtual-table"] [data-testid="workload-link"]').allTextContents())].map((t) => t.trim()).sort();
    await expect.poll(shown, { timeout: 30_000 }).toEqual(expected);
    await screenshot(page, 'restricted-overview-light');

    // Nodes: hidden by the permissions, not an empty cluster.
    await page.goto(`${shell.url}#/nodes`);
    await expect.poll(() => page.getByText('Nodes are hidden by your permissions').first().isVisible(), { timeout: 15_000 }).toBe(true);

    // The Cluster screen's editor: where each namespace came from; a namespace of the user's own.
    await page.goto(`${shell.url}#/cluster`);
    const card = page.getByTestId('cluster-namespaces');
    const row = (name: string) => card.locator(`[data-testid="namespace-row"][data-namespace="${name}"]`);
    await expect.poll(() => row('shop').getByTestId('namespace-sources').textContent(), { timeout: 15_000 }).toBe('namespace list, context namespace');
    expect(await row('payments').getAttribute('data-state')).toBe('watched');
    await card.getByTestId('namespace-input').fill('Team_A');
    await card.getByTestId('namespace-add').click();
    await expect.poll(() => card.getByTestId('namespace-problem').textContent()).toContain('a namespace name is lower-case letters');
    await card.getByTestId('namespace-input').fill('team-a');
    await card.getByTestId('namespace-add').click();
    await expect.poll(() => row('team-a').getAttribute('data-state'), { timeout: 15_000 }).toBe('not-found');
    expect(await row('team-a').getByTestId('namespace-sources').textContent()).toBe('added by you');
    await card.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, 'restricted-cluster-namespaces-light');
    // The Overview is unchanged by a namespace that does not exist.
    expect(await page.getByTestId('cluster-access').textContent()).toMatch(/^Namespaces payments, shop · /);

    // Diagnostics: the reviews behind it, per namespace.
    await page.goto(`${shell.url}#/diagnostics`);
    const reviews = page.getByTestId('diagnostics-access');
    await expect.poll(() => reviews.locator('[data-namespace="shop"] [data-testid="diagnostics-access-rules"]').textContent(), { timeout: 15_000 }).toMatch(/^SelfSubjectRulesReview: \d+ kinds to confirm/);
    expect(await reviews.locator('[data-namespace="shop"] [data-testid="diagnostics-access-allowed"]').textContent()).toContain('list pods');
    expect(await reviews.locator('[data-namespace="*"]').textContent()).toContain('SelfSubjectReview: yes — User "dev"');
    await reviews.scrollIntoViewIfNeeded();
    await screenshot(page, 'restricted-diagnostics-light');
    await page.close();
  });
});
