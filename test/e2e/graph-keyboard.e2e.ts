/**
 * The Graph of a namespace too large to draw whole (cull.ts: beyond 150 cards only those near the
 * view are in the page), walked with the keyboard in Chromium: Tab must reach every card, the
 * view following the focused one, and then leave the graph for the next control. A simulated
 * cluster of 6,000 pods in two namespaces (the bench's churn layout) gives each namespace a graph
 * of ~200 cards.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { seedLayout } from '../../electron/engine/simcluster/scenarios/seed-layout.ts';
import type { GraphResult } from '../../shared/contracts/graph.ts';
import { startSimFixture, type SimFixture } from '../bench/sim-fixture.ts';
import { borrowedCluster } from '../helpers/engine.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { launchBrowser, screenshot } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';

const NAMESPACE = 'churn-000';

let fixture: SimFixture;
let shell: LiveShell;
let browser: Browser;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await withTempDir();
  cleanup = tmp.cleanup;
  fixture = await startSimFixture(seedLayout({ pods: 6_000, nodes: 60, namespaces: 2 }));
  shell = await startLiveShell({ dataDir: path.join(tmp.dir, 'data'), kubeconfig: path.join(tmp.dir, 'no-such-kubeconfig'), demoCluster: borrowedCluster(fixture.sim) });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await fixture?.stop();
  await cleanup?.();
});

/** The graph card that has the keyboard focus (its node id), or what else has it (plain JavaScript: the test has no DOM types). */
const FOCUSED = `(() => {
  const active = document.activeElement;
  const card = active?.closest('[data-testid="graph-node"]');
  return card ? { card: card.getAttribute('data-id') ?? '' } : { other: active?.getAttribute('data-testid') ?? active?.tagName ?? null };
})()`;
const focused = (page: Page) => page.evaluate(FOCUSED) as Promise<{ card?: string; other?: string | null }>;

describe('the Graph with the keyboard', () => {
  it('Tab reaches every card of a graph too large to draw whole, the view following, then moves on', async () => {
    // The namespace's whole graph, once the engine has listed it (the same answer twice running).
    let total = 0;
    for (let previous = -1, deadline = Date.now() + 60_000; total <= 150 || total !== previous; ) {
      if (Date.now() > deadline) throw new Error(`the ${NAMESPACE} graph did not settle: ${total} cards`);
      previous = total;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const answer = (await shell.engine.dispatch('graph:get', { namespace: NAMESPACE })) as { ok: boolean; value?: GraphResult };
      total = answer.value?.nodes.length ?? 0;
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${shell.url}#/graph?namespace=${NAMESPACE}`);
    const cards = page.locator('[data-testid="graph-node"]');
    await cards.first().waitFor({ timeout: 60_000 });
    const drawnFirst = await cards.count();
    expect(drawnFirst).toBeLessThan(total);
    await cards.first().focus();
    const reached = new Set<string>();
    let after: { card?: string; other?: string | null } = {};
    for (let step = 0; step <= total; step += 1) {
      after = await focused(page);
      if (!after.card) break;
      reached.add(after.card);
      await page.keyboard.press('Tab');
    }
    await screenshot(page, 'graph-keyboard-end');
    expect(reached.size).toBe(total);
    // After the last card the focus goes on to the graph's own controls, not back into the page's start.
    expect(after.other).toMatch(/^graph-/);
    await page.close();
  });
});
