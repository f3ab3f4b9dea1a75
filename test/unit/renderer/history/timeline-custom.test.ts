// @vitest-environment happy-dom
/**
 * Custom resources on the drift timeline: their lanes beside the workloads', named by their
 * Kubernetes kind and API group with the kind key as `data-kind`, their episodes' own reasons,
 * and a kind filter that lists the custom kinds by group and asks the engine for one.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { ClusterDiscovery, KindEntry } from '../../../../shared/discovery.ts';
import { ok } from '../../../../shared/result.ts';
import TimelineView from '../../../../renderer/views/timeline/TimelineView.vue';
import { changeRow } from '../../../../renderer/views/timeline/compare-rows.ts';
import { customKindGroups, kindLabelOf } from '../../../../renderer/views/timeline/kind-label.ts';
import type { Sample } from '../../../../shared/contracts/history.ts';
import type { FakeApi } from '../fake-api.ts';
import { installApi, useRendererTest } from '../setup.ts';
import { episode, episodeList, MINUTE, STATUS, T0, workloadRef } from './fixtures.ts';

const test = useRendererTest({ hash: '#/timeline?from=' + T0 + '&to=' + (T0 + 60 * MINUTE) });

const DATABASES = 'databases.db.kubedrift.dev';
const ordersDb = { kind: DATABASES, kindName: 'Database', namespace: 'shop', name: 'orders-db', uid: 'uid-orders-db' };
const web = workloadRef('web', { namespace: 'shop' });
const STALL = episode(7, ordersDb, T0 + 10 * MINUTE, T0 + 25 * MINUTE, {
  reasons: ['generation', 'stalled'],
  peakGap: 0,
  trigger: { generation: 2 },
  status: { state: 'failed', reason: 'UnsupportedVersion', message: 'postgres 17.0 is not supported by this operator (supported: 15.8, 16.4)' },
});
const EPISODES = [episode(1, web, T0 + 5 * MINUTE, T0 + 9 * MINUTE), STALL];

function kindEntry(key: string, ref: KindEntry['ref'], custom: boolean, mode: KindEntry['mode'] = 'full'): KindEntry {
  return { key, ref, versions: [ref.version], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom, mode, count: 1 };
}

const DISCOVERY: ClusterDiscovery = {
  context: 'kind-dev',
  epoch: 'e1',
  state: {
    kinds: [
      kindEntry('deployments.apps', { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }, false),
      kindEntry('certificates.cert-manager.io', { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true }, true),
      kindEntry('issuers.cert-manager.io', { group: 'cert-manager.io', version: 'v1', kind: 'Issuer', plural: 'issuers', namespaced: true }, true),
      kindEntry(DATABASES, { group: 'db.kubedrift.dev', version: 'v1', kind: 'Database', plural: 'databases', namespaced: true }, true),
      kindEntry('widgets.example.com', { group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true }, true, 'metadata'),
    ],
    unavailable: [],
    progress: null,
    refreshedAt: T0,
  },
};

async function mountTimeline(): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({
    'history:status': () => ok({ ...STATUS, since: T0 - MINUTE }),
    'history:episodes': (query) => ok(episodeList(query.kind ? EPISODES.filter((e) => e.workload.kind === query.kind) : EPISODES, { from: query.from, to: query.to }, [[T0, 0]])),
    'cluster:discovery': () => ok(DISCOVERY),
  });
  const view = test.mount(TimelineView, { attachTo: document.body });
  await flushPromises();
  return { api, view };
}

describe('custom resources on the timeline', () => {
  it('lists a custom resource\'s lane beside the workloads, named by its kind and group, with its kind key', async () => {
    const { view } = await mountTimeline();
    const lanes = view.findAll('[data-testid="lane"]');
    expect(lanes.map((lane) => [lane.attributes('data-workload'), lane.attributes('data-kind')])).toEqual(
      expect.arrayContaining([
        ['orders-db', DATABASES],
        ['web', 'deployments.apps'],
      ]),
    );
    // Each row says its kind key, for tests and tools that pick rows by kind.
    expect(view.findAll(`[data-testid="swimlane-row"][data-kind="${DATABASES}"]`).map((row) => row.attributes('data-workload'))).toEqual(['orders-db']);
    const cell = view.get(`.workload[data-kind="${DATABASES}"]`);
    expect(cell.get('.kind').text()).toBe('Database');
    expect(cell.get('.kind').attributes('title')).toBe('Database (db.kubedrift.dev)');
    expect(cell.text()).toContain('shop/orders-db');
    // The built-in lane keeps its short name.
    expect(view.get('.workload[data-kind="deployments.apps"] .kind').text()).toBe('deploy');

    const bar = view.get('[data-testid="lane-episode"][data-episode="7"]');
    expect(bar.attributes('data-severity')).toBe('danger');
    const title = bar.attributes('title') ?? '';
    expect(title).toMatch(/^Database \(db\.kubedrift\.dev\) shop\/orders-db: /);
    expect(title).toContain('failed');
    expect(title).toContain('UnsupportedVersion (postgres 17.0 is not supported');
    expect(title).not.toContain('rolling out');
  });

  it('finds a custom resource by its kind or group in the name filter', async () => {
    const { view } = await mountTimeline();
    await view.get('input[type="search"], .base-search-field input').setValue('kubedrift.dev');
    await flushPromises();
    expect(view.findAll('[data-testid="lane"]').map((lane) => lane.attributes('data-workload'))).toEqual(['orders-db']);
  });

  it('offers the watched custom kinds by API group and asks the engine for the one chosen', async () => {
    const { api, view } = await mountTimeline();
    const select = view.get('[data-testid="custom-kind-filter"]');
    expect(select.findAll('optgroup').map((group) => group.attributes('label'))).toEqual(['cert-manager.io', 'db.kubedrift.dev']);
    expect(select.findAll('option').map((option) => option.text())).toEqual(['Custom resources…', 'Certificate (cert-manager.io)', 'Issuer (cert-manager.io)', 'Database (db.kubedrift.dev)']);
    await select.setValue(DATABASES);
    await flushPromises();
    const calls = api.calls.filter((call) => call.channel === 'history:episodes').map((call) => call.payload as Record<string, unknown>);
    expect(calls.at(-1)).toMatchObject({ kind: DATABASES });
    expect(view.findAll('[data-testid="lane"]').map((lane) => lane.attributes('data-workload'))).toEqual(['orders-db']);
    expect(select.attributes('data-active')).toBeDefined();
    // Back to a built-in choice, the list shows its prompt again.
    await view.get('[data-option="all"]').trigger('click');
    await flushPromises();
    expect((select.element as HTMLSelectElement).value).toBe('');
  });
});

describe('kind labels', () => {
  it('names a custom kind by the recorded kind and its group, and keeps kinds only the history knows', () => {
    expect(kindLabelOf({ kind: 'jobs.batch' })).toMatchObject({ kind: 'Job', short: 'job', custom: false });
    // A custom Job is not a batch Job.
    expect(kindLabelOf({ kind: 'jobs.example.com', kindName: 'Job' })).toMatchObject({ kind: 'Job', group: 'example.com', short: 'Job', custom: true, title: 'Job (example.com)' });
    const groups = customKindGroups([], [{ kind: 'kustomizations.kustomize.toolkit.fluxcd.io', kindName: 'Kustomization' }, web], 'rollouts.argoproj.io');
    expect(groups).toEqual([
      { group: 'argoproj.io', kinds: [{ key: 'rollouts.argoproj.io', kind: 'rollouts' }] },
      { group: 'kustomize.toolkit.fluxcd.io', kinds: [{ key: 'kustomizations.kustomize.toolkit.fluxcd.io', kind: 'Kustomization' }] },
    ]);
  });
});

describe('a custom resource between two compared moments', () => {
  const sample = (at: number, extra: Partial<Sample>): Sample => ({
    at,
    desired: null,
    current: null,
    ready: null,
    available: null,
    updated: null,
    unavailable: null,
    generation: 1,
    observedGeneration: null,
    availableCondition: null,
    progressingCondition: null,
    progressingReason: null,
    ...extra,
  });
  const certificate = { kind: 'certificates.cert-manager.io', kindName: 'Certificate', namespace: 'shop', name: 'web-tls', uid: 'uid-web-tls' };

  it('says its state change in the status rule\'s words with the reason, not as replica counts', () => {
    const before = sample(T0, { state: 'current', availableCondition: 'True', progressingReason: 'Ready' });
    const after = sample(T0 + MINUTE, { state: 'failed', availableCondition: 'False', progressingReason: 'Failed' });
    const row = changeRow({ workload: certificate, before, after, changed: ['availableCondition', 'progressingReason', 'state'] });
    expect(row).toMatchObject({ kind: 'Certificate', summary: 'Current → failed (Failed)', tone: 'danger', ready: '—' });
    expect(row.search).toBe('certificate cert-manager.io shop/web-tls');
    const recovered = changeRow({ workload: certificate, before: after, after: before, changed: ['availableCondition', 'progressingReason', 'state'] });
    expect(recovered).toMatchObject({ summary: 'Failed → current (Ready)', tone: 'ok' });
  });
});
