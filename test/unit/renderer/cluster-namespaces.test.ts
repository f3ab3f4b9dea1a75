// @vitest-environment happy-dom
/**
 * The Cluster screen's "Accessible namespaces" editor: each checked namespace with its sources
 * and outcome, the user's own entries (added, validated with a clear message, removed, saved for
 * the selected context only), and "Check again".
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AccessSummary } from '../../../shared/access.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import type { SettingsUpdate } from '../../../shared/contracts/settings.ts';
import type { Settings } from '../../../shared/model.ts';
import { ok } from '../../../shared/result.ts';
import ClusterNamespacesCard from '../../../renderer/views/cluster/ClusterNamespacesCard.vue';
import { namespaceRows, newNamespaceProblem } from '../../../renderer/views/cluster/namespaces-editor.ts';
import { SETTINGS, type FakeApi } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const SUMMARY: AccessSummary = {
  restricted: true,
  namespaces: ['payments', 'shop'],
  hiddenKinds: [],
  checked: [
    { name: 'shop', sources: ['namespace-list', 'context'], state: 'watched', kinds: ['pods', 'services'] },
    { name: 'payments', sources: ['namespace-list'], state: 'watched', kinds: ['pods'] },
    { name: 'platform', sources: ['namespace-list'], state: 'none', kinds: [], message: 'You may not list and watch anything Kubedrift shows in "platform"' },
    { name: 'team-x', sources: ['user'], state: 'not-found', kinds: [], message: 'namespaces "team-x" not found' },
  ],
  reviews: [],
  reviewsOmitted: 0,
  noAccess: false,
  checkedAt: 1_700_000_000_000,
};
const ACCESS: ClusterAccess = { context: 'kind-dev', epoch: 'e1', summary: SUMMARY };
const OWN: Settings = { ...SETTINGS, accessibleNamespaces: { 'kind-dev': ['team-x'], other: ['elsewhere'] } };

const test = useRendererTest();

async function mount(): Promise<{ api: FakeApi; card: VueWrapper }> {
  let current = OWN;
  const api = installApi({
    'settings:get': () => ok(current),
    'settings:update': (patch: SettingsUpdate) => {
      const all = { ...current.accessibleNamespaces };
      if (patch.accessibleNamespaces) all[patch.accessibleNamespaces.context] = patch.accessibleNamespaces.namespaces;
      current = { ...current, accessibleNamespaces: all };
      return ok(current);
    },
    'cluster:access': () => ok(ACCESS),
    'cluster:access-recheck': () => ok(ACCESS),
  });
  const card = test.mount(ClusterNamespacesCard);
  await flushPromises();
  return { api, card };
}

const rowTexts = (card: VueWrapper) => card.findAll('[data-testid="namespace-row"]').map((row) => `${row.attributes('data-namespace')} ${row.attributes('data-state')} ${row.get('[data-testid="namespace-sources"]').text()}`);
const updates = (api: FakeApi) => api.calls.filter((call) => call.channel === 'settings:update').map((call) => call.payload);

describe('the accessible namespaces editor', () => {
  it('lists the visible namespaces first with where each came from, then the user’s entry with its problem; a listed namespace with nothing visible is only counted', async () => {
    const { card } = await mount();
    expect(rowTexts(card)).toEqual(['payments watched namespace list', 'shop watched namespace list, context namespace', 'team-x not-found added by you']);
    expect(card.text()).toContain('namespaces "team-x" not found');
    expect(card.text()).toContain('1 more listed namespaces show nothing you may read.');
    expect(card.findAll('[data-testid="namespace-remove"]')).toHaveLength(1);
  });

  it('refuses a bad name with a clear message and saves nothing', async () => {
    const { api, card } = await mount();
    for (const [text, message] of [
      ['Team_A', '"Team_A": a namespace name is lower-case letters, digits and "-", and starts and ends with a letter or digit'],
      ['team-x', '"team-x" is already on your list'],
      ['  ', 'Type a namespace name'],
    ] as const) {
      await card.get('[data-testid="namespace-input"]').setValue(text);
      await card.get('form').trigger('submit');
      await flushPromises();
      expect(card.get('[data-testid="namespace-problem"]').text()).toBe(message);
    }
    expect(updates(api)).toEqual([]);
  });

  it('adds and removes the user’s namespaces for the selected context only, and checks again on request', async () => {
    const { api, card } = await mount();
    await card.get('[data-testid="namespace-input"]').setValue(' billing ');
    await card.get('form').trigger('submit');
    await flushPromises();
    expect(updates(api)).toEqual([{ accessibleNamespaces: { context: 'kind-dev', namespaces: ['team-x', 'billing'] } }]);
    // Not checked yet: shown as checking until the engine's next summary covers it.
    expect(rowTexts(card)).toContain('billing pending added by you');
    expect((card.get('[data-testid="namespace-input"]').element as HTMLInputElement).value).toBe('');
    await card.get('[data-namespace="team-x"] [data-testid="namespace-remove"]').trigger('click');
    await flushPromises();
    expect(updates(api).at(-1)).toEqual({ accessibleNamespaces: { context: 'kind-dev', namespaces: ['billing'] } });
    await card.get('[data-testid="namespaces-recheck"]').trigger('click');
    await flushPromises();
    expect(api.calls.some((call) => call.channel === 'cluster:access-recheck')).toBe(true);
  });

  it('builds rows and checks names without a component', () => {
    expect(namespaceRows(null, ['a'])).toEqual([{ name: 'a', sources: ['added by you'], state: 'pending', kinds: 0, message: 'Not checked yet', own: true }]);
    expect(newNamespaceProblem('x'.repeat(64), [])).toBe(`"${'x'.repeat(64)}": a namespace name is at most 63 characters`);
    expect(newNamespaceProblem('-a', [])).toMatch(/starts and ends with a letter or digit/);
    expect(newNamespaceProblem('ok-1', [])).toBeNull();
  });
});
