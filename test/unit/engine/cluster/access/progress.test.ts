/**
 * A check's progress: each namespace's rules review lets its lists start before the thousand
 * confirmations of fifty namespaces are done; progress only adds, and the end of the check has
 * the last word (a kind the confirmation denies leaves the plan then). An incomplete rules review
 * names every kind, so nothing starts early on it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AccessPlan, NamespaceAccess } from '../../../../../shared/access.ts';
import { AccessChecker } from '../../../../../electron/engine/cluster/access/checker.ts';
import { growPlan } from '../../../../../electron/engine/cluster/access/plan.ts';
import { FakeClock } from '../../informers/helpers.ts';
import { FakeAccessApi, KINDS } from './fake-api.ts';

const checkers: AccessChecker[] = [];
afterEach(() => {
  for (const checker of checkers.splice(0)) checker.stop();
});

function checker(api: FakeAccessApi, userNamespaces: string[]): AccessChecker {
  const made = new AccessChecker({ api, kinds: () => KINDS, clock: new FakeClock(), userNamespaces });
  checkers.push(made);
  return made;
}

const watched = (name: string, kinds: string[]): NamespaceAccess => ({ name, sources: ['user'], state: 'watched', kinds });

describe('growPlan', () => {
  it('adds the namespace to each kind confirmed there, and returns only the kinds that change', () => {
    const plan: AccessPlan = {
      pods: { scope: 'namespaces', namespaces: ['shop'] },
      'deployments.apps': { scope: 'hidden', message: 'Deployments are hidden by your permissions' },
      events: { scope: 'cluster' },
    };
    expect(growPlan(plan, watched('payments', ['deployments.apps', 'events', 'pods']))).toEqual({
      pods: { scope: 'namespaces', namespaces: ['payments', 'shop'] },
      'deployments.apps': { scope: 'namespaces', namespaces: ['payments'] },
    });
    expect(growPlan(plan, watched('shop', ['pods']))).toEqual({});
  });

  it('adds nothing for a namespace that is not watched', () => {
    expect(growPlan({}, { name: 'shop', sources: ['user'], state: 'error', kinds: [], message: 'Could not review your access in "shop"' })).toEqual({});
  });
});

describe('AccessChecker progress', () => {
  it('names every namespace’s kinds from its rules review before the check ends, and only grows', async () => {
    const api = new FakeAccessApi();
    const teams = Array.from({ length: 12 }, (_, i) => `team-${String(i).padStart(2, '0')}`);
    for (const team of teams) api.allow(team, ['pods', 'deployments.apps']);
    const access = checker(api, teams);
    const seen: Array<{ grown: AccessPlan; confirmations: number }> = [];
    access.onProgress((grown) => seen.push({ grown, confirmations: api.requests.filter((r) => r.startsWith('SSAR') && !r.endsWith(' *')).length }));
    await access.start();
    const pods = seen.flatMap((s) => (s.grown.pods?.scope === 'namespaces' ? [s.grown.pods.namespaces] : []));
    expect(pods).toHaveLength(12);
    // Each step adds one namespace to what the previous ones named.
    pods.forEach((namespaces, i) => expect(namespaces).toHaveLength(i + 1));
    expect(pods.at(-1)).toEqual(teams);
    // The last namespace's rules were in before most of the 48 confirmations.
    expect(seen.at(-1)?.confirmations).toBeLessThan(24);
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: teams });
  });

  it('starts a kind the rules review claims, and the end of the check takes it away when the confirmation denies it', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    api.rulesClaimEverything = true;
    const access = checker(api, ['shop']);
    const grown: AccessPlan[] = [];
    access.onProgress((g) => grown.push(g));
    await access.start();
    expect(grown).toEqual([{ pods: { scope: 'namespaces', namespaces: ['shop'] }, 'deployments.apps': { scope: 'namespaces', namespaces: ['shop'] } }]);
    expect(access.plan()['deployments.apps']?.scope).toBe('hidden');
    expect(access.plan().pods).toEqual({ scope: 'namespaces', namespaces: ['shop'] });
  });

  it('starts nothing early on an incomplete rules review', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['deployments.apps']);
    api.rulesIncomplete = true;
    const access = checker(api, ['shop']);
    const grown: AccessPlan[] = [];
    access.onProgress((g) => grown.push(g));
    await access.start();
    expect(grown).toEqual([]);
    expect(access.plan()['deployments.apps']).toEqual({ scope: 'namespaces', namespaces: ['shop'] });
  });

  it('reports nothing on a recheck that finds the same namespaces', async () => {
    const api = new FakeAccessApi();
    api.allow('shop', ['pods']);
    const access = checker(api, ['shop']);
    await access.start();
    const grown: AccessPlan[] = [];
    access.onProgress((g) => grown.push(g));
    await access.recheck('Check again');
    expect(grown).toEqual([]);
  });
});
