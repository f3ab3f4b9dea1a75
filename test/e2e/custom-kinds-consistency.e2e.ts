/**
 * The three-way consistency check over custom resources: a CRD created while the app runs, its
 * objects created, their status written through the /status subresource, their spec changed,
 * some deleted and more created; afterwards the simulator's store, the engine cache and the
 * renderer store hold the same Certificates (and CRDs, read as metadata) at the same
 * resourceVersions. Deleting the CRD empties all three.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { WATCHED_KINDS } from '../../shared/cluster.ts';
import { call } from '../unit/simcluster/server/helpers.ts';
import { certificate, certificateCrd } from '../unit/simcluster/crd/fixtures.ts';
import { expectConsistent, simulatorStamps } from './consistency.ts';
import { useDemoShell } from './demo-shell.ts';

const env = useDemoShell('custom-kinds-consistency', { scenario: () => 'minimal' });

const KEY = 'certificates.cert-manager.io';
const CRD_KEY = 'customresourcedefinitions.apiextensions.k8s.io';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAMESPACES = ['default', 'tls'];
const collection = (namespace: string) => `/apis/cert-manager.io/v1/namespaces/${namespace}/certificates`;
/** Certificates per namespace at the start. */
const PER_NAMESPACE = 15;
const MERGE_PATCH = { 'Content-Type': 'application/merge-patch+json' };

async function expectStatus(result: Promise<{ status: number; text: string }>, wanted: number, what: string): Promise<void> {
  const { status, text } = await result;
  expect(status, `${what}: ${text.slice(0, 300)}`).toBe(wanted);
}

/** POSTs until the CRD's new kind is served (it is, once the CRD is established). */
async function createCertificate(namespace: string, name: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const result = await call(env.demo.server, 'POST', collection(namespace), { body: certificate(name, namespace) });
    if (result.status === 201) return;
    if (result.status !== 404 || Date.now() > deadline) throw new Error(`creating ${namespace}/${name}: ${result.status} ${result.text.slice(0, 300)}`);
    await sleep(50);
  }
}

function readyCondition(ready: boolean, round: number): object {
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  return ready
    ? { type: 'Ready', status: 'True', reason: 'Ready', message: `Certificate is up to date and has not expired (round ${round})`, lastTransitionTime: now }
    : { type: 'Ready', status: 'False', reason: 'Failed', message: `issuer letsencrypt is not ready (round ${round})`, lastTransitionTime: now };
}

describe('three-way consistency over custom resources', () => {
  it('agrees on Certificates created, with status written, changed and deleted, and on none once the CRD is gone', { timeout: 120_000 }, async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(env.shell.url);
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    const server = env.demo.server;
    const kinds = [...WATCHED_KINDS, KEY, CRD_KEY];

    await expectStatus(call(server, 'POST', '/api/v1/namespaces', { body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'tls' } } }), 201, 'namespace tls');
    await expectStatus(call(server, 'POST', CRDS, { body: certificateCrd() }), 201, 'the CRD');
    const names = new Map(NAMESPACES.map((namespace) => [namespace, Array.from({ length: PER_NAMESPACE }, (_, i) => `cert-${i}`)]));
    for (const [namespace, list] of names) for (const name of list) await createCertificate(namespace, name);

    // Churn, as an operator and users would: status through the subresource, spec changes
    // (a new generation), deletions and new objects, a few rounds with little pause.
    let created = 0;
    for (let round = 1; round <= 4; round += 1) {
      for (const [namespace, list] of names) {
        for (const [index, name] of list.entries()) {
          const path = `${collection(namespace)}/${name}`;
          if (index % 3 === round % 3) {
            await expectStatus(call(server, 'PATCH', `${path}/status`, { headers: MERGE_PATCH, body: { status: { conditions: [readyCondition(index % 2 === 0, round)] } } }), 200, `status of ${name}`);
          } else if (index % 5 === round % 5) {
            await expectStatus(call(server, 'PATCH', path, { headers: MERGE_PATCH, body: { spec: { dnsNames: [`${name}-r${round}.example.com`] } } }), 200, `spec of ${name}`);
          }
        }
        const gone = list.splice(round % list.length, 1)[0] as string;
        await expectStatus(call(server, 'DELETE', `${collection(namespace)}/${gone}`), 200, `deleting ${gone}`);
        const fresh = `fresh-${round}`;
        await createCertificate(namespace, fresh);
        list.push(fresh);
        created += 1;
      }
      await sleep(100);
    }
    expect(created).toBe(8);

    const consistent = await expectConsistent({ cluster: env.demo, engine: env.shell.engine, page, kinds });
    const certificates = simulatorStamps(env.demo.store, [KEY]);
    expect(certificates).toHaveLength(NAMESPACES.length * PER_NAMESPACE);
    expect(consistent.objects).toBeGreaterThan(certificates.length);
    // Engine and renderer hold them under the kind key, with the status writes' versions.
    expect(env.shell.engine.inspectCache().filter((stamp) => stamp.kind === KEY)).toHaveLength(certificates.length);

    // The CRD deleted: its objects go from the simulator (cascade), the engine and the renderer.
    await expectStatus(call(server, 'DELETE', `${CRDS}/${KEY}`), 200, 'deleting the CRD');
    await expect.poll(() => simulatorStamps(env.demo.store, [KEY, CRD_KEY]).length, { timeout: 10_000 }).toBe(0);
    await expectConsistent({ cluster: env.demo, engine: env.shell.engine, page, kinds });
    expect(env.shell.engine.inspectCache().filter((stamp) => stamp.kind === KEY || stamp.kind === CRD_KEY)).toEqual([]);
    await page.close();
  });
});
