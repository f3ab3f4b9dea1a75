/**
 * The Chromium that `npm ci` brings (@sparticuz/chromium), used where neither
 * KUBEDRIFT_CHROMIUM nor /usr/bin/chromium exists: it must drive the real browser shell as the
 * system's does, so a fresh machine runs `npm test` without an apt step.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findChromium } from '../../electron/cli/chromium.ts';
import { launchBrowser, screenshot, startShell, type Shell } from './harness.ts';

let dataDir: string;
let shell: Shell | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'kubedrift-e2e-bundled-'));
  shell = await startShell({ dataDir, kubeconfig: path.join(dataDir, 'no-kubeconfig') });
});

afterAll(async () => {
  await shell?.close();
  await rm(dataDir, { recursive: true, force: true });
});

it('runs the browser shell on the demo cluster in the bundled Chromium', async () => {
  const binary = await findChromium({ env: {}, exists: () => false });
  expect(binary.source).toBe('bundled');
  const browser = await launchBrowser(binary);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(shell!.url);
    await page.waitForSelector('html[data-kubedrift-ready="overview-live"]', { timeout: 45_000 });
    expect(await page.locator('text=kubedrift-demo').count()).toBeGreaterThan(0);
    await screenshot(page, 'overview-bundled-chromium');
  } finally {
    await browser.close();
  }
});
