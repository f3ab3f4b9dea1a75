/**
 * Per-context kind exclusions from Settings, end to end through the engine: the rules are
 * validated by the contract, remembered per context in settings.json, and applied to the
 * selected context's informers at once (an excluded kind's objects leave the cache) and before
 * its informers start on the next connect.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../electron/engine/engine.ts';
import type { SimCluster } from '../../../electron/engine/simcluster/index.ts';
import type { ClusterDiscovery } from '../../../shared/discovery.ts';
import { DEFAULT_KIND_EXCLUSIONS } from '../../../shared/kind-exclusions.ts';
import { DEMO_CONTEXT, type Settings } from '../../../shared/model.ts';
import type { Result } from '../../../shared/result.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { call } from '../simcluster/server/helpers.ts';
import { certificate, certificateCrd } from '../simcluster/crd/fixtures.ts';
import { startQuietCluster, waitFor } from './informers/helpers.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const CERTIFICATES = 'certificates.cert-manager.io';
const WITHOUT_CERT_MANAGER = [...DEFAULT_KIND_EXCLUSIONS, { apiGroups: ['cert-manager.io'], kinds: ['*'] }];

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

/** A quiet simulated cluster serving Certificates, with two of them. */
async function clusterWithCertificates(): Promise<SimCluster> {
  const cluster = await startQuietCluster();
  expect((await call(cluster.server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
  for (const name of ['web', 'api']) expect((await call(cluster.server, 'POST', '/apis/cert-manager.io/v1/namespaces/default/certificates', { body: certificate(name) })).status).toBe(201);
  return cluster;
}

async function startEngine(cluster: SimCluster): Promise<Engine> {
  engine = createEngine({ version: '0.0.0-test', dataDir: `${dir}/data`, shell: 'test', kubeconfig: `${dir}/missing`, env: {}, homeDir: dir, log: () => {}, demoCluster: async () => ({ kubeconfigObject: (name?: string) => cluster.kubeconfigObject(name), stop: async () => {} }), loginShellPath: false });
  await engine.start();
  return engine;
}

const certificatesCached = (e: Engine): number => e.inspectCache().filter((stamp) => stamp.kind === CERTIFICATES).length;

async function value<T>(result: Result<T> | Promise<Result<T>>): Promise<T> {
  const settled = await result;
  if (!settled.ok) throw new Error(`${settled.error.code}: ${settled.error.message}`);
  return settled.value;
}

async function modeOf(e: Engine, key: string): Promise<string | undefined> {
  const discovery = (await value(e.dispatch('cluster:discovery', {}))) as ClusterDiscovery;
  return discovery.state?.kinds.find((kind) => kind.key === key)?.mode;
}

describe('kind exclusions from Settings', () => {
  it('stops the informer of a newly excluded kind (its objects leave the cache), starts it again on reset, and remembers the rules per context', async () => {
    sim = await clusterWithCertificates();
    const e = await startEngine(sim);
    await waitFor('the certificates cached', () => certificatesCached(e) === 2, 8_000);

    const saved = (await value(e.dispatch('settings:update', { kindExclusions: { context: DEMO_CONTEXT, rules: WITHOUT_CERT_MANAGER } }))) as Settings;
    expect(saved.kindExclusions).toEqual({ [DEMO_CONTEXT]: WITHOUT_CERT_MANAGER });
    await waitFor('the certificates dropped', () => certificatesCached(e) === 0, 4_000);
    expect(await modeOf(e, CERTIFICATES)).toBe('excluded');
    // Other kinds keep going.
    expect(e.inspectCache().some((stamp) => stamp.kind === 'pods')).toBe(true);

    // Back to the defaults: the kind is watched again.
    const reset = (await value(e.dispatch('settings:update', { kindExclusions: { context: DEMO_CONTEXT, rules: null } }))) as Settings;
    expect(reset.kindExclusions).toEqual({});
    await waitFor('the certificates back', () => certificatesCached(e) === 2, 4_000);
  });

  it('applies a context\'s remembered rules before its informers start', async () => {
    sim = await clusterWithCertificates();
    const first = await startEngine(sim);
    await value(first.dispatch('settings:update', { kindExclusions: { context: DEMO_CONTEXT, rules: WITHOUT_CERT_MANAGER } }));
    await first.dispose();
    engine = undefined;

    const second = await startEngine(sim);
    await waitFor('pods cached', () => second.inspectCache().some((stamp) => stamp.kind === 'pods'), 8_000);
    let mode: string | undefined;
    for (const deadline = Date.now() + 4_000; Date.now() < deadline && mode === undefined; ) {
      mode = await modeOf(second, CERTIFICATES);
      if (mode === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(mode).toBe('excluded');
    expect(certificatesCached(second)).toBe(0);
  });

  it('refuses malformed rules with the schema\'s words and keeps the stored ones', async () => {
    sim = await clusterWithCertificates();
    const e = await startEngine(sim);
    const refused = await e.dispatch('settings:update', { kindExclusions: { context: DEMO_CONTEXT, rules: [{ apiGroups: ['cert-manager.io/v1'], kinds: [] }] } });
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    const message = refused.ok ? '' : (refused.error.detail ?? '');
    expect(message).toContain('API group patterns hold letters, digits, ".", "-" and "*" only');
    expect(message).toContain('list at least one kind (use "*" for every one)');
    expect(((await value(e.dispatch('settings:get', {}))) as Settings).kindExclusions).toBeUndefined();
  });
});
