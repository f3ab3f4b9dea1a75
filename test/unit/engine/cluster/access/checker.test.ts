/**
 * The access checker's behaviour that a real server cannot easily show: the bound on reviews in
 * flight, rules reviews that disagree with the authorizer or are incomplete, re-checks after a
 * 403 and for a new namespace, and a server that cannot be asked.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccessChecker, ACCESS_RETRY_MS } from '../../../../../electron/engine/cluster/access/checker.ts';
import type { PlanChanges } from '../../../../../electron/engine/cluster/access/plan.ts';
import { FakeClock, waitFor } from '../../informers/helpers.ts';
import { FakeAccessApi, KINDS } from './fake-api.ts';

const checkers: AccessChecker[] = [];
afterEach(() => {
  for (const checker of checkers.splice(0)) checker.stop();
});

function checker(api: FakeAccessApi, options: { userNamespaces?: string[]; concurrency?: number; clock?: FakeClock } = {}): AccessChecker {
  const made = new AccessChecker({ api, kinds: () => KINDS, clock: options.clock ?? new FakeClock(), userNamespaces: options.userNamespaces ?? [], ...(options.concurrency ? { concurrency: options.concurrency } : {}) });
  checkers.push(made);
  return made;
}

const TEAMS = Array.from({ length: 20 }, (_, i) => `team-${String(i).padStart(2, '0')}`);

describe('AccessChecker', () => {
  it('asks at most 5 reviews at a time however many namespaces there are', async () => {
    const api = new FakeAccessApi();
    for (const team of TEAMS) api.allow(team, ['pods']);
    const access = checker(api, { userNamespaces: TEAMS });
    await access.start();
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: TEAMS });
    expect(api.requests.filter((r) => r.startsWith('SSRR'))).toHaveLength(20);
    expect(api.maxInFlight).toBe(5);
  });

  it('keeps to a smaller bound when given one', async () => {
    const api = new FakeAccessApi();
    for (const team of TEAMS) api.allow(team, ['pods', 'deployments.apps']);
    await checker(api, { userNamespaces: TEAMS, concurrency: 2 }).start();
    expect(api.maxInFlight).toBe(2);
  });

  it('does not watch a kind the rules review claims when the access review denies it', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    api.rulesClaimEverything = true;
    const access = checker(api, { userNamespaces: ['shop'] });
    await access.start();
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['shop'] });
    expect(access.plan()['deployments.apps']).toMatchObject({ scope: 'hidden', message: expect.stringContaining('Deployments are hidden by your permissions') });
    expect(access.summary().reviews).toContainEqual({ review: 'SelfSubjectAccessReview', namespace: 'shop', question: 'list deployments.apps', allowed: false });
  });

  it('asks about every kind when the rules review is incomplete', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['deployments.apps']);
    api.rulesIncomplete = true;
    const access = checker(api, { userNamespaces: ['shop'] });
    await access.start();
    expect(access.plan()['deployments.apps']).toEqual({ scope: 'namespaces', namespaces: ['shop'] });
    expect(access.plan().pods?.scope).toBe('hidden');
    expect(api.requests).toContain('SSAR watch pods shop');
  });

  it('checks again after a 403 on a watch the plan allowed, and says which watches to stop', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods', 'deployments.apps']);
    const access = checker(api, { userNamespaces: ['shop'] });
    await access.start();
    const changes: PlanChanges[] = [];
    access.onChange((c) => changes.push(c));
    api.allow('shop', ['pods']);
    await access.onForbidden('deployments.apps', 'shop');
    expect(changes).toEqual([{ added: [], removed: [{ kind: 'deployments.apps', namespace: 'shop' }] }]);
    expect(access.summary().hiddenKinds.map((k) => k.key)).toEqual(['nodes', 'deployments.apps']);
  });

  it('keeps a namespace\'s watches when its review fails once, and says so on that namespace alone', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    api.allow('payments', ['pods']);
    const access = checker(api, { userNamespaces: ['shop', 'payments', 'platform'] });
    await access.start();
    const changes: PlanChanges[] = [];
    access.onChange((c) => changes.push(c));
    api.failRules.add('shop').add('platform');
    await access.recheck('Check again');
    expect(changes).toEqual([]);
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['payments', 'shop'] });
    const byName = Object.fromEntries(access.summary().checked.map((c) => [c.name, c]));
    expect(byName.shop).toMatchObject({ state: 'watched', kinds: ['pods'], message: 'Could not review your access in "shop": Internal error occurred: etcdserver: request timed out; the kinds found before are still watched' });
    expect(byName.platform).toMatchObject({ state: 'error', message: 'Could not review your access in "platform": Internal error occurred: etcdserver: request timed out' });
    expect(byName.payments).toEqual({ name: 'payments', sources: ['user'], state: 'watched', kinds: ['pods'] });
  });

  it('ignores a 403 on a kind the plan already hides', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    const access = checker(api, { userNamespaces: ['shop'] });
    await access.start();
    const asked = api.requests.length;
    await access.onForbidden('nodes');
    await access.onForbidden('pods', 'payments');
    expect(api.requests).toHaveLength(asked);
  });

  it('checks a namespace that becomes visible on its own, without a full check', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    const access = checker(api, { userNamespaces: ['shop'] });
    await access.start();
    const changes: PlanChanges[] = [];
    access.onChange((c) => changes.push(c));
    api.allow('payments', ['pods', 'deployments.apps']);
    const asked = api.requests.length;
    await access.onNamespaceAdded('payments');
    expect(api.requests.slice(asked)).toEqual(expect.arrayContaining(['SSRR payments', 'SSAR list pods payments']));
    expect(api.requests.slice(asked).some((r) => r.includes(' * ') || r === 'SSRR shop')).toBe(false);
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['payments', 'shop'] });
    expect(changes).toEqual([{ added: [{ kind: 'pods', namespace: 'payments' }, { kind: 'deployments.apps', namespace: 'payments' }], removed: [] }]);
    expect(access.summary().checked.find((c) => c.name === 'payments')?.sources).toEqual(['namespace-list']);
    await access.onNamespaceAdded('payments');
    expect(changes).toHaveLength(1);
  });

  it('runs a recheck asked for during a check after it, joining the ones asked for meanwhile', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    const access = checker(api, { userNamespaces: ['shop'] });
    const first = access.start();
    await waitFor('the first check to ask', () => api.inFlight > 0);
    const second = access.recheck('Check again');
    const third = access.recheck('Check again');
    await Promise.all([first, second, third]);
    expect(second).toBe(third);
    expect(api.requests.filter((r) => r === 'SSRR shop')).toHaveLength(2);
  });

  it('keeps the plan when the server cannot be asked, says why, and tries again in 30 s', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    const clock = new FakeClock();
    const access = checker(api, { userNamespaces: ['shop'], clock });
    await access.start();
    const before = access.plan();
    api.request = () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.1:6443'));
    await access.recheck('Check again');
    expect(access.plan()).toBe(before);
    expect(access.summary().error).toBe('Cannot check your access on https://fake.example:6443: connect ECONNREFUSED 10.0.0.1:6443');
    expect(clock.pending().map((t) => t.ms)).toEqual([ACCESS_RETRY_MS]);
  });

  it('refuses a hand-added namespace list with a bad name, saying which rule it breaks', () => {
    const access = checker(new FakeAccessApi());
    expect(() => access.setUserNamespaces(['shop', 'Team_A'])).toThrow('Accessible namespaces: a namespace name is lower-case letters, digits and "-", and starts and ends with a letter or digit');
    expect(() => access.setUserNamespaces(['shop', 'shop'])).toThrow('each namespace may be listed once');
  });
});
