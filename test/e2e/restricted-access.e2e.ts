/**
 * The demo's restricted context, kubedrift-demo-dev, in the browser shell: the user "dev" may
 * view shop and payments and list namespaces, and Kubedrift works that out by itself. The
 * Overview shows exactly the workloads of shop and payments, the status bar and the banner say
 * what is visible and what is hidden, the Nodes screen says Nodes are hidden, and the Cluster
 * screen's "Accessible namespaces" editor lists where each namespace came from and takes a
 * namespace of the user's own (one that does not exist gets its own message); Diagnostics lists
 * the access reviews per namespace. Then the three views (simulator, engine, renderer) agree once
 * the simulator is filtered by what dev may read (its own RBAC decides), a RoleBinding granted
 * while the app runs brings `platform` in on "Check again", and its revoke takes it out with a
 * notice quoting the server's 403 while the history recorded for platform's workloads stays (and
 * does not call them deleted).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startDemoWithDeveloper } from '../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { Authorizer } from '../../electron/engine/simcluster/rbac/authorizer.ts';
import { AUTHENTICATED_GROUP, RBAC_GROUP } from '../../electron/engine/simcluster/rbac/types.ts';
import type { SeriesResult } from '../../shared/contracts/history.ts';
import { DEMO_DEV_CONTEXT } from '../../shared/model.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { expectConsistent, type VisibleFilter } from './consistency.ts';
import { launchBrowser, screenshot } from './harness.ts';
import { startLiveShell, type LiveShell } from './live-shell.ts';

/** The workload kinds whose Overview rows link to their history (CronJobs have no link). */
const WORKLOADS: ReadonlyArray<[string, string]> = [['apps', 'deployments'], ['apps', 'statefulsets'], ['apps', 'daemonsets'], ['batch', 'jobs']];

let shell: LiveShell;
let browser: Browser;
/** One page for the whole file: a second page costs a renderer start. */
let page: Page;
let demo: SimCluster | undefined;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = await withTempDir('kubedrift-e2e-restricted-'));
  shell = await startLiveShell({ dataDir: path.join(dir, 'data'), kubeconfig: path.join(dir, 'no-such-kubeconfig'), demoCluster: async () => (demo = await startDemoWithDeveloper()) });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1400, height: 1400 }, colorScheme: 'light' });
  const selected = await shell.engine.dispatch('contexts:select', { name: DEMO_DEV_CONTEXT });
  expect(selected.ok).toBe(true);
});
afterAll(async () => {
  await browser?.close();
  await shell?.close();
  await cleanup?.();
});

/** Names of the demo's workloads (as the Overview lists them) in these namespaces. */
function workloadsIn(namespaces: readonly string[] | null): string[] {
  if (!demo) throw new Error('the demo cluster has not started');
  const cluster = demo;
  const names = WORKLOADS.flatMap(([group, plural]) => {
    const type = cluster.store.types.byGVR(group, 'v1', plural);
    return type ? cluster.store.all(type) : [];
  })
    .filter((object) => namespaces === null || namespaces.includes(object.metadata.namespace ?? ''))
    .map((object) => object.metadata.name);
  return [...new Set(names)].sort();
}

/** The workload names the Overview lists, each once, sorted. */
async function shown(): Promise<string[]> {
  return [...new Set(await page.locator('[data-testid="virtual-table"] [data-testid="workload-link"]').allTextContents())].map((t) => t.trim()).sort();
}

function cluster(): SimCluster {
  if (!demo) throw new Error('the demo cluster has not started');
  return demo;
}

/** What dev may read, as the simulator's own RBAC decides it: list and watch of the object's kind in its namespace (or cluster-wide). */
function devMayRead(): VisibleFilter {
  const authorizer = new Authorizer(cluster().store);
  const user = { name: 'dev', groups: [AUTHENTICATED_GROUP] };
  return (type, object) =>
    ['list', 'watch'].every(
      (verb) =>
        authorizer.authorize({ user, verb, resourceRequest: true, path: '', apiGroup: type.group, apiVersion: type.version, resource: type.plural, subresource: '', namespace: object.metadata.namespace ?? '', name: '' }).allowed,
    );
}

/** The simulator's RBAC type of `plural` (rolebindings, ...). */
function rbacType(plural: string) {
  const type = cluster().store.types.byGVR(RBAC_GROUP, 'v1', plural);
  if (!type) throw new Error(`the simulator does not serve ${plural}.${RBAC_GROUP}`);
  return type;
}

describe('the restricted demo context', () => {
  it('shows only what dev may read, says what is hidden, and takes a namespace of the user’s own on the Cluster screen', async () => {
    await page.goto(`${shell.url}#/overview`);

    // The status bar and the banner: found by itself, no namespace added by hand.
    await expect.poll(() => page.getByTestId('cluster-access').textContent(), { timeout: 30_000 }).toMatch(/^Namespaces payments, shop · Nodes, .* hidden by your permissions$/);
    expect(await page.getByTestId('access-text').textContent()).toMatch(/^Namespaces payments, shop · Nodes/);

    // The Overview: exactly the workloads of shop and payments, none of another namespace.
    const expected = workloadsIn(['shop', 'payments']);
    expect(expected.length).toBeGreaterThan(0);
    expect(workloadsIn(null).length).toBeGreaterThan(expected.length);
    await expect.poll(shown, { timeout: 30_000 }).toEqual(expected);
    await screenshot(page, 'restricted-overview-light');

    // Nodes: hidden by the permissions, not an empty cluster.
    await page.goto(`${shell.url}#/nodes`);
    await expect.poll(() => page.getByText('Nodes are hidden by your permissions').first().isVisible(), { timeout: 15_000 }).toBe(true);

    // The Cluster screen's editor: where each namespace came from; a namespace of the user's own.
    await page.goto(`${shell.url}#/cluster`);
    const card = page.getByTestId('cluster-namespaces');
    const row = (name: string) => card.locator(`[data-testid="namespace-row"][data-namespace="${name}"]`);
    await expect.poll(() => row('shop').getByTestId('namespace-sources').textContent(), { timeout: 15_000 }).toBe('namespace list, context namespace');
    expect(await row('payments').getAttribute('data-state')).toBe('watched');
    await card.getByTestId('namespace-input').fill('Team_A');
    await card.getByTestId('namespace-add').click();
    await expect.poll(() => card.getByTestId('namespace-problem').textContent()).toContain('a namespace name is lower-case letters');
    await card.getByTestId('namespace-input').fill('team-a');
    await card.getByTestId('namespace-add').click();
    await expect.poll(() => row('team-a').getAttribute('data-state'), { timeout: 15_000 }).toBe('not-found');
    expect(await row('team-a').getByTestId('namespace-sources').textContent()).toBe('added by you');
    await card.scrollIntoViewIfNeeded();
    await page.mouse.move(0, 0);
    await screenshot(page, 'restricted-cluster-namespaces-light');
    // The Overview is unchanged by a namespace that does not exist.
    expect(await page.getByTestId('cluster-access').textContent()).toMatch(/^Namespaces payments, shop · /);

    // Diagnostics: the reviews behind it, per namespace.
    await page.goto(`${shell.url}#/diagnostics`);
    const reviews = page.getByTestId('diagnostics-access');
    await expect.poll(() => reviews.locator('[data-namespace="shop"] [data-testid="diagnostics-access-rules"]').textContent(), { timeout: 15_000 }).toMatch(/^SelfSubjectRulesReview: \d+ kinds to confirm/);
    // Every kind asked "list" and "watch" is named once, after both verbs.
    const allowed = (await reviews.locator('[data-namespace="shop"] [data-testid="diagnostics-access-allowed"]').textContent()) ?? '';
    expect(allowed).toMatch(/^SelfSubjectAccessReview allowed: list and watch [^;]*\bpods\b/);
    expect(allowed.match(/\bpods\b/g)).toHaveLength(1);
    expect(await reviews.locator('[data-namespace="*"]').textContent()).toContain('SelfSubjectReview: yes — User "dev"');
    await reviews.scrollIntoViewIfNeeded();
    await screenshot(page, 'restricted-diagnostics-light');
  });

  it('agrees with the simulator filtered by dev’s rights; a RoleBinding granted shows platform on "Check again", its revoke hides it with a notice and keeps its history', async () => {
    const start = Date.now();
    await page.goto(`${shell.url}#/overview`);
    // Consistency against what dev may read: shop's and payments' objects and the namespaces; no platform, no nodes.
    const { objects } = await expectConsistent({ cluster: cluster(), engine: shell.engine, page, visible: devMayRead() });
    expect(objects).toBeGreaterThan(0);

    // Granted while the app runs: platform appears on "Check again".
    const binding = { apiVersion: `${RBAC_GROUP}/v1`, kind: 'RoleBinding', metadata: { name: 'dev-view', namespace: 'platform' }, roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'view' }, subjects: [{ apiGroup: RBAC_GROUP, kind: 'User', name: 'dev' }] };
    cluster().store.create(rbacType('rolebindings'), binding);
    const platform = workloadsIn(['platform']);
    expect(platform.length).toBeGreaterThan(0);
    await page.getByTestId('access-recheck').click();
    await expect.poll(shown, { timeout: 30_000, interval: 200 }).toEqual(workloadsIn(['shop', 'payments', 'platform']));
    // The namespace's lists start on its rules review; the status text follows the check's end.
    await expect.poll(() => page.getByTestId('access-text').textContent(), { timeout: 15_000, interval: 200 }).toMatch(/^Namespaces payments, platform, shop · /);
    await expectConsistent({ cluster: cluster(), engine: shell.engine, page, visible: devMayRead() });

    // History is recorded for a platform workload while it is visible.
    const deployments = cluster().store.types.byGVR('apps', 'v1', 'deployments');
    const recorded = deployments ? cluster().store.all(deployments, 'platform')[0] : undefined;
    if (!recorded) throw new Error('the demo has no Deployment in platform');
    const series = async () => {
      const answer = await shell.engine.dispatch('history:series', { uid: recorded.metadata.uid, from: start - 60_000, to: Date.now() + 60_000 });
      if (!answer.ok) throw new Error(answer.error.message);
      return answer.value as SeriesResult;
    };
    await expect.poll(async () => (await series()).rawSamples, { timeout: 20_000, interval: 250 }).toBeGreaterThan(0);
    const before = await series();

    // Revoked: platform disappears, with a notice quoting the server.
    cluster().store.delete(rbacType('rolebindings'), 'platform', 'dev-view');
    await page.getByTestId('access-recheck').click();
    const notice = page.locator('[data-testid="access-notice"][data-namespace="platform"]');
    await expect
      .poll(() => notice.textContent(), { timeout: 15_000, interval: 200 })
      .toContain('You can no longer read platform: pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"');
    await expect.poll(shown, { timeout: 15_000, interval: 200 }).toEqual(workloadsIn(['shop', 'payments']));
    expect(await page.getByTestId('access-text').textContent()).toMatch(/^Namespaces payments, shop · /);
    await page.mouse.move(0, 0);
    await screenshot(page, 'restricted-revoked-notice-light');
    await expectConsistent({ cluster: cluster(), engine: shell.engine, page, visible: devMayRead() });

    // The history recorded so far is kept: the same samples and episodes still answer. The
    // workload left the view, it was not deleted: its last sample is its last known state, not
    // a deletion's tombstone (all fields null, which would end its lines).
    await expect.poll(async () => (await series()).rawSamples, { timeout: 20_000, interval: 250 }).toBeGreaterThan(before.rawSamples);
    const after = await series();
    expect(after.series.find((s) => s.name === 'desired')?.points.at(-1)?.[1]).toEqual(expect.any(Number));
    expect(after.episodes.map((e) => e.id)).toEqual(expect.arrayContaining(before.episodes.map((e) => e.id)));
    expect(after.series.find((s) => s.name === 'desired')?.points.length ?? 0).toBeGreaterThan(0);
  });
});
