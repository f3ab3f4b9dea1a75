/**
 * `cluster:table` against the simulated API server serving the cert-manager Certificate CRD:
 * the printer columns come from its additionalPrinterColumns as kube-apiserver prints them, cells
 * are keyed by uid, and a refusal, a failing conversion webhook or a slow server each give a
 * clear error for that kind alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTransport, type Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { kubeconfigObjectFor } from '../../../../electron/engine/simcluster/server/kubeconfig.ts';
import { createTablesFeature, type TablesFeatureOptions } from '../../../../electron/engine/tables/index.ts';
import type { ClusterTable } from '../../../../shared/contracts/tables.ts';
import type { KindEntry } from '../../../../shared/discovery.ts';
import type { Result } from '../../../../shared/result.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { certificate, certificateCrd } from '../../simcluster/crd/fixtures.ts';
import { call, settle, useCrdCluster, type Json } from '../../simcluster/crd/helpers.ts';
import type { TestCluster } from '../../simcluster/server/helpers.ts';

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const KEY = 'certificates.cert-manager.io';

const CERTIFICATES: KindEntry = {
  key: KEY,
  ref: { group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true },
  versions: ['v1'],
  verbs: ['get', 'list', 'watch'],
  listable: true,
  watchable: true,
  subresources: { status: true, scale: false },
  shortNames: ['cert', 'certs'],
  categories: ['cert-manager'],
  custom: true,
  mode: 'full',
  count: null,
};

const clusters = useCrdCluster();
const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

/** A cluster with the Certificate CRD and `names` Certificates (in `default`), the first one Ready. */
async function certificateCluster(names: string[]): Promise<{ cluster: TestCluster; uids: string[] }> {
  const cluster = await clusters.start();
  const { server } = cluster;
  expect((await call(server, 'POST', CRDS, { body: certificateCrd() })).status).toBe(201);
  await settle();
  const uids: string[] = [];
  for (const name of names) {
    const created = await call(server, 'POST', '/apis/cert-manager.io/v1/namespaces/default/certificates', { body: certificate(name) });
    expect(created.status).toBe(201);
    uids.push(created.json.metadata.uid as string);
  }
  if (names[0]) {
    const path = `/apis/cert-manager.io/v1/namespaces/default/certificates/${names[0]}`;
    const got = await call(server, 'GET', path);
    const status = { conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired' }] };
    expect((await call(server, 'PUT', `${path}/status`, { body: { ...(got.json as Json), status } })).status).toBe(200);
  }
  return { cluster, uids };
}

function feature(cluster: TestCluster, options: Partial<TablesFeatureOptions> = {}) {
  const made: Transport[] = [];
  const fake = fakeEngineContext({ clientConfig: () => kubeconfigObjectFor({ server: cluster.server.url }) });
  const tables = createTablesFeature(fake.context, {
    kindOf: (key) => (key === KEY ? CERTIFICATES : undefined),
    createTransport: (config) => {
      const transport = createTransport(config);
      made.push(transport);
      return transport;
    },
    ...options,
  });
  disposers.push(() => void tables.dispose());
  const ask = (kind = KEY) => Promise.resolve(tables.handlers['cluster:table']({ kind }));
  return { ...fake, made, ask };
}

function value(result: Result<ClusterTable>): ClusterTable {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

describe('cluster:table', () => {
  it("gives the CRD's printer columns as the server prints them and each object's cells by uid", async () => {
    const { cluster, uids } = await certificateCluster(['web', 'api']);
    const table = value(await feature(cluster).ask());
    expect(table.kind).toBe(KEY);
    expect(table.context).toBe('kind-dev');
    expect(table.truncated).toBe(false);
    expect(table.columns.map((column) => [column.name, column.type, column.format, column.priority])).toEqual([
      ['Name', 'string', 'name', 0],
      ['Ready', 'string', '', 0],
      ['Secret', 'string', '', 0],
      ['Issuer', 'string', '', 1],
      ['Status', 'string', '', 1],
      ['Age', 'date', '', 0],
    ]);
    expect(table.columns[5]?.description).toBe('CreationTimestamp is a timestamp representing the server time when this object was created.');
    expect(table.cells[uids[0] as string]).toEqual(['web', 'True', 'web-tls', 'letsencrypt', 'Certificate is up to date and has not expired', '0s']);
    // No Ready condition yet: the JSONPath finds nothing and the cell is empty, as kubectl prints it.
    expect(table.cells[uids[1] as string]?.slice(0, 3)).toEqual(['api', null, 'api-tls']);
    expect(Object.keys(table.cells).sort()).toEqual([...uids].sort());
  });

  it('reads a kind page by page and keeps every row', async () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    const { cluster, uids } = await certificateCluster(names);
    const table = value(await feature(cluster, { pageSize: 2 }).ask());
    expect(Object.keys(table.cells).sort()).toEqual([...uids].sort());
    expect(Object.values(table.cells).map((cells) => cells[0]).sort()).toEqual(names);
  });

  it('stops at the row limit and says the table is truncated', async () => {
    const { cluster } = await certificateCluster(['a', 'b', 'c']);
    const table = value(await feature(cluster, { pageSize: 2, maxRows: 2 }).ask());
    expect(Object.keys(table.cells)).toHaveLength(2);
    expect(table.truncated).toBe(true);
  });

  it('says the server refused, in its words, when listing the kind is forbidden (403)', async () => {
    const { cluster } = await certificateCluster(['web']);
    cluster.server.faults.failRequests({ status: 403, match: (_method, path) => path.includes('/certificates') });
    const result = await feature(cluster).ask();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('forbidden');
    expect(result.error.message).toBe('The printer columns of certificates.cert-manager.io could not be read (403 Forbidden): User "system:anonymous" cannot get path "/apis/cert-manager.io/v1/certificates" (injected fault)');
  });

  it("passes on the API server's 500 when the kind's conversion webhook fails", async () => {
    const { cluster } = await certificateCluster(['web']);
    cluster.server.faults.failConversion({ group: 'cert-manager.io', version: 'v1', plural: 'certificates', kind: 'Certificate' });
    const result = await feature(cluster).ask();
    expect(result).toEqual({
      ok: false,
      error: {
        code: 'unavailable',
        message:
          'The printer columns of certificates.cert-manager.io could not be read (500 Internal Server Error): conversion webhook for cert-manager.io/v1, Kind=Certificate failed: Post "https://certificates-conversion.default.svc:443/convert?timeout=30s": service "certificates-conversion" not found',
      },
    });
  });

  it('gives up on a server that does not answer in time, and answers again once it does', async () => {
    const { cluster, uids } = await certificateCluster(['web']);
    cluster.server.faults.delayRequests(1_000, (_method, path) => path.includes('/certificates'));
    const tables = feature(cluster, { timeoutMs: 100 });
    expect(await tables.ask()).toEqual({ ok: false, error: { code: 'unavailable', message: 'The printer columns of certificates.cert-manager.io did not arrive within 100 ms; the server is slow or the kind is very large.' } });
    cluster.server.faults.clear();
    expect(Object.keys(value(await tables.ask()).cells)).toEqual(uids);
  });

  it('refuses a kind discovery did not find, and an opened snapshot, without asking the server', async () => {
    const { cluster } = await certificateCluster([]);
    const tables = feature(cluster);
    expect(await tables.ask('issuers.cert-manager.io')).toEqual({ ok: false, error: { code: 'not-found', message: 'Discovery found no kind "issuers.cert-manager.io" in the context "kind-dev".' } });
    tables.switchTo('snapshot: kind-dev', { readOnly: true });
    expect(await tables.ask()).toEqual({ ok: false, error: { code: 'unavailable', message: 'An opened snapshot has no API server to print columns.' } });
    expect(tables.made).toHaveLength(0);
  });

  it('reuses one transport per context and makes a new one after a context switch', async () => {
    const { cluster } = await certificateCluster(['web']);
    const tables = feature(cluster);
    value(await tables.ask());
    value(await tables.ask());
    expect(tables.made).toHaveLength(1);
    tables.switchTo('kind-prod');
    expect(value(await tables.ask()).context).toBe('kind-prod');
    expect(tables.made).toHaveLength(2);
  });
});
