/** The access connection renews its credentials once on a 401, against the simulator's real authentication (a server that requires tokens, so an unknown one gets 401). */
import { afterEach, describe, expect, it } from 'vitest';
import { accessReview } from '../../../../../electron/engine/cluster/access/api.ts';
import { renewingApi, type AccessConnection } from '../../../../../electron/engine/cluster/access/connect.ts';
import { createApiClient, type ApiClient } from '../../../../../electron/engine/diff/cluster/client.ts';
import { startSimCluster, type SimCluster } from '../../../../../electron/engine/simcluster/index.ts';
import type { KubeconfigDocument } from '../../../../../electron/engine/simcluster/server/kubeconfig.ts';

let sim: SimCluster | undefined;
let connection: AccessConnection | undefined;
afterEach(async () => {
  connection?.close();
  await sim?.stop();
  connection = undefined;
  sim = undefined;
});

/** The user's kubeconfig with another bearer token. */
function withToken(config: KubeconfigDocument, token: string): KubeconfigDocument {
  const copy = structuredClone(config);
  (copy.users[0] as { user: object }).user = { token };
  return copy;
}

describe('the access connection', () => {
  it('makes a new client after a 401 and asks again, once for requests failing together', async () => {
    sim = await startSimCluster({ scenario: 'demo', controllers: false, tls: false, token: 'sim-admin-token', users: [{ name: 'dev', role: 'view', namespaces: ['shop'] }], onError: () => {} });
    const good = sim.userKubeconfigObject('dev');
    const configs = [withToken(good, 'expired-token'), good];
    const made: ApiClient[] = [];
    connection = await renewingApi(async () => {
      const client = await createApiClient(configs.shift() ?? good);
      made.push(client);
      return client;
    });
    const answers = await Promise.all([
      accessReview(connection, { verb: 'list', group: '', resource: 'pods', namespace: 'shop' }),
      accessReview(connection, { verb: 'list', group: '', resource: 'pods', namespace: 'platform' }),
    ]);
    expect(answers.map((a) => a.allowed)).toEqual([true, false]);
    expect(made).toHaveLength(2);
  });

  it('gives the second 401 back when the fresh credentials are refused too', async () => {
    sim = await startSimCluster({ scenario: 'minimal', controllers: false, tls: false, token: 'sim-admin-token', users: [{ name: 'dev', role: 'none' }], onError: () => {} });
    let makes = 0;
    connection = await renewingApi(() => {
      makes += 1;
      return createApiClient(withToken((sim as SimCluster).userKubeconfigObject('dev'), 'revoked-token'));
    });
    const response = await connection.request('GET', '/api/v1/namespaces');
    expect(response).toMatchObject({ status: 401, body: { kind: 'Status', reason: 'Unauthorized' } });
    expect(makes).toBe(2);
  });
});
