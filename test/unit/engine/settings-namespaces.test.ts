/**
 * Hand-added accessible namespaces from Settings, end to end through the engine: validated by
 * the contract, remembered per context in settings.json, checked at once for the selected
 * context, and handed to the access checks before the informers start on the next connect.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../electron/engine/engine.ts';
import { startSimCluster, type SimCluster } from '../../../electron/engine/simcluster/index.ts';
import type { ClusterAccess } from '../../../shared/contracts/access.ts';
import { DEMO_CONTEXT, DEMO_DEV_CONTEXT, type Settings } from '../../../shared/model.ts';
import type { Result } from '../../../shared/result.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
let engine: Engine | undefined;
let sim: SimCluster | undefined;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => {
  await engine?.dispose();
  engine = undefined;
  await sim?.stop();
  sim = undefined;
  await cleanup();
});

async function value<T>(result: Result<T> | Promise<Result<T>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new Error(`${settled.error.code}: ${settled.error.message}`);
  return settled.value;
}

/** The engine on the demo contexts, "dev" with view in shop and payments and no way to find them itself. */
async function startEngine(): Promise<Engine> {
  sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, users: [{ name: 'dev', role: 'view', namespaces: ['shop', 'payments'] }], onError: () => {} });
  const cluster = sim;
  engine = createEngine({
    version: '0.0.0-test',
    dataDir: `${dir}/data`,
    shell: 'test',
    kubeconfig: `${dir}/missing`,
    context: DEMO_DEV_CONTEXT,
    env: {},
    homeDir: dir,
    log: () => {},
    demoCluster: async () => ({ kubeconfigObject: (name?: string) => cluster.kubeconfigObject(name), userKubeconfigObject: (user: string, name?: string) => cluster.userKubeconfigObject(user, name), stop: async () => {} }),
    loginShellPath: false,
  });
  await engine.start();
  return engine;
}

async function access(e: Engine): Promise<ClusterAccess> {
  return (await value(e.dispatch('cluster:access', {}))) as ClusterAccess;
}

describe('accessible namespaces from Settings', () => {
  it('checks the added namespaces at once, gives the one dev cannot read a message of its own, and uses them before the informers start on the next connect', async () => {
    const e = await startEngine();
    const poll = <T>(read: (a: ClusterAccess) => T) => expect.poll(async () => read(await access(e)), { timeout: 10_000 });
    await poll((a) => typeof a.summary?.checkedAt === 'number').toBe(true);
    expect((await access(e)).summary).toMatchObject({ restricted: true, namespaces: [] });

    const saved = (await value(e.dispatch('settings:update', { accessibleNamespaces: { context: DEMO_DEV_CONTEXT, namespaces: ['shop', 'no-such-team'] } }))) as Settings;
    expect(saved.accessibleNamespaces).toEqual({ [DEMO_DEV_CONTEXT]: ['shop', 'no-such-team'] });
    await poll((a) => a.summary?.namespaces.join()).toBe('shop');
    const missing = (await access(e)).summary?.checked.find((c) => c.name === 'no-such-team');
    // dev may not get namespaces, so the message cannot tell a missing namespace from a forbidden one.
    expect(missing).toMatchObject({ state: 'none', sources: ['user'], message: 'You may not list and watch anything Kubedrift shows in "no-such-team" (or it does not exist)' });

    // Another context and back: the remembered list is the first check's source.
    await value(e.dispatch('contexts:select', { name: DEMO_CONTEXT }));
    await value(e.dispatch('contexts:select', { name: DEMO_DEV_CONTEXT }));
    await poll((a) => `${a.context} ${a.summary?.namespaces.join()}`).toBe(`${DEMO_DEV_CONTEXT} shop`);

    // An empty list forgets them.
    const forgotten = (await value(e.dispatch('settings:update', { accessibleNamespaces: { context: DEMO_DEV_CONTEXT, namespaces: [] } }))) as Settings;
    expect(forgotten.accessibleNamespaces).toEqual({});
    await poll((a) => a.summary?.namespaces.length).toBe(0);
  });

  it('refuses a name that is not a namespace name, or one listed twice, with a clear message', async () => {
    const e = await startEngine();
    const upper = await e.dispatch('settings:update', { accessibleNamespaces: { context: DEMO_DEV_CONTEXT, namespaces: ['Shop'] } });
    expect(upper.ok).toBe(false);
    if (!upper.ok) expect(`${upper.error.message}: ${upper.error.detail}`).toMatch(/lower-case letters, digits and "-"/);
    const twice = await e.dispatch('settings:update', { accessibleNamespaces: { context: DEMO_DEV_CONTEXT, namespaces: ['shop', 'shop'] } });
    expect(twice.ok).toBe(false);
    if (!twice.ok) expect(`${twice.error.message}: ${twice.error.detail}`).toMatch(/each namespace may be listed once/);
    expect(((await value(e.dispatch('settings:get', {}))) as Settings).accessibleNamespaces).toBeUndefined();
  });
});
