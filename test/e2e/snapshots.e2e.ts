/**
 * Snapshots from the UI, end to end in the browser shell: export an HTML report (a download that
 * renders in Chromium without one network request) and two snapshot files a moment apart, open
 * both by uploading them, show one as a read-only context that works offline, and compare them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { typeByApiVersionKind } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('snapshots');

/** Runs an export from the form and saves the browser's download; returns its path. */
async function exportFromForm(page: Page, format: 'snapshot' | 'yaml' | 'html', name: string): Promise<string> {
  await page.locator(`[data-testid="export-format"] [data-option="${format}"]`).click();
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByTestId('export-submit').click();
  const file = path.join(env.dir, name);
  await (await download).saveAs(file);
  await expect.poll(() => page.getByTestId('export-outcome').textContent()).toMatch(/Downloaded/);
  return file;
}

async function upload(page: Page, file: string): Promise<void> {
  const before = await page.getByTestId('snapshot-item').count();
  await page.getByTestId('snapshot-file').setInputFiles(file);
  await expect.poll(() => page.getByTestId('snapshot-item').count(), { timeout: 20_000 }).toBe(before + 1);
}

describe('snapshots', () => {
  it('exports from the UI, opens the snapshot as an offline context, renders the report and compares two snapshots', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme: 'dark', acceptDownloads: true });
    await page.goto(env.shell.url);
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    await page.getByTestId('nav-snapshots').click();
    await expect.poll(() => page.getByTestId('snapshots').isVisible()).toBe(true);

    // Let the recorder see the demo's rollouts drift and settle, so the report has a timeline.
    await expect
      .poll(async () => {
        const now = Date.now();
        const listed = await env.shell.engine.dispatch('history:episodes', { from: now - 600_000, to: now });
        return listed.ok ? (listed.value as { episodes: unknown[] }).episodes.length : 0;
      }, { timeout: 20_000 })
      .toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await page.locator('[data-testid="export-window"] [data-option="15m"]').click();

    // The HTML report: a self-contained page that draws without any request.
    const report = await exportFromForm(page, 'html', 'report.html');
    const html = await readFile(report, 'utf8');
    expect(html).not.toMatch(/\s(src|href)\s*=/i);
    expect(html).toContain('Drifting workloads');
    const reportPage = await env.browser.newPage({ viewport: { width: 1100, height: 1400 }, colorScheme: 'light' });
    const requests: string[] = [];
    reportPage.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url());
    });
    await reportPage.goto(`file://${report}`);
    await expect.poll(() => reportPage.locator('#summary .card').count()).toBeGreaterThan(3);
    await expect.poll(() => reportPage.locator('#drift-over-time svg').count()).toBe(1);
    expect(await reportPage.locator('#workload-charts svg').count()).toBeGreaterThan(0);
    await screenshot(reportPage, 'snapshot-report');
    await reportPage.locator('#workload-charts').scrollIntoViewIfNeeded();
    await screenshot(reportPage, 'snapshot-report-charts');
    expect(requests).toEqual([]);
    await reportPage.close();

    // Two snapshot files, with a Deployment scaled in between.
    const first = await exportFromForm(page, 'snapshot', 'first.kubedrift.json.gz');
    const deployments = typeByApiVersionKind('apps/v1', 'Deployment');
    if (!deployments) throw new Error('no Deployment type');
    env.demo.store.mutate(deployments, 'shop', 'frontend', (copy) => {
      (copy as unknown as { spec: { replicas: number } }).spec.replicas = 5;
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const second = await exportFromForm(page, 'snapshot', 'second.kubedrift.json.gz');

    // A file that is not a snapshot is refused where the user looks, and nothing changes.
    await page.getByTestId('snapshot-file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a snapshot') });
    await expect.poll(() => page.getByTestId('snapshot-open-error').textContent()).toMatch(/notes\.txt is not a Kubedrift snapshot.*Nothing was changed/);
    expect(await page.getByTestId('snapshot-item').count()).toBe(0);

    await upload(page, first);
    await upload(page, second);

    // Compare: frontend went from 3 to 5 desired.
    await page.getByTestId('compare-run').click();
    await expect.poll(() => page.getByTestId('compare-workloads').textContent()).toMatch(/shop\/frontend\s*3 → 5/);
    await expect.poll(() => page.getByTestId('compare-changes').textContent()).toMatch(/spec\.replicas/);
    await page.getByTestId('snapshot-compare').scrollIntoViewIfNeeded();
    await screenshot(page, 'snapshots-compare-dark');

    // Show the first snapshot: a read-only context, offline, whose Overview is the file's.
    await page.getByTestId('snapshot-item').first().getByTestId('snapshot-show').click();
    await expect.poll(() => page.getByTestId('context-picker').textContent()).toMatch(/snapshot: kubedrift-demo @/);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 20_000 }).toMatch(/offline snapshot/);
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 20_000 }).toMatch(/^Offline snapshot · \d+ kinds/);
    await expect.poll(() => page.getByTestId('snapshot-read-only').textContent()).toMatch(/offline snapshot .*cannot be compared with or changed on a live cluster/);
    await page.evaluate('window.scrollTo(0, 0)');
    await screenshot(page, 'snapshots-dark');

    await page.getByTestId('nav-overview').click();
    await expect.poll(() => page.locator('[data-testid="virtual-table"] [role="row"]', { hasText: 'frontend' }).count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'snapshot-overview-dark');
    await page.close();
  });
});
