import { stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, screenshot, startShell, type Shell } from './harness.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { writeKubeconfig } from '../helpers/kubeconfig.ts';

let browser: Browser;
let shell: Shell;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await withTempDir('kubedrift-e2e-');
  cleanup = tmp.cleanup;
  const kubeconfig = await writeKubeconfig(
    tmp.dir,
    'config',
    [
      { name: 'prod-eu', server: 'https://127.0.0.1:1', namespace: 'payments' },
      { name: 'staging', server: 'https://127.0.0.1:2' },
    ],
    'prod-eu',
  );
  shell = await startShell({ dataDir: path.join(tmp.dir, 'data'), kubeconfig });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await cleanup?.();
});

describe('app frame', () => {
  it('loads the frame with sidebar, status bar and the kubeconfig contexts in the picker', async () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
      await page.goto(shell.url);
      await page.getByTestId('sidebar').waitFor();
      await page.getByTestId('status-bar').waitFor();
      await expect.poll(() => page.getByTestId('connection-state').textContent()).toMatch(/Cannot reach https:\/\/127\.0\.0\.1:1/);
      await expect.poll(() => page.locator('html').getAttribute('data-theme')).toBe(colorScheme);
      await screenshot(page, `frame-overview-${colorScheme}`);

      await page.getByTestId('context-picker').click();
      const options = page.getByTestId('context-option');
      await expect.poll(() => options.evaluateAll((els) => els.map((el) => el.getAttribute('data-context')))).toEqual([
        'prod-eu',
        'staging',
        'kubedrift-demo',
        'kubedrift-demo-dev',
      ]);
      await screenshot(page, `frame-context-picker-${colorScheme}`);
      expect(errors).toEqual([]);
      await page.close();
    }
  });

  it('switches context from the picker and remembers it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(shell.url);
    await page.getByTestId('context-picker').click();
    await page.locator('[data-testid="context-option"][data-context="staging"]').click();
    await expect.poll(() => page.getByTestId('connection-state').textContent()).toMatch(/127\.0\.0\.1:2/);
    await page.reload();
    await expect.poll(() => page.getByTestId('context-picker').textContent()).toMatch(/staging/);
    await page.close();
  });

  it('shows a refusal page, not the app, for a wrong or missing token', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const wrong = shell.url.replace(/token=.*/, 'token=not-the-token');
    const response = await page.goto(wrong);
    expect(response?.status()).toBe(403);
    await expect(page.locator('[data-refusal]')).toBeDefined();
    expect(await page.locator('h1').textContent()).toBe('This link is not valid');
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    const file = await screenshot(page, 'refusal-wrong-token');
    expect((await stat(file)).size).toBeGreaterThan(1000);
    const missing = await page.goto(shell.url.replace(/\?token=.*/, ''));
    expect(missing?.status()).toBe(403);
    await page.close();
  });
});
