/**
 * Issue #20 against the demo with its developer user: payments' RoleBinding is deleted while the
 * app records, payments/payments-api is deleted while the developer cannot see it, and the binding
 * is granted again. When payments is listed again without it, the history closes its stretch out
 * of view there (it no longer grows to "now"), marks it gone (deleted at an unknown moment within
 * the stretch) and says so on its gap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../informers/helpers.ts';
import { GAP_MS, startRevoked, type Revoked } from './revoked-harness.ts';

let revoked: Revoked | undefined;
afterEach(async () => {
  await revoked?.stop();
  revoked = undefined;
});

describe('a workload deleted while its namespace could not be read', () => {
  it('closes its stretch out of view when the namespace is listed again without it, as a deletion within the stretch', async () => {
    revoked = await startRevoked();
    const { admin, cluster, recording, from, uid, paymentsApi } = revoked;
    // Deleted while the developer cannot see it.
    expect((await admin.request('DELETE', '/apis/apps/v1/namespaces/payments/deployments/payments-api')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));

    await revoked.grantAgain();
    await waitFor('payments listed again', () => cluster.accessState().summary?.namespaces.join() === 'payments,shop' && cluster.cache.list('deployments.apps').some((d) => d.metadata.namespace === 'payments'), 10_000);
    await recording.flush();
    const stretches = () => recording.db.prepare('SELECT u.start_at AS start, u.end_at AS "end", u.gone FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE w.uid = ?').all(uid) as Array<{ start: number; end: number | null; gone: number | null }>;
    await waitFor('the stretch closed', () => {
      void recording.flush();
      return stretches()[0]?.end !== null;
    }, 10_000);
    const [stretch] = stretches();
    expect(stretch?.gone).toBe(1);
    expect(paymentsApi()).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));
    const gaps = recording.series({ uid, from, to: Date.now() })?.gaps;
    // It ends where payments was read again, not at "now".
    expect(gaps).toEqual([{ start: stretch?.start, end: stretch?.end, reason: 'access-withdrawn', deletedWithin: true }]);
  });
});
