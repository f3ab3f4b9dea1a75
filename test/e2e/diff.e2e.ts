/**
 * The Diff screen on the demo cluster: a folder applied to the cluster diffs all InSync; an edit
 * to a file (the folder is watched) turns that object OutOfSync with the right lines; an object
 * deleted from the cluster is Missing; an HPA scaling the Deployment makes `spec.replicas`
 * differ, explained as the HPA's, and one click ignores it. Before any of that, on first run,
 * one click on "Try the demo manifests" diffs the demo's own folder and shows its deliberate
 * differences. Screenshots: diff-demo-manifests, diff-dark, diff-object-side-by-side.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { findKubectl } from '../../electron/engine/diff/kubectl-bin.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';
import { applyManifests, deleteObject } from '../unit/engine/diff/apply.ts';
import { fixture } from '../unit/engine/diff/fixtures.ts';

const NS = 'storefront';
const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;

const env = useDemoShell('diff');
let manifests: string;

/** The shop fixture moved to its own namespace, plus the guestbook and a Secret. */
async function writeManifests(): Promise<void> {
  manifests = path.join(env.dir, 'manifests');
  await cp(fixture('guestbook'), path.join(manifests, 'guestbook'), { recursive: true });
  await cp(fixture('secrets'), path.join(manifests, 'secrets'), { recursive: true });
  for (const file of ['checkout.yaml', 'namespace.yaml', 'nightly-report.yml']) {
    const text = await readFile(fixture('shop', file), 'utf8');
    await writeFile(path.join(manifests, file), text.replaceAll('namespace: shop', `namespace: ${NS}`).replace('name: shop\n', `name: ${NS}\n`));
  }
}

beforeAll(writeManifests);

const count = (page: Page, status: string) => page.getByTestId(`diff-count-${status}`).locator('.value').textContent();

async function editFile(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no "${from}"`);
  await writeFile(file, text.replace(from, to));
}

describe('diff screen', () => {
  it('offers the demo its own manifests on first run: one click diffs them and shows the deliberate differences', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    await page.goto(`${env.shell.url}#/diff`);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected/);
    await expect.poll(() => page.getByTestId('diff-demo-offer').count(), { timeout: 10_000 }).toBe(1);
    await page.getByTestId('diff-try-demo').click();

    // One click: the folder is chosen and diffed. Six objects match (a Certificate among them); auth, gateway-config and the
    // orders-db Database differ; reviews is not deployed.
    await expect.poll(() => count(page, 'OutOfSync'), { timeout: 15_000 }).toBe('3');
    expect([await count(page, 'InSync'), await count(page, 'Missing'), await count(page, 'Error')]).toEqual(['6', '1', '0']);
    expect(await page.locator('.sources-summary').textContent()).toMatch(/demo-manifests$/);
    expect(await page.getByTestId('diff-demo-offer').count()).toBe(0);
    await page.locator('[data-testid="diff-row-OutOfSync"]', { hasText: 'auth' }).click();
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe('Deployment platform/auth');
    const fields = page.getByTestId('diff-field');
    await expect.poll(() => fields.allTextContents()).toEqual([
      expect.stringMatching(/spec\.replicas.*2.*→.*3/),
      expect.stringMatching(/spec\.template\.spec\.containers\[name=auth\]\.image.*ghcr\.io\/acme-shop\/auth:v4\.2\.1.*→.*v4\.3\.0/),
    ]);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await screenshot(page, 'diff-demo-manifests');

    await page.locator('[data-testid="diff-row-OutOfSync"]', { hasText: 'gateway-config' }).click();
    await expect.poll(() => fields.allTextContents()).toEqual([expect.stringMatching(/data\.rate-limit-rps.*200.*→.*500/)]);
    await page.locator('[data-testid="diff-row-OutOfSync"]', { hasText: 'orders-db' }).click();
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe('Database shop/orders-db');
    await expect.poll(() => fields.allTextContents()).toEqual([expect.stringMatching(/spec\.storage.*10Gi.*→.*20Gi/)]);
    await page.locator('[data-testid="diff-row-Missing"]', { hasText: 'reviews' }).click();
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe('Deployment shop/reviews');

    // Put back as it was for the next test: no paths, the offer again.
    await page.getByTestId('diff-edit-paths').click();
    await page.getByRole('button', { name: /^Stop diffing .*demo-manifests/ }).click();
    await expect.poll(() => page.getByTestId('diff-demo-offer').count()).toBe(1);
    await page.close();
  });

  it('diffs an applied folder clean, then shows an edit, a deletion and an HPA-scaled Deployment', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/diff`);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected/);
    const demo = env.demo;
    const config = demo.kubeconfigObject();
    await applyManifests(config, [manifests]);

    // The browser shell has no native picker: no button, and the hint says to type or paste the path.
    await expect.poll(() => page.getByTestId('diff-path-hint').textContent()).toMatch(/^\s*Type or paste the path: the browser shell cannot open a native folder picker\./);
    expect(await page.getByTestId('diff-choose-folder').count()).toBe(0);

    // Choose the folder: the engine checks it as it is typed.
    await page.getByTestId('diff-path-input').fill(path.join(env.dir, 'nope'));
    await expect.poll(() => page.getByTestId('diff-path-feedback').textContent()).toMatch(/nope: No such file or folder\./);
    await page.getByTestId('diff-path-input').fill(manifests);
    await expect.poll(() => page.getByTestId('diff-path-feedback').textContent()).toMatch(/Folder with 6 manifest files\./);
    await page.getByTestId('diff-path-add').click();
    await expect.poll(() => page.getByTestId('diff-run').getAttribute('title')).toMatch(/\(Ctrl\+Shift\+D\)$/);

    // Applied from these very files: everything InSync.
    await page.getByTestId('diff-run').click();
    await expect.poll(() => count(page, 'InSync'), { timeout: 15_000 }).toBe('9');
    for (const status of ['OutOfSync', 'Missing', 'Error']) expect(await count(page, status)).toBe('0');

    // An edited file: the watched folder re-runs the diff on its own.
    await editFile(path.join(manifests, 'checkout.yaml'), 'checkout:v3.4.0', 'checkout:v3.5.0');
    await expect.poll(() => count(page, 'OutOfSync'), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe(`Deployment ${NS}/checkout`);
    const side = page.getByTestId('diff-side-by-side');
    await expect.poll(() => side.locator('[data-side="del"].cell').allTextContents()).toEqual(['        image: ghcr.io/acme-shop/checkout:v3.4.0']);
    expect(await side.locator('[data-side="add"].cell').allTextContents()).toEqual(['        image: ghcr.io/acme-shop/checkout:v3.5.0']);
    expect(await page.getByTestId('diff-field').first().textContent()).toMatch(/spec\.template\.spec\.containers\[name=checkout\]\.image.*ghcr\.io\/acme-shop\/checkout:v3\.4\.0.*→.*v3\.5\.0.*kubectl/);
    await page.getByTestId('diff-mode').locator('[data-option="unified"]').click();
    const changed = page.getByTestId('diff-unified').locator('[data-kind="del"], [data-kind="add"]');
    await expect.poll(() => changed.allTextContents()).toEqual([expect.stringMatching(/^\d+-\s+image: ghcr\.io\/acme-shop\/checkout:v3\.4\.0$/), expect.stringMatching(/^\d+\+\s+image: ghcr\.io\/acme-shop\/checkout:v3\.5\.0$/)]);
    await page.getByTestId('diff-mode').locator('[data-option="split"]').click();
    await page.mouse.move(0, 0);
    // Past the segmented control's 120 ms transition.
    await page.waitForTimeout(300);
    await screenshot(page, 'diff-dark');

    // The file put back, an object deleted from the cluster: Missing (run with the shortcut).
    await editFile(path.join(manifests, 'checkout.yaml'), 'checkout:v3.5.0', 'checkout:v3.4.0');
    await expect.poll(() => count(page, 'OutOfSync'), { timeout: 15_000 }).toBe('0');
    await deleteObject(config, `/api/v1/namespaces/${NS}/configmaps/checkout-config`);
    await page.keyboard.press('Control+Shift+D');
    await expect.poll(() => count(page, 'Missing'), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe(`ConfigMap ${NS}/checkout-config`);
    await applyManifests(config, [path.join(manifests, 'checkout.yaml')]);

    // The HPA scales checkout out (re-created, so it syncs at once): replicas differ, and the HPA owns them.
    demo.scenario.hpa?.setLoad(NS, 'Deployment', 'checkout', 160);
    await deleteObject(config, `/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/checkout`);
    await applyManifests(config, [path.join(manifests, 'checkout.yaml')]);
    const replicas = () => (demo.store.find(DEPLOYMENTS, NS, 'checkout')?.['spec'] as { replicas?: number } | undefined)?.replicas ?? 0;
    await expect.poll(replicas, { timeout: 20_000 }).toBeGreaterThan(2);
    await page.getByTestId('diff-run').click();
    await expect.poll(() => count(page, 'OutOfSync'), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => page.getByTestId('diff-object-title').textContent()).toBe(`Deployment ${NS}/checkout`);
    const field = page.getByTestId('diff-field').filter({ hasText: 'spec.replicas' });
    await expect.poll(() => field.getByTestId('diff-field-owner').textContent()).toMatch(/^HPA\s*The HorizontalPodAutoscaler "checkout" owns replicas: it scales this Deployment between 2 and 6 replicas/);
    await page.mouse.move(0, 0);
    await page.waitForTimeout(300);
    await screenshot(page, 'diff-object-side-by-side');

    // One click ignores it; the rule exports as Argo CD YAML.
    await field.getByTestId('diff-ignore-field').click();
    await expect.poll(() => count(page, 'OutOfSync'), { timeout: 10_000 }).toBe('0');
    await page.getByTestId('diff-pane').locator('[data-option="ignores"]').click();
    await page.getByTestId('diff-export').click();
    await expect.poll(() => page.getByTestId('diff-export-yaml').textContent()).toMatch(/ignoreDifferences:\n {2}- group: apps\n {4}kind: Deployment\n {4}name: checkout\n {4}namespace: storefront\n {4}jsonPointers:\n {6}- \/spec\/replicas/);

    // kubectl's own verdict on the same files.
    if (await findKubectl()) {
      await page.getByTestId('diff-pane').locator('[data-option="kubectl"]').click();
      await page.getByTestId('diff-kubectl-run').click();
      await expect.poll(() => page.getByTestId('diff-kubectl-exit').textContent(), { timeout: 30_000 }).toMatch(/^exit [01]$/);
    }
    demo.scenario.hpa?.setLoad(NS, 'Deployment', 'checkout', undefined);
    await page.close();
  });
});
