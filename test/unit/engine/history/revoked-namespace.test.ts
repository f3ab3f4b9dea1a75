/**
 * Issue #18's revoked namespace, end to end in the engine: the demo's developer watches shop and
 * payments through the real access checks and informers, the history records them, and the
 * payments RoleBinding is deleted while it runs. payments/payments-api leaves the live cache but
 * the history does not call it deleted: it records the stretch it was out of view (a gap on its
 * chart), and when the binding is granted again the same uid goes on after the gap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '../informers/helpers.ts';
import { GAP_MS, startRevoked, type Revoked } from './revoked-harness.ts';

let revoked: Revoked | undefined;
afterEach(async () => {
  await revoked?.stop();
  revoked = undefined;
});

describe('history of a namespace whose access is revoked while the app runs', () => {
  it('keeps its workload (not deleted), records a gap while it is out of view, and goes on with the same uid when access returns', async () => {
    revoked = await startRevoked();
    const { recording, from, uid, paymentsApi } = revoked;
    const row = () => recording.db.prepare('SELECT deleted_at FROM workloads WHERE uid = ?').get(uid) as { deleted_at: number | null };
    const stretches = () => recording.db.prepare('SELECT u.start_at AS start, u.end_at AS "end" FROM unobserved u JOIN workloads w ON w.id = u.workload_id WHERE w.uid = ?').all(uid) as Array<{ start: number; end: number | null }>;
    expect(row().deleted_at).toBeNull();
    expect(stretches()).toEqual([{ start: expect.any(Number), end: null }]);
    // shop's workloads stayed in view.
    expect(recording.episodes.episodes({ from, to: Date.now(), namespace: 'shop' }).workloadGaps).toEqual([]);

    await new Promise((resolve) => setTimeout(resolve, 2 * GAP_MS));
    await revoked.grantAgain();
    await waitFor('payments-api back', () => paymentsApi() !== undefined, 10_000);
    expect(paymentsApi()?.metadata.uid).toBe(uid);
    await recording.flush();

    expect(row().deleted_at).toBeNull();
    const [stretch] = stretches();
    expect(stretch?.end).not.toBeNull();
    const series = recording.series({ uid, from, to: Date.now() });
    expect(series?.gaps).toEqual([{ start: stretch?.start, end: stretch?.end, reason: 'access-withdrawn' }]);
    expect(recording.episodes.episodes({ from, to: Date.now(), namespace: 'payments' }).workloadGaps.map((gap) => gap.uid)).toContain(uid);
  });
});
