/**
 * Why it drifts, on the demo cluster: the demo's payments-api gets the release with the typo in
 * its image tag (`:broken`, as the demo scenario does at 3m45s; here at once, with a 10 s progress
 * deadline so the stalled rollout drifts within the test), and the Overview's
 * Why column, its hover card and the workload screen's "Why it drifts" panel name the image and
 * quote the kubelet, with the chain down to the pods and the pods linked to the Graph.
 */
import { describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;
const BROKEN = 'ghcr.io/acme-shop/payments-api:broken';

const env = useDemoShell('causes');

describe('causes on screen', () => {
  it("shows why payments-api drifts in the Overview and on its workload screen, in the kubelet's words", async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    await page.goto(`${env.shell.url}#/overview`);
    const row = page.locator('[data-testid="virtual-table"] .body [role="row"]', { has: page.locator('[data-testid="workload-link"]', { hasText: /^payments-api$/ }) });
    await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);

    // The demo's 120 s progress deadline cut to 10 s, so the rollout stalls (and drifts) within the test.
    env.demo.store.mutate(DEPLOYMENTS, 'payments', 'payments-api', (copy) => {
      const spec = copy['spec'] as { progressDeadlineSeconds: number; template: { spec: { containers: Array<{ name: string; image: string }> } } };
      spec.progressDeadlineSeconds = 10;
      const containers = spec.template.spec.containers;
      const container = containers.find((c) => c.name === 'payments-api');
      if (container) container.image = BROKEN;
    });

    // The Why column: the image and the registry's answer the kubelet reported.
    const why = row.getByTestId('why-cell');
    await expect.poll(() => why.textContent(), { timeout: 45_000 }).toMatch(new RegExp(`can't pull ${BROKEN.replace(/[.]/g, '\\.')}: not found`));
    // Never cut off without a tooltip: every Why cell carries its whole sentence as its title.
    const clipped = await page.getByTestId('why-cell').evaluateAll((cells) => cells.map((cell) => ({ text: cell.textContent ?? '', title: cell.getAttribute('title') ?? '', cut: cell.scrollWidth > cell.clientWidth })));
    expect(clipped.length).toBeGreaterThan(0);
    for (const cell of clipped) expect(cell.title, cell.text).toBe(cell.text);

    await screenshot(page, 'causes-overview-table');
    // The hover card says it too.
    await why.hover();
    const card = page.getByTestId('popover-cause');
    await expect.poll(() => card.textContent()).toContain(BROKEN);
    await screenshot(page, 'causes-overview');
    await page.mouse.move(0, 0);

    // The workload screen: the panel, the chain Deployment → ReplicaSet, the pods with the kubelet's message.
    await row.getByTestId('workload-link').click();
    await expect.poll(() => page.url()).toMatch(/#\/workload\?uid=/);
    const panel = page.getByTestId('why-panel');
    // The controller's verdict first, then what is underneath it: the pods that cannot pull.
    await expect.poll(() => panel.getByTestId('why-sentence').allTextContents(), { timeout: 15_000 }).toEqual([
      expect.stringMatching(/^Deployment payments-api exceeded its progress deadline: /),
      expect.stringContaining(`can't pull ${BROKEN}: not found`),
    ]);
    const chain = await panel.getByTestId('why-chain').last().locator('a').allTextContents();
    expect(chain.map((text) => text.replace(/\s+/g, ' ').trim())).toEqual([expect.stringMatching(/^Deployment payments-api$/), expect.stringMatching(/^ReplicaSet payments-api-/)]);
    const evidence = panel.getByTestId('why-evidence').last().locator('li');
    await expect.poll(() => evidence.first().textContent()).toContain(`Failed to pull image "${BROKEN}"`);
    expect(await evidence.first().locator('a').getAttribute('href')).toMatch(/^#\/graph\?namespace=payments&focus=/);
    await screenshot(page, 'causes-workload');

    const workloadUid = /[#&?]uid=([^&]+)/.exec(page.url().slice(page.url().indexOf('#')))?.[1] ?? '';
    expect(workloadUid).not.toBe('');
    // A pod's link opens it in the Graph.
    await evidence.first().locator('a').click();
    await expect.poll(() => page.url()).toMatch(/#\/graph\?namespace=payments&focus=/);

    // The Graph's side panel of the Deployment says it too, the failing pods lit and the healthy ones faded.
    await page.goto(`${env.shell.url}#/graph?namespace=payments&focus=${workloadUid}`);
    const deploymentCard = page.locator(`[data-testid="graph-node"][data-id="${workloadUid}"]`);
    await expect.poll(() => deploymentCard.count(), { timeout: 15_000 }).toBe(1);
    await deploymentCard.click();
    await expect.poll(() => page.getByTestId('graph-why').textContent(), { timeout: 15_000 }).toContain(`can't pull ${BROKEN}: not found`);
    // The pointer off the cards (a hovered card lights its own lineage instead).
    await page.mouse.move(0, 0);
    await expect.poll(() => page.locator('[data-testid="graph-node"].dimmed').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('graph-matches').count()).toBe(0);
    await screenshot(page, 'causes-graph');
    await page.close();
  }, 120_000);
});
