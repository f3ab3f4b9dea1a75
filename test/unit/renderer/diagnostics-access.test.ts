// @vitest-environment happy-dom
/**
 * Diagnostics shows the access checks' reviews: when access was last checked, and per scope the
 * rules review's answer, the access reviews that allowed or denied a kind (with the server's
 * reason), and a namespace whose review failed with the server's message.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AccessSummary } from '../../../shared/access.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import { ok } from '../../../shared/result.ts';
import DiagnosticsAccessCard from '../../../renderer/views/diagnostics/DiagnosticsAccessCard.vue';
import { questionsText, reviewGroups } from '../../../renderer/views/diagnostics/access-reviews.ts';
import { installApi, useRendererTest } from './setup.ts';

const SUMMARY: AccessSummary = {
  restricted: true,
  namespaces: ['shop'],
  hiddenKinds: [],
  checked: [
    { name: 'shop', sources: ['context'], state: 'watched', kinds: ['pods', 'services'] },
    { name: 'payments', sources: ['user'], state: 'error', kinds: [], message: 'selfsubjectrulesreviews.authorization.k8s.io: the server timed out' },
  ],
  reviews: [
    { review: 'SelfSubjectReview', namespace: null, question: 'who am I', allowed: true, message: 'User "dev"' },
    { review: 'SelfSubjectAccessReview', namespace: null, question: 'list *.*', allowed: false },
    { review: 'list', namespace: null, question: 'list namespaces', allowed: false, message: 'namespaces is forbidden: User "dev" cannot list resource "namespaces" in API group "" at the cluster scope' },
    { review: 'SelfSubjectRulesReview', namespace: 'shop', question: 'rules', allowed: true, message: '2 kinds to confirm' },
    { review: 'SelfSubjectAccessReview', namespace: 'shop', question: 'list pods', allowed: true },
    { review: 'SelfSubjectAccessReview', namespace: 'shop', question: 'watch pods', allowed: true },
    { review: 'SelfSubjectAccessReview', namespace: 'shop', question: 'watch services', allowed: false, message: 'no RBAC policy matched' },
    { review: 'SelfSubjectRulesReview', namespace: 'payments', question: 'rules', allowed: false, message: 'the server timed out' },
  ],
  reviewsOmitted: 3,
  noAccess: false,
  checkedAt: new Date(2025, 10, 28, 0, 5).getTime(),
};
const ACCESS: ClusterAccess = { context: 'kind-dev', epoch: 'e1', summary: SUMMARY };

const test = useRendererTest();

describe('Diagnostics: access reviews', () => {
  it('groups the reviews by scope, cluster first, with the rules answer, the confirmations and the denials', () => {
    const groups = reviewGroups(SUMMARY);
    expect(groups.map((g) => g.namespace)).toEqual([null, 'shop', 'payments']);
    expect(groups[1]).toMatchObject({ rules: { message: '2 kinds to confirm' }, allowed: ['list pods', 'watch pods'], denied: [{ question: 'watch services', message: 'no RBAC policy matched' }], outcome: { state: 'watched' } });
    expect(groups[0]?.other.map((r) => r.question)).toEqual(['who am I', 'list namespaces']);
    expect(groups[0]?.denied.map((r) => r.question)).toEqual(['list *.*']);
    expect(reviewGroups(null)).toEqual([]);
  });

  it('names each resource once with the verbs asked of it, resources asked alike in one clause', () => {
    expect(questionsText(['list *.*', 'watch *.*', 'list pods', 'watch pods', 'list namespaces', 'get nodes', 'list services', 'watch services'])).toBe('list and watch *.*, pods, services; list namespaces; get nodes');
    expect(questionsText(['get pods', 'list pods', 'watch pods', 'list pods'])).toBe('get, list and watch pods');
    expect(questionsText(['who am I', 'list pods'])).toBe('list pods; who am I');
    expect(questionsText([])).toBe('');
  });

  it('shows each scope with the server’s words, when it was checked, and checks again on request', async () => {
    const api = installApi({ 'cluster:access': () => ok(ACCESS), 'cluster:access-recheck': () => ok(ACCESS) });
    const card = test.mount(DiagnosticsAccessCard);
    await flushPromises();
    expect(card.get('[data-testid="diagnostics-access-checked"]').text()).toBe('kind-dev: last checked Nov 28, 00:05:00 · 3 reviews not shown');
    const shop = card.get('[data-namespace="shop"]');
    expect(shop.get('[data-testid="diagnostics-access-rules"]').text()).toBe('SelfSubjectRulesReview: 2 kinds to confirm');
    expect(shop.get('[data-testid="diagnostics-access-allowed"]').text()).toBe('SelfSubjectAccessReview allowed: list and watch pods');
    expect(shop.get('[data-testid="diagnostics-access-denied"]').text()).toBe('SelfSubjectAccessReview denied: watch services — no RBAC policy matched');
    // Denials without a reason share one line.
    expect(card.get('[data-namespace="*"] [data-testid="diagnostics-access-denied"]').text()).toBe('SelfSubjectAccessReview denied: list *.*');
    const payments = card.get('[data-namespace="payments"]');
    expect(payments.text()).toContain('selfsubjectrulesreviews.authorization.k8s.io: the server timed out');
    expect(card.get('[data-namespace="*"]').text()).toContain('list namespaces: no — namespaces is forbidden: User "dev" cannot list resource "namespaces"');
    await card.get('[data-testid="diagnostics-access-recheck"]').trigger('click');
    await flushPromises();
    expect(api.calls.some((call) => call.channel === 'cluster:access-recheck')).toBe(true);
  });
});
