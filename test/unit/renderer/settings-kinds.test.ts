// @vitest-environment happy-dom
/**
 * Settings' "Watched kinds" card (the selected context's exclusion rules) and "Status rules"
 * editor: what they show, the problems they name before anything is sent, and what they save.
 */
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { applySettingsUpdate, type SettingsUpdate } from '../../../shared/contracts/settings.ts';
import type { ClusterDiscovery, KindEntry } from '../../../shared/discovery.ts';
import { DEFAULT_KIND_EXCLUSIONS } from '../../../shared/kind-exclusions.ts';
import type { Settings } from '../../../shared/model.ts';
import { err, ok } from '../../../shared/result.ts';
import SettingsKindsCard from '../../../renderer/views/settings/SettingsKindsCard.vue';
import SettingsStatusRulesCard from '../../../renderer/views/settings/SettingsStatusRulesCard.vue';
import { SETTINGS, type FakeApi } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/settings' });

/** A settings:update handler that keeps what it was sent, as the engine does. */
function engineSettings(initial: Settings = SETTINGS): (patch: SettingsUpdate) => ReturnType<typeof ok<Settings>> {
  let current = initial;
  return (patch) => {
    current = applySettingsUpdate(current, patch);
    return ok(current);
  };
}

async function mount(component: typeof SettingsKindsCard | typeof SettingsStatusRulesCard, settings: Settings = SETTINGS): Promise<{ api: FakeApi; card: VueWrapper }> {
  const api = installApi({ 'settings:get': () => ok(settings), 'settings:update': engineSettings(settings) });
  const card = test.mount(component);
  await flushPromises();
  return { api, card };
}

const updates = (api: FakeApi) => api.calls.filter((call) => call.channel === 'settings:update').map((call) => call.payload);
const ruleTexts = (card: VueWrapper) => card.findAll('[data-testid="exclusion-rule"]').map((row) => row.findAll('.pattern').map((part) => part.text()).join(' | '));

describe('Settings: watched kinds', () => {
  it('shows the selected context\'s default rules, refuses a malformed rule with the reasons, and saves a valid one for this context', async () => {
    const { api, card } = await mount(SettingsKindsCard);
    expect(card.text()).toContain('kind-dev');
    expect(card.text()).toContain('This context uses the default rules.');
    expect(ruleTexts(card)).toEqual([
      'API groups coordination.k8s.io | kinds Lease',
      'API groups discovery.k8s.io | kinds EndpointSlice',
      'API groups core | kinds Endpoints',
    ]);

    await card.get('[data-testid="exclusion-groups"]').setValue('cert-manager.io/v1');
    await card.get('[data-testid="exclusion-add"]').trigger('submit');
    await flushPromises();
    expect(card.findAll('[data-testid="exclusion-problems"] li').map((li) => li.text())).toEqual([
      'API groups: API group patterns hold letters, digits, ".", "-" and "*" only ("cert-manager.io/v1")',
      'Kinds: list at least one kind (use "*" for every one)',
    ]);
    expect(card.get('[data-testid="exclusion-groups"]').attributes('aria-invalid')).toBe('true');
    expect(updates(api)).toEqual([]);

    await card.get('[data-testid="exclusion-groups"]').setValue('cert-manager.io');
    await card.get('[data-testid="exclusion-kinds"]').setValue('*');
    await card.get('form').trigger('submit');
    await flushPromises();
    const withCertManager = [...DEFAULT_KIND_EXCLUSIONS, { apiGroups: ['cert-manager.io'], kinds: ['*'] }];
    expect(updates(api)).toEqual([{ kindExclusions: { context: 'kind-dev', rules: withCertManager } }]);
    expect(card.find('[data-testid="exclusion-problems"]').exists()).toBe(false);
    expect(ruleTexts(card).at(-1)).toBe('API groups cert-manager.io | kinds *');
    expect(card.text()).toContain('These are this context\'s own rules.');

    // The same rule again changes nothing, so it is refused.
    await card.get('[data-testid="exclusion-groups"]').setValue('cert-manager.io');
    await card.get('[data-testid="exclusion-kinds"]').setValue('*');
    await card.get('form').trigger('submit');
    expect(card.get('[data-testid="exclusion-problems"]').text()).toBe('This rule is already in the list.');
    expect(updates(api)).toHaveLength(1);
  });

  it('removes a rule, and resets the context to the defaults', async () => {
    const own = { ...SETTINGS, kindExclusions: { 'kind-dev': [{ apiGroups: ['coordination.k8s.io'], kinds: ['Lease'] }, { apiGroups: ['*.cilium.io'], kinds: ['*'] }] } };
    const { api, card } = await mount(SettingsKindsCard, own);
    expect(ruleTexts(card)).toEqual(['API groups coordination.k8s.io | kinds Lease', 'API groups *.cilium.io | kinds *']);
    await card.findAll('[data-testid="exclusion-remove"]')[0]?.trigger('click');
    await flushPromises();
    expect(ruleTexts(card)).toEqual(['API groups *.cilium.io | kinds *']);
    await card.get('[data-testid="exclusion-reset"]').trigger('click');
    await flushPromises();
    expect(updates(api)).toEqual([
      { kindExclusions: { context: 'kind-dev', rules: [{ apiGroups: ['*.cilium.io'], kinds: ['*'] }] } },
      { kindExclusions: { context: 'kind-dev', rules: null } },
    ]);
    expect(ruleTexts(card)).toHaveLength(3);
    expect(card.find('[data-testid="exclusion-reset"]').exists()).toBe(false);
  });

  it('says why the engine refused the rules', async () => {
    installApi({ 'settings:get': () => ok(SETTINGS), 'settings:update': () => err('invalid-request', 'Invalid payload for settings:update', 'kindExclusions.rules: at most 200 exclusion rules per context') });
    const card = test.mount(SettingsKindsCard);
    await flushPromises();
    await card.get('[data-testid="exclusion-groups"]').setValue('example.com');
    await card.get('[data-testid="exclusion-kinds"]').setValue('Widget');
    await card.get('form').trigger('submit');
    await flushPromises();
    expect(card.get('[data-testid="exclusion-save-error"]').text()).toBe('The rules could not be saved: Invalid payload for settings:update (kindExclusions.rules: at most 200 exclusion rules per context)');
  });
});

function served(key: string, group: string, kind: string): KindEntry {
  const plural = key.split('.')[0] as string;
  return { key, ref: { group, version: 'v1', kind, plural, namespaced: true }, versions: ['v1'], verbs: ['list', 'watch'], listable: true, watchable: true, subresources: { status: true, scale: false }, shortNames: [], categories: [], custom: group.includes('cert-manager'), mode: 'full', count: null };
}

describe('Settings: watched kinds against what the cluster serves', () => {
  it('says how many served kinds each rule matches, naming them in a tooltip', async () => {
    const discovery: ClusterDiscovery = {
      context: 'kind-dev',
      epoch: 'e1',
      state: { kinds: [served('leases.coordination.k8s.io', 'coordination.k8s.io', 'Lease'), served('certificates.cert-manager.io', 'cert-manager.io', 'Certificate'), served('issuers.cert-manager.io', 'cert-manager.io', 'Issuer'), served('pods', '', 'Pod')], unavailable: [], progress: null, refreshedAt: 1 },
    };
    const own = { ...SETTINGS, kindExclusions: { 'kind-dev': [{ apiGroups: ['coordination.k8s.io'], kinds: ['Lease'] }, { apiGroups: ['cert-manager.io'], kinds: ['*'] }, { apiGroups: ['*.cilium.io'], kinds: ['*'] }] } };
    installApi({ 'settings:get': () => ok(own), 'cluster:discovery': () => ok(discovery) });
    const card = test.mount(SettingsKindsCard);
    await flushPromises();
    const matches = card.findAll('[data-testid="exclusion-matches"]');
    expect(matches.map((m) => m.text())).toEqual(['matches 1 kind', 'matches 2 kinds', 'matches no served kind']);
    expect(matches[1]?.attributes('title')).toBe('certificates.cert-manager.io\nissuers.cert-manager.io');
  });
});

describe('Settings: status rules editor', () => {
  it('lists every problem of the text with its rule and field, and saves only valid rules', async () => {
    const { api, card } = await mount(SettingsStatusRulesCard);
    const text = card.get('[data-testid="status-rules-text"]');
    expect((text.element as HTMLTextAreaElement).value).toContain('# One rule per kind');
    expect(card.find('[data-testid="status-rules-problems"]').exists()).toBe(false);

    await text.setValue('- group: example.com\n  kind: widget\n  conditionType: Synced\n  state: broken\n  colour: red\n');
    expect(card.findAll('[data-testid="status-rules-problems"] li').map((li) => li.text())).toEqual([
      'rule 1, kind: kind must be a Kind as the API spells it, such as "Certificate"',
      'rule 1, state: state must be one of progressing, drifting, failed, suspended, current, none',
      'rule 1: unknown field "colour" (known: group, kind, conditionType, conditionStatus, reason, state)',
    ]);
    expect(text.attributes('aria-invalid')).toBe('true');
    expect(card.get('[data-testid="status-rules-save"]').attributes('disabled')).toBeDefined();

    await text.setValue('- group: example.com\n  kind: [Widget\n');
    expect(card.get('[data-testid="status-rules-problems"]').text()).toMatch(/^Line 3: /);

    await text.setValue('- group: example.com\n  kind: Widget\n  conditionType: Synced\n  conditionStatus: "False"\n  reason: ReconcileError\n  state: failed\n');
    expect(card.find('[data-testid="status-rules-problems"]').exists()).toBe(false);
    await card.get('form').trigger('submit');
    await flushPromises();
    expect(updates(api)).toEqual([{ statusRules: [{ group: 'example.com', kind: 'Widget', conditionType: 'Synced', conditionStatus: 'False', reason: 'ReconcileError', state: 'failed' }] }]);
    expect(card.get('[role="status"]').text()).toBe('Saved.');
  });

  it('shows saved rules as YAML and an empty text as no rules', async () => {
    const saved = { ...SETTINGS, statusRules: [{ group: 'pkg.crossplane.io', kind: 'Provider', conditionType: 'Healthy', conditionStatus: 'False' as const, state: 'failed' as const }] };
    const { api, card } = await mount(SettingsStatusRulesCard, saved);
    const text = card.get('[data-testid="status-rules-text"]');
    expect((text.element as HTMLTextAreaElement).value).toBe('- group: pkg.crossplane.io\n  kind: Provider\n  conditionType: Healthy\n  conditionStatus: "False"\n  state: failed\n');
    await text.setValue('');
    await card.get('form').trigger('submit');
    await flushPromises();
    expect(updates(api)).toEqual([{ statusRules: [] }]);
  });
});
