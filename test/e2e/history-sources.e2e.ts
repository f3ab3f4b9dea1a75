/**
 * History sources in the browser: the real `kubedrift record --listen` records a simulated
 * cluster whose web Deployment drifts every 8 s, before the app (`kubedrift serve`) ever runs.
 * The user adds the recorder under Settings → History sources (and a second one with a stale
 * token, which fails alone, saying so); the Timeline then shows the drift the recorder saw while
 * the app was not running, outlined and "recorded by" it, and names the failing source.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectSource } from '../../electron/engine/history/sources/client.ts';
import { CLI, startSim, stop } from '../helpers/cli.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { launchBrowser, screenshot, startShell, type Shell } from './harness.ts';

const TOKEN = 'e2e-recorder-token-0123456789';
const CONTEXT = 'kubedrift-demo';
const SCENARIO = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata: { name: drifting }
spec:
  kubelet: { pullDelay: 1s, startDelay: 500ms, readinessDelay: 500ms }
  nodes: [{ name: node-1, cpu: "8", memory: 16Gi }]
  timeline:
    - { at: 3s, every: 8s, note: scale up, scale: { namespace: default, target: deployment/web, replicas: 4 } }
    - { at: 7s, every: 8s, note: scale down, scale: { namespace: default, target: deployment/web, replicas: 2 } }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default, labels: { app: web } }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: nginx, image: "nginx:1.27.2" }] }
`;

let dir: string;
let cleanup: () => Promise<void>;
let sim: Awaited<ReturnType<typeof startSim>> | undefined;
let recorder: ChildProcess | undefined;
let shell: Shell | undefined;
let browser: Browser | undefined;
let recorderUrl = '';

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 40_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-e2e-history-sources-'));
  const kubeconfig = path.join(dir, 'sim.kubeconfig');
  await writeFile(path.join(dir, 'drifting.yaml'), SCENARIO);
  sim = await startSim(['--scenario', path.join(dir, 'drifting.yaml'), '--write-kubeconfig', kubeconfig]);
  await until(() => existsSync(kubeconfig), 'the kubeconfig');
  await writeFile(path.join(dir, 'token'), `${TOKEN}\n`);
  let output = '';
  recorder = spawn(process.execPath, [CLI, 'record', '--context', CONTEXT, '--kubeconfig', kubeconfig, '--data-dir', path.join(dir, 'recorder'), '--listen', '127.0.0.1:0', '--token-file', path.join(dir, 'token')], { stdio: ['ignore', 'pipe', 'pipe'] });
  recorder.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  recorder.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /^recording kubedrift-demo since /m.test(output) && /history served on ws:\/\/127\.0\.0\.1:\d+\/ws/.test(output), `the recorder's lines:\n${output}`);
  recorderUrl = `http://127.0.0.1:${/history served on ws:\/\/127\.0\.0\.1:(\d+)\/ws/.exec(output)?.[1]}`;
  // Only the recorder is running while web drifts and settles at least once.
  const probe = await connectSource({ url: recorderUrl, token: TOKEN, context: CONTEXT });
  try {
    await until(async () => {
      const list = await probe.request('history:episodes', { from: Date.now() - 60_000, to: Date.now() });
      return list.ok && list.value.episodes.some((episode) => episode.end !== null && episode.workload.name === 'web');
    }, 'an ended episode of web at the recorder');
  } finally {
    probe.close();
  }
  shell = await startShell({ dataDir: path.join(dir, 'app'), kubeconfig, extraArgs: ['--context', CONTEXT] });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  if (recorder) await stop(recorder);
  if (sim) await stop(sim.child);
  await cleanup?.();
});

describe('history sources', () => {
  it('adds a recorder in Settings and the Timeline shows the drift it recorded before the app ran', async () => {
    if (!shell || !browser) throw new Error('the shell did not start');
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, colorScheme: 'dark' });
    await page.goto(`${shell.url}#/settings`);
    const card = page.getByTestId('settings-history-sources');
    await card.getByTestId('history-source-name').fill('rack recorder');
    await card.getByTestId('history-source-url').fill(recorderUrl);
    await card.getByTestId('history-source-token').fill(TOKEN);
    await card.getByTestId('history-source-add').click();
    const rack = card.locator('[data-testid="history-source"][data-name="rack recorder"]');
    await expect.poll(() => rack.getAttribute('data-state'), { timeout: 20_000 }).toBe('connected');
    expect(await rack.getByTestId('history-source-state').textContent()).toMatch(/^Connected \(checked .*\): records kubedrift-demo\.$/);

    await card.getByTestId('history-source-name').fill('old recorder');
    await card.getByTestId('history-source-url').fill(recorderUrl);
    await card.getByTestId('history-source-token').fill('a-token-rotated-away-000000');
    await card.getByTestId('history-source-add').click();
    const old = card.locator('[data-testid="history-source"][data-name="old recorder"]');
    await expect.poll(() => old.getAttribute('data-state'), { timeout: 20_000 }).toBe('error');
    expect(await old.getByTestId('history-source-state').textContent()).toContain('This recorder refused the token: it is wrong, or it was replaced in the recorder\'s token file (expired).');
    // The token never comes back to the page.
    expect(await page.content()).not.toContain(TOKEN);
    await card.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, 'history-sources-settings-dark');

    await page.goto(`${shell.url}#/timeline`);
    await expect.poll(() => page.getByTestId('timeline-sources').textContent(), { timeout: 20_000 }).toContain('Includes history recorded by rack recorder.');
    const recorded = page.locator('[data-testid="lane-episode"][data-recorded-by="rack recorder"]');
    await expect.poll(() => recorded.count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await recorded.first().getAttribute('title')).toMatch(/; recorded by rack recorder/);
    expect(await page.getByTestId('timeline-source-error').textContent()).toContain('History source old recorder: This recorder refused the token');
    await page.mouse.move(0, 0);
    await screenshot(page, 'history-sources-timeline-dark');
    await page.close();
  }, 120_000);
});
