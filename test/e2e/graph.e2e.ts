/**
 * The Graph screen on the demo cluster: the shop namespace's ownership graph live (workloads,
 * ReplicaSets, pods, Services, the HPA, nodes), a node's side panel with spec vs status and its
 * Events, then a rollout the test starts (a new image on shop/catalog) seen in focus mode mid-way:
 * the new ReplicaSet beside the old one, pods of both, the Deployment progressing. "Save as PNG"
 * in dark and light gives a real picture of the whole graph (decoded by the browser).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { useDemoShell } from './demo-shell.ts';
import { ARTIFACTS, screenshot } from './harness.ts';

const DEPLOYMENTS = typeById('deployments.apps') as ResourceType;

const env = useDemoShell('graph');

const card = (page: Page, kind: string, name: string) => page.locator(`[data-testid="graph-node"][data-kind="${kind}"]`).filter({ has: page.locator('title', { hasText: new RegExp(`^${kind} shop/${name}\\n`) }) });

/** Moves the pointer off the graph and lets cards finish gliding to new places (260 ms). */
async function settle(page: Page): Promise<void> {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(700);
}

interface Decoded {
  width: number;
  height: number;
  /** Distinct colours among sampled pixels (up to 64). */
  colours: number;
  /** The top-left pixel, `#rrggbb`. */
  corner: string;
  /** Per wanted colour: whether some pixel has it (±8 per channel). */
  found: boolean[];
  /** The wanted colours as `#rrggbb`. */
  wanted: string[];
}

/** Page code (as text: the tests' types have no DOM) decoding a PNG with the browser's own decoder. */
const DECODE = `async (base64, wanted) => {
  const data = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([data], { type: 'image/png' }));
  const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
  context.drawImage(bitmap, 0, 0);
  const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  const long = (hex) => (hex.length === 4 ? '#' + [...hex.slice(1)].map((d) => d + d).join('') : hex);
  const rgb = wanted.map((hex) => [1, 3, 5].map((at) => parseInt(long(hex).slice(at, at + 2), 16)));
  const found = wanted.map(() => false);
  const colours = new Set();
  for (let i = 0; i < pixels.length; i += 4) {
    if (i % (4 * 97) === 0 && colours.size < 64) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
    rgb.forEach((c, k) => { if (!found[k] && Math.abs(pixels[i] - c[0]) <= 8 && Math.abs(pixels[i + 1] - c[1]) <= 8 && Math.abs(pixels[i + 2] - c[2]) <= 8) found[k] = true; });
  }
  const corner = '#' + [0, 1, 2].map((k) => pixels[k].toString(16).padStart(2, '0')).join('');
  return { width: bitmap.width, height: bitmap.height, colours: colours.size, corner, found, wanted: wanted.map(long) };
}`;

/**
 * Saves the graph as PNG (the browser's download, kept as test/artifacts/<name>.png) and has the
 * page decode it, looking for the theme colours `wanted` (CSS variables, `#rrggbb`).
 */
async function savePng(page: Page, name: string, wanted: string[]): Promise<Decoded & { file: string }> {
  const theme = (await page.evaluate(`${JSON.stringify(wanted)}.map((name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim())`)) as string[];
  const download = page.waitForEvent('download', { timeout: 30_000 });
  await page.getByTestId('export-png').click();
  const file = path.join(ARTIFACTS, `${name}.png`);
  await (await download).saveAs(file);
  const bytes = (await readFile(file)).toString('base64');
  const decoded = (await page.evaluate(`(${DECODE})(${JSON.stringify(bytes)}, ${JSON.stringify(theme)})`)) as Decoded;
  return { file: (await download).suggestedFilename(), ...decoded };
}

describe('graph screen', () => {
  it('draws the shop namespace live, explains a node, and follows a rollout in focus mode', { timeout: 90_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark', acceptDownloads: true });
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

    // Save as PNG: the whole graph (taller than the screen shows), in colour, in both themes.
    for (const theme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await settle(page);
      if (theme === 'light') await screenshot(page, 'graph-demo-light');
      const png = await savePng(page, theme === 'dark' ? 'graph-export' : 'graph-export-light', ['--kd-bg', '--kd-success', '--kd-surface-raised', '--kd-text']);
      expect(png.file).toMatch(/^cluster-graph-shop-\d{4}-\d\d-\d\d-\d{4}\.png$/);
      expect(png.width).toBeGreaterThan(1000);
      // Taller than the screen: the whole graph, not the part in view.
      expect(png.height).toBeGreaterThan(1800);
      expect(png.colours).toBeGreaterThan(8);
      // The theme's background, health stripes, card faces and names are in it.
      expect(png.corner).toBe(png.wanted[0]);
      expect(png.found).toEqual([true, true, true, true]);
      expect(await page.getByTestId('export-png').getAttribute('data-failed')).toBeNull();
    }
    await page.emulateMedia({ colorScheme: 'dark' });

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
    // In focus mode the file is named after the focused object.
    const focused = await savePng(page, 'graph-export-focus', ['--kd-bg', '--kd-accent']);
    expect(focused.file).toMatch(/^Deployment-shop-catalog-\d{4}-\d\d-\d\d-\d{4}\.png$/);
    expect(focused.found).toEqual([true, true]);

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
