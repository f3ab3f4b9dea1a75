/**
 * The drift timeline, the workload history and time travel on the demo cluster, with the
 * engine's real recorder: the demo's broken payments-api release (a `:broken` image, then the
 * rollback) is played early, its drift episode is recorded, the timeline shows it, the workload
 * chart draws exactly what `history:series` answers, and the Overview shows the cluster as it
 * was in the middle of the episode.
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Episode, EpisodeList, SeriesResult } from '../../shared/contracts/history.ts';
import type { Result } from '../../shared/result.ts';
import { demoManifestsDir } from '../../electron/engine/simcluster/scenarios/demo-manifests.ts';
import { loadScenario, type Scenario } from '../../electron/engine/simcluster/scenarios/load.ts';
import { applyManifests } from '../unit/engine/diff/apply.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

/** The demo with only its release events, once and early (after the start-up has settled): a clean catalog rollout, the broken payments-api one and its fix, and search scaled up 2 → 4. */
function shortDemo(): Scenario {
  const scenario = loadScenario('demo');
  const at: Record<string, number> = {
    'catalog v5.1.0 rolls out cleanly': 12_000,
    'a payments-api release with a typo in its image tag gets stuck': 15_000,
    'search is scaled up by hand for a marketing campaign': 20_000,
    'payments-api is rolled back to a fixed image; the stuck rollout completes': 38_000,
  };
  const timeline = scenario.timeline.flatMap((entry) => {
    const atMs = entry.note ? at[entry.note] : undefined;
    return atMs === undefined ? [] : [{ ...entry, atMs, everyMs: undefined }];
  });
  if (timeline.length !== 4) throw new Error(`the demo's release events changed: found ${timeline.map((entry) => entry.note).join(', ')}`);
  return { ...scenario, timeline };
}

const env = useDemoShell('timeline', { scenario: shortDemo });

async function engine<T>(channel: string, payload: unknown): Promise<T> {
  const result = (await env.shell.engine.dispatch(channel, payload)) as Result<T>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

/** The payments-api episode the broken image started, once the engine has recorded it (and, with `ended`, its end). */
async function brokenEpisode(options: { ended: boolean }): Promise<Episode | undefined> {
  const list = await engine<EpisodeList>('history:episodes', { from: Date.now() - 15 * 60_000, to: Date.now(), namespace: 'payments' });
  return list.episodes.find((episode) => episode.workload.name === 'payments-api' && episode.trigger?.image?.endsWith(':broken') && (!options.ended || episode.end !== null));
}

/** A shop Deployment's last episode, once recorded and over (its ReplicaSets are named <name>-<hash>: the name picks the Deployment). */
async function endedEpisode(name: string): Promise<Episode | undefined> {
  const list = await engine<EpisodeList>('history:episodes', { from: Date.now() - 15 * 60_000, to: Date.now(), namespace: 'shop' });
  return list.episodes.filter((episode) => episode.workload.name === name && episode.end !== null).at(-1);
}

async function chartSeries(page: Page, name: string): Promise<Array<{ id: string; data: unknown[] }>> {
  // The charts' test hook (renderer/components/charts/test-hook.ts).
  return page.evaluate((chart) => (globalThis as unknown as { __kubedriftCharts?: Record<string, () => Array<{ id: string; data: unknown[] }>> }).__kubedriftCharts?.[chart]?.() ?? [], name);
}


describe('drift timeline', () => {
  it('records the broken rollout, shows it on the timeline and the workload chart, and time-travels the Overview into it', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/timeline?range=15m`);
    await expect.poll(() => page.getByTestId('history-recording').textContent(), { timeout: 30_000 }).toMatch(/Recording/);

    // The simulator plays the release; the recorder closes its episode once the rollback is ready.
    await expect.poll(async () => (await brokenEpisode({ ended: true })) !== undefined, { timeout: 70_000, interval: 1_000 }).toBe(true);
    const episode = (await brokenEpisode({ ended: true })) as Episode;
    expect(env.demo.scenario).toBeDefined();

    // The timeline: a lane for payments-api with its episode bar.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const bar = page.locator(`[data-testid="lane-episode"][data-episode="${episode.id}"]`);
    await expect.poll(() => bar.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => (await chartSeries(page, 'drift-count'))[0]?.data.length ?? 0).toBeGreaterThan(1);
    await page.mouse.move(0, 0);
    await screenshot(page, 'timeline-dark');

    // An episode opens the workload at that moment, with the episode picked in the list.
    await bar.click();
    await expect.poll(() => page.getByTestId('workload-name').textContent()).toBe('payments-api');
    await expect.poll(() => page.locator(`[data-testid="episode"][data-episode="${episode.id}"]`).getAttribute('aria-current')).toBe('true');
    await expect.poll(() => page.getByTestId('episode-event').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const hash = new URLSearchParams((await page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).split('?')[1]);
    const from = Number(hash.get('from'));
    const to = Number(hash.get('to'));
    expect(hash.get('uid')).toBe(episode.workload.uid);
    expect(from).toBeLessThan(episode.start);
    await screenshot(page, 'workload-detail-dark');

    // The chart's series are exactly the engine's answer for that window.
    await sleep(2_000);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await sleep(500);
    const answer = await engine<SeriesResult>('history:series', { uid: episode.workload.uid, from, to, maxPoints: 2_000 });
    const drawn = await chartSeries(page, 'workload-series');
    for (const series of answer.series) expect(drawn.find((entry) => entry.id === series.name)?.data, series.name).toEqual(series.points);
    expect(answer.rollouts.some((rollout) => rollout.image?.endsWith(':broken'))).toBe(true);

    // Who acted during the episode: the deployment controller scaled, the ReplicaSet created pods.
    await page.getByTestId('episode-who-acted').locator('summary').click();
    const steps = page.getByTestId('episode-who-acted').getByTestId('action-step');
    await expect.poll(() => steps.allTextContents(), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/ScalingReplicaSet/)]));
    await screenshot(page, 'workload-who-acted-dark');

    // Time travel to the middle of the episode: the Overview shows payments-api drifting then.
    await page.getByTestId('nav-timeline').click();
    const track = page.getByTestId('scrubber-track');
    await expect.poll(() => track.count()).toBe(1);
    const at = Math.round((episode.start + 8_000) / 1000) * 1000;
    const box = await track.boundingBox();
    const min = Number(await track.getAttribute('aria-valuemin'));
    const max = Number(await track.getAttribute('aria-valuemax'));
    if (!box) throw new Error('the scrubber has no box');
    await page.mouse.click(box.x + ((at - min) / (max - min)) * box.width, box.y + box.height / 2);
    await page.getByTestId('travel').click();
    const banner = page.getByTestId('time-travel-banner');
    await expect.poll(() => banner.getAttribute('data-state'), { timeout: 15_000 }).toBe('ready');
    await expect.poll(() => banner.textContent()).toMatch(/Viewing \d\d:\d\d:\d\d/);
    // The Overview's payments-api row is the engine's object at that moment: mid-rollout, not Ready.
    const past = await engine<{ objects: Array<{ kind: string; metadata: { name: string }; status?: { updatedReplicas?: number; readyReplicas?: number } }> }>('history:state-at', { at, offset: 0, limit: 2_000 });
    const then = past.objects.find((object) => object.kind === 'Deployment' && object.metadata.name === 'payments-api');
    const row = page.locator('[data-testid="virtual-table"] .body [role="row"]').filter({ has: page.locator('[data-testid="workload-link"]', { hasText: /^payments-api$/ }) });
    await expect.poll(() => row.count()).toBe(1);
    const cells = async () => (await row.locator('[role="cell"]').allTextContents()).map((text) => text.trim());
    console.log(JSON.stringify(then?.status), await cells());
    await expect.poll(async () => (await cells())[0]).not.toBe('Ready');
    expect((await cells())[7]).toBe(String(then?.status?.updatedReplicas ?? 0));
    await page.mouse.move(0, 0);
    await screenshot(page, 'time-travel-overview');

    // Back to live: payments-api is Ready again.
    await page.getByTestId('back-to-live').click();
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(async () => (await cells())[0], { timeout: 15_000 }).toBe('Ready');
    await page.close();
  }, 150_000);

  it('labels a plain scale-up and a first rollout as what they are, never "Stalled", and runs the chart lines to now', async () => {
    // A first rollout: the demo's reviews service (from the demo manifests), applied now.
    await applyManifests(env.demo.kubeconfigObject(), [path.join(demoManifestsDir(), 'shop', 'reviews.yaml')]);
    await expect.poll(async () => (await endedEpisode('search')) !== undefined && (await endedEpisode('reviews')) !== undefined, { timeout: 60_000, interval: 1_000 }).toBe(true);
    const scaleUp = (await endedEpisode('search')) as Episode;
    const first = (await endedEpisode('reviews')) as Episode;
    // Nothing gave up: neither is stalled; both were rolling out (the new replicas not yet updated and ready).
    expect([...scaleUp.reasons, ...first.reasons]).not.toContain('stalled');
    expect(scaleUp.reasons).toContain('progressing');
    expect(first.reasons).toContain('progressing');

    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await page.goto(`${env.shell.url}#/timeline?range=15m`);
    for (const episode of [scaleUp, first]) {
      const bar = page.locator(`[data-testid="lane-episode"][data-episode="${episode.id}"]`);
      await expect.poll(() => bar.count(), { timeout: 20_000 }).toBe(1);
      expect(await bar.getAttribute('data-severity')).not.toBe('danger');
      expect(await bar.getAttribute('title')).not.toMatch(/stalled/i);
    }
    for (const episode of [scaleUp, first]) expect(await page.locator(`[data-testid="lane-episode"][data-episode="${episode.id}"]`).getAttribute('title')).toMatch(/rolling out/);

    // Each workload over the last 15 minutes, live: its episode's badges, and lines that reach now.
    for (const [episode, replicas] of [[scaleUp, 4], [first, 2]] as const) {
      await page.goto(`${env.shell.url}#/workload?uid=${episode.workload.uid}&range=15m`);
      const item = page.locator(`[data-testid="episode"][data-episode="${episode.id}"]`);
      await expect.poll(() => item.count(), { timeout: 15_000 }).toBe(1);
      const badges = item.getByTestId('episode-reason');
      await expect.poll(() => badges.count()).toBeGreaterThan(0);
      expect(await badges.allTextContents()).not.toContain('Stalled');
      expect(await badges.allTextContents()).toContain('Rolling out');
      expect(await item.locator('[data-reason="progressing"]').getAttribute('data-tone')).toBe('accent');
      const lastDesired = async () => (await chartSeries(page, 'workload-series')).find((series) => series.id === 'desired')?.data.at(-1) as [number, number] | undefined;
      await expect.poll(async () => (await lastDesired())?.[0] ?? 0, { timeout: 10_000 }).toBeGreaterThan(Date.now() - 10_000);
      expect((await lastDesired())?.[1]).toBe(replicas);
      if (episode === scaleUp) {
        await page.mouse.move(0, 0);
        await screenshot(page, 'workload-scale-up-rolling-out');
      }
    }
    await page.mouse.move(0, 0);
    await screenshot(page, 'workload-first-rollout-rolling-out');
    await page.close();
  }, 90_000);
});
