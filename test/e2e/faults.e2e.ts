/**
 * Fault tests: while pods churn, each fault of the simulated API server is injected and cleared;
 * afterwards the simulator, the engine cache and the renderer store agree (consistency.ts), and
 * the status bar showed the reconnect while the fault was active. The status bar is read from a
 * recorder inside the page (status-recorder.ts), so short reconnects are seen too; what each
 * fault must have done inside the engine is asserted on the `cluster:health` history recorded
 * from the hub (a relist shows as `syncing`, a silent watch as the watchdog's message).
 */
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WATCHED_KINDS, type KindKey } from '../../shared/cluster.ts';
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import { startChurn } from '../../electron/engine/simcluster/scenarios/churn.ts';
import { expectConsistent, rendererStatus } from './consistency.ts';
import { launchBrowser, screenshot } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';
import { startPodChurn } from './pod-churn.ts';
import { cutAndCompact, failingGets, getFromSim, writeSimKubeconfig } from './sim-faults.ts';
import { recordStatusBar, statusBarHealth, statusBarTexts, statusBarTextsSince } from './status-recorder.ts';
import { withTempDir } from '../helpers/tmp.ts';

/** Store writes per second of the test's own churn (the simulated kubelet adds its own). */
const CHURN_PER_SECOND = 100;
/** Bookmarks keep idle watches talking well inside the shortened watchdog. */
const BOOKMARK_INTERVAL_MS = 500;
/**
 * The engine's informer timing, shortened: the watchdog from 90 s so a stalled watch is noticed
 * in the test, the backoff cap from 10 s because the faults follow each other within seconds,
 * far sooner than a connection counts as healthy again (10 s), so the backoff would keep growing.
 */
const INFORMERS = { watchdogMs: 2_000, backoff: { initialMs: 200, maxMs: 1_000 } };
/** Longer than the backoff cap, so waiting for it can be told from backing off. */
const RETRY_AFTER_S = 2;
/** Churn before a fault and while it lasts. */
const CHURN_LEAD_MS = 400;
const FAULT_MS = 1_500;
const CHURN_NAMESPACE = 'churn-000';

let browser: Browser;
let cluster: SimCluster;
let shell: LiveShell;
let page: Page;
let cleanup: () => Promise<void>;
const engineLog: string[] = [];

beforeAll(async () => {
  const tmp = await withTempDir('kubedrift-e2e-faults-');
  cleanup = tmp.cleanup;
  cluster = await startSimCluster({ scenario: 'minimal', bookmarkIntervalMs: BOOKMARK_INTERVAL_MS });
  // 200 running pods to modify, beside the scenario's own; the churn adds and removes more.
  startChurn({ store: cluster.store, namespaces: 1, deploymentsPerNamespace: 4, podsPerDeployment: 50, eventsPerSecond: 0 }).stop();
  shell = await startLiveShell({
    dataDir: path.join(tmp.dir, 'data'),
    kubeconfig: path.join(tmp.dir, 'no-such-kubeconfig'),
    demoCluster: () => Promise.resolve(cluster),
    informers: INFORMERS,
    log: (message) => engineLog.push(`${new Date().toISOString()} ${message}`),
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await recordStatusBar(page);
  await page.goto(shell.url);
});

afterAll(async () => {
  await browser?.close();
  // The engine stops the demo cluster it was given.
  await shell?.close();
  await cleanup?.();
});

function dumpLogOnFailure(): void {
  const from = engineLog.length;
  onTestFailed(() => console.error(`engine log during the test:\n${engineLog.slice(from).slice(-60).join('\n')}`));
}

interface FaultRun {
  /** Health history position taken just before the fault. */
  mark: number;
  /** Status bar texts shown while the fault was active. */
  shown: string[];
  /** The consistency check after recovery. */
  consistent: { objects: number; ms: number };
}

/**
 * Churns, injects the fault, waits until the status bar shows the reconnect (while the fault is
 * still active), keeps it `activeMs` longer (taking the screenshot once the bar `shows` the
 * fault's message, if given), clears it, stops the churn and checks consistency.
 */
async function underFault(name: string, fault: { inject(): void | Promise<void>; activeMs?: number; shows?: RegExp }): Promise<FaultRun> {
  dumpLogOnFailure();
  const churn = startPodChurn({ store: cluster.store, namespace: CHURN_NAMESPACE, changesPerSecond: CHURN_PER_SECOND, node: 'node-1' });
  try {
    await sleep(CHURN_LEAD_MS);
    const textMark = (await statusBarTexts(page)).length;
    const mark = shell.health.mark();
    await fault.inject();
    churn.burst();
    await expect
      .poll(() => statusBarTextsSince(page, textMark), { timeout: 10_000, interval: 50 })
      .toContainEqual(expect.stringMatching(/^Reconnecting /));
    const activeUntil = performance.now() + (fault.activeMs ?? FAULT_MS);
    // The screenshot shows the fault's own message when it has one (a sustained fault is first
    // seen as the cut that starts it), or what the bar says at the end of the fault.
    while (fault.shows && performance.now() < activeUntil && !fault.shows.test((await statusBarTextsSince(page, textMark)).at(-1) ?? '')) await sleep(50);
    await screenshot(page, `fault-${name}`);
    await sleep(Math.max(0, activeUntil - performance.now()));
    const shown = await statusBarTextsSince(page, textMark);
    cluster.server.faults.clear();
    churn.stop();
    expect(churn.writes).toBeGreaterThan(CHURN_PER_SECOND / 10);
    const consistent = await expectConsistent({ cluster, engine: shell.engine, page, timeoutMs: 20_000 });
    expect(consistent.objects).toBeGreaterThan(200);
    await expect.poll(() => statusBarHealth(page), { timeout: 10_000 }).toMatch(/^Live · /);
    return { mark, shown, consistent };
  } finally {
    churn.stop();
    cluster.server.faults.clear();
  }
}

/** The kinds that went through `state` after `mark`, per the engine's health history. */
function kindsIn(mark: number, state: string): Set<KindKey> {
  return new Set(shell.health.kindsSince(mark, (kind) => kind.state === state).map((kind) => kind.kind));
}

describe('faults while pods churn', () => {
  it('starts live and consistent', async () => {
    await expect.poll(() => statusBarHealth(page), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    expect((await expectConsistent({ cluster, engine: shell.engine, page })).objects).toBeGreaterThan(200);
  });

  it('recovers from every watch being cut', async () => {
    const run = await underFault('cut', { inject: () => void expect(cluster.server.faults.cutWatches()).toBeGreaterThan(0) });
    expect(kindsIn(run.mark, 'reconnecting')).toContain('pods');
  });

  it('restarts stalled watches after the watchdog, and stays consistent once they resume', async () => {
    const run = await underFault('stall', { inject: () => void expect(cluster.server.faults.stallWatches()).toBeGreaterThan(0), activeMs: 500 });
    const messages = shell.health.kindsSince(run.mark, (kind) => kind.kind === 'pods' && kind.state === 'reconnecting').map((kind) => kind.message);
    expect(messages).toContainEqual(expect.stringMatching(/^No data from .* for \d+ s; reconnecting\.$/));
  });

  it('reconnects after the API server restarts', async () => {
    const run = await underFault('restart', { inject: () => cluster.server.restart() });
    expect(kindsIn(run.mark, 'reconnecting')).toContain('pods');
  });

  it('relists after compaction answers the re-watch with 410 Gone, in-stream and as an HTTP status', async () => {
    const inStream = await underFault('compact-410', { inject: () => cutAndCompact(cluster, CHURN_NAMESPACE) });
    // Every watched kind relists: the built-in ones and the kinds discovery added (ConfigMaps, CRDs, ...).
    const relisted = kindsIn(inStream.mark, 'syncing');
    for (const kind of WATCHED_KINDS) expect(relisted).toContain(kind);
    const http = await underFault('compact-410-http', {
      inject: () => {
        cluster.server.faults.watch410Mode('http');
        cutAndCompact(cluster, CHURN_NAMESPACE);
      },
    });
    expect(kindsIn(http.mark, 'syncing')).toContain('pods');
  });

  it('retries through 500s on watches, then on the relist', async () => {
    const failedWatches: string[] = [];
    const watches = await underFault('500-watch', {
      inject: () => {
        cluster.server.faults.failRequests({ status: 500, match: failingGets(failedWatches) });
        expect(cluster.server.faults.cutWatches()).toBeGreaterThan(0);
      },
      // Long enough for two retries at the backoff cap.
      activeMs: 2 * INFORMERS.backoff.maxMs + 500,
      shows: /answered 500 InternalError/,
    });
    expect(watches.shown).toContainEqual(expect.stringMatching(/answered 500 InternalError for [\w.]+: .*injected fault$/));
    expect(failedWatches.filter((p) => p === '/api/v1/pods').length).toBeGreaterThanOrEqual(2);

    // The re-watch after a cut and a compaction is let through (410 Gone); every list after it fails.
    const requests = new Map<string, number>();
    const failedLists: string[] = [];
    const lists = await underFault('500-list', {
      inject: () => {
        const afterFirst = (requestPath: string): boolean => {
          const seen = requests.get(requestPath) ?? 0;
          requests.set(requestPath, seen + 1);
          return seen > 0;
        };
        cluster.server.faults.failRequests({ status: 500, match: failingGets(failedLists, afterFirst) });
        cutAndCompact(cluster, CHURN_NAMESPACE);
      },
      activeMs: 2 * INFORMERS.backoff.maxMs + 500,
      shows: /answered 500 InternalError/,
    });
    expect(failedLists.filter((p) => p === '/api/v1/pods').length).toBeGreaterThanOrEqual(2);
    expect(kindsIn(lists.mark, 'syncing')).toContain('pods');
    expect(lists.shown).toContainEqual(expect.stringMatching(/answered 500 InternalError/));
  });

  it('waits as long as Retry-After says on 429', async () => {
    const attempts = new Map<string, number[]>();
    const run = await underFault('429', {
      inject: () => {
        cluster.server.faults.failRequests({
          status: 429,
          retryAfterSeconds: RETRY_AFTER_S,
          match: (method, requestPath) => {
            if (method === 'GET') attempts.set(requestPath, [...(attempts.get(requestPath) ?? []), Date.now()]);
            return method === 'GET';
          },
        });
        expect(cluster.server.faults.cutWatches()).toBeGreaterThan(0);
      },
      // The first retry comes after at most one backoff cap, the second a Retry-After later.
      activeMs: INFORMERS.backoff.maxMs + RETRY_AFTER_S * 1000 + 500,
      shows: /429 Too Many Requests/,
    });
    expect(run.shown).toContainEqual(expect.stringMatching(new RegExp(`throttling requests \\(429 Too Many Requests\\); retrying in ${RETRY_AFTER_S} s`)));
    const pods = attempts.get('/api/v1/pods') ?? [];
    expect(pods.length).toBeGreaterThanOrEqual(2);
    const gaps = pods.slice(1).map((at, i) => at - (pods[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000 - 50);
  });

  it('keeps Events when a stale Events list would be answered with an empty 200', async () => {
    const events = typeById('events') as ResourceType;
    expect(cluster.store.all(events).length).toBeGreaterThan(0);
    let staleEventsList: { items?: unknown[] } = {};
    const run = await underFault('events-empty-200', {
      inject: async () => {
        cluster.server.faults.emptyListOnStaleEvents(true);
        const staleRv = cluster.store.currentRv();
        cutAndCompact(cluster, CHURN_NAMESPACE);
        staleEventsList = (await getFromSim(cluster, `/api/v1/events?resourceVersion=${staleRv}&resourceVersionMatch=Exact`)) as { items?: unknown[] };
      },
    });
    expect(kindsIn(run.mark, 'syncing')).toContain('events');
    expect(shell.engine.inspectCache().filter((stamp) => stamp.kind === 'events').length).toBe(cluster.store.all(events).length);
    // The quirk was real: a list from the engine's old resourceVersion would have been empty.
    expect(staleEventsList.items).toEqual([]);
  });
});

describe('renderer reload', () => {
  it('is consistent again after the page reloads mid-stream', async () => {
    dumpLogOnFailure();
    const churn = startPodChurn({ store: cluster.store, namespace: CHURN_NAMESPACE, changesPerSecond: CHURN_PER_SECOND, node: 'node-1' });
    try {
      await sleep(CHURN_LEAD_MS);
      await page.reload();
      // The new page subscribes and takes its snapshot while the churn goes on.
      await expect.poll(() => statusBarHealth(page), { timeout: 10_000 }).toMatch(/^Live · /);
      await sleep(CHURN_LEAD_MS);
      churn.stop();
      expect((await expectConsistent({ cluster, engine: shell.engine, page })).objects).toBeGreaterThan(200);
      await screenshot(page, 'fault-renderer-reload');
    } finally {
      churn.stop();
    }
  });
});

describe('context switch', () => {
  /** How long the first context's pod list is held back, so it is still syncing at the switch. */
  const POD_LIST_DELAY_MS = 3_000;

  it('ends up with only the second context objects when switched while the first is syncing', async () => {
    dumpLogOnFailure();
    const tmp = await withTempDir('kubedrift-e2e-switch-');
    const first = await startSimCluster({ scenario: 'minimal', bookmarkIntervalMs: BOOKMARK_INTERVAL_MS });
    const second = await startSimCluster({ scenario: 'minimal', controllers: false, bookmarkIntervalMs: BOOKMARK_INTERVAL_MS });
    // 5,000 pods, modified at a modest rate while the engine syncs them.
    const churn = startChurn({ store: second.store, namespaces: 5, deploymentsPerNamespace: 10, podsPerDeployment: 100, eventsPerSecond: CHURN_PER_SECOND });
    first.server.faults.delayRequests(POD_LIST_DELAY_MS, (method, requestPath) => method === 'GET' && requestPath === '/api/v1/pods');
    const kubeconfig = path.join(tmp.dir, 'config');
    await writeSimKubeconfig(kubeconfig, [
      { name: 'sim-first', cluster: first },
      { name: 'sim-second', cluster: second },
    ]);
    const switcher = await startLiveShell({ dataDir: path.join(tmp.dir, 'data'), kubeconfig, informers: INFORMERS });
    const switchPage = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    try {
      await switchPage.goto(switcher.url);
      // The first context is half synced: its other kinds are on screen, its pods still listing.
      await expect.poll(() => statusBarHealth(switchPage), { timeout: 10_000 }).toMatch(/^Syncing pods/);
      await expect.poll(async () => (await rendererStatus(switchPage))?.objects ?? 0, { timeout: 10_000 }).toBeGreaterThan(0);
      const switchedAt = Date.now();
      await switchPage.getByTestId('context-picker').click();
      await switchPage.locator('[data-testid="context-option"][data-context="sim-second"]').click();
      await expect.poll(() => switchPage.getByTestId('context-picker').textContent()).toMatch(/sim-second/);
      await expect.poll(() => statusBarHealth(switchPage), { timeout: 20_000 }).toMatch(/^Live · /);
      // Past the moment the first context's held-back list would have come in.
      await sleep(Math.max(0, switchedAt + POD_LIST_DELAY_MS + 500 - Date.now()));
      churn.stop();
      const consistent = await expectConsistent({ cluster: second, engine: switcher.engine, page: switchPage, timeoutMs: 30_000 });
      expect(consistent.objects).toBeGreaterThan(5_000);
      await screenshot(switchPage, 'fault-context-switch');
    } finally {
      churn.stop();
      await switchPage.close();
      await switcher.close();
      await Promise.all([first.stop(), second.stop()]);
      await tmp.cleanup();
    }
  });
});

