// @vitest-environment happy-dom
/**
 * A namespace the user could read and no longer can (a RoleBinding revoked) gets a notice with
 * the server's reason - "You can no longer read platform: pods is forbidden: …" - that stays
 * until dismissed or the namespace is readable again; a namespace merely gone, a new context and
 * the state the app opened in give none.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { AccessReview, AccessSummary, NamespaceAccess } from '../../../shared/access.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import { ok } from '../../../shared/result.ts';
import TheAccessBanner from '../../../renderer/components/shell/TheAccessBanner.vue';
import { nextAccessNotices } from '../../../renderer/stores/access-notices.ts';
import { installApi, useRendererTest } from './setup.ts';

const FORBIDDEN = 'pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"';
const watched = (name: string): NamespaceAccess => ({ name, sources: ['namespace-list'], state: 'watched', kinds: ['deployments.apps', 'pods'] });
const none = (name: string): NamespaceAccess => ({ name, sources: ['namespace-list'], state: 'none', kinds: [], message: `You may not list and watch anything Kubedrift shows in "${name}"` });
const LIST_DENIED: AccessReview = { review: 'list', namespace: 'platform', question: 'list pods', allowed: false, message: FORBIDDEN };

function access(namespaces: string[], checked: NamespaceAccess[], reviews: AccessReview[] = [], at: Partial<ClusterAccess> = {}): ClusterAccess {
  const summary: AccessSummary = { restricted: true, namespaces, hiddenKinds: [], checked, reviews, reviewsOmitted: 0, noAccess: false, checkedAt: 1_700_000_000_000 };
  return { context: 'kubedrift-demo-dev', epoch: 'e1', summary, ...at };
}

const GRANTED = access(['payments', 'platform', 'shop'], [watched('payments'), watched('platform'), watched('shop')]);
const REVOKED = access(['payments', 'shop'], [watched('payments'), none('platform'), watched('shop')], [LIST_DENIED]);

describe('notices of namespaces the user can no longer read', () => {
  it('quotes the server’s 403 for a namespace watched before and allowed nothing now', () => {
    expect(nextAccessNotices([], GRANTED, REVOKED)).toEqual([{ namespace: 'platform', text: `You can no longer read platform: ${FORBIDDEN}` }]);
  });

  it('falls back to the check’s own words when the server was not asked', () => {
    const revoked = access(['payments', 'shop'], [watched('payments'), none('platform'), watched('shop')]);
    expect(nextAccessNotices([], GRANTED, revoked)).toEqual([{ namespace: 'platform', text: 'You can no longer read platform: You may not list and watch anything Kubedrift shows in "platform"' }]);
  });

  it('keeps a notice across later checks and drops it when the namespace is readable again', () => {
    const notices = nextAccessNotices([], GRANTED, REVOKED);
    const later = access(['payments', 'shop'], [watched('payments'), none('platform'), watched('shop')]);
    expect(nextAccessNotices(notices, REVOKED, later)).toEqual(notices);
    expect(nextAccessNotices(notices, later, GRANTED)).toEqual([]);
  });

  it('says nothing of a namespace that is simply gone, of the first answer, or across a context switch', () => {
    const deleted = access(['payments', 'shop'], [watched('payments'), watched('shop')]);
    expect(nextAccessNotices([], GRANTED, deleted)).toEqual([]);
    expect(nextAccessNotices([], null, REVOKED)).toEqual([]);
    const notices = nextAccessNotices([], GRANTED, REVOKED);
    expect(nextAccessNotices(notices, REVOKED, { ...REVOKED, epoch: 'e2' })).toEqual([]);
    expect(nextAccessNotices(notices, REVOKED, { ...REVOKED, context: 'kind-prod' })).toEqual([]);
  });
});

const test = useRendererTest();

describe('the access banner', () => {
  it('shows the notice after "Check again" finds a namespace revoked, and puts it away on Dismiss', async () => {
    const api = installApi({ 'cluster:access': () => ok(GRANTED), 'cluster:access-recheck': () => ok(REVOKED) });
    const view = test.mount(TheAccessBanner, { attachTo: document.body });
    await flushPromises();
    expect(view.get('[data-testid="access-text"]').text()).toBe('Namespaces payments, platform, shop');
    expect(view.find('[data-testid="access-notice"]').exists()).toBe(false);

    await view.get('[data-testid="access-recheck"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'cluster:access-recheck')).toHaveLength(1);
    expect(view.get('[data-testid="access-text"]').text()).toBe('Namespaces payments, shop');
    const notice = view.get('[data-testid="access-notice"]');
    expect(notice.attributes('data-namespace')).toBe('platform');
    expect(notice.text()).toContain(`You can no longer read platform: ${FORBIDDEN}`);

    // The same answer on the stream (every check is published) adds no second notice.
    api.emit('cluster:access', REVOKED);
    await flushPromises();
    expect(view.findAll('[data-testid="access-notice"]')).toHaveLength(1);

    await view.get('[data-testid="access-notice-dismiss"]').trigger('click');
    await flushPromises();
    expect(view.find('[data-testid="access-notice"]').exists()).toBe(false);
  });
});
