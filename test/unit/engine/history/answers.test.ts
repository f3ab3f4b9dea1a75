/**
 * The history answers the app and a recorder's history server share (answers.ts): checks,
 * paging and messages naming the context the way each caller does.
 */
import { describe, expect, it } from 'vitest';
import { answerEpisode, answerSeries, answerStateAt, type RecordedHistory } from '../../../../electron/engine/history/answers.ts';
import { BeforeStateLogError } from '../../../../electron/engine/history/state-at.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';

const SINCE = Date.UTC(2026, 10, 28, 8, 0, 0);
const objects = Array.from({ length: 5 }, (_, i) => ({ metadata: { uid: `u${i}`, name: `pod-${i}`, namespace: 'shop', resourceVersion: '1' } }) as unknown as SlimObject);

function history(where: string, objectsAt: (at: number) => Promise<SlimObject[]> = () => Promise.resolve(objects)): RecordedHistory {
  return {
    where,
    since: () => SINCE,
    series: () => undefined,
    episodes: () => ({ from: 0, to: 0, episodes: [], truncated: false, driftCount: [] }),
    episode: () => undefined,
    compare: () => [],
    objectsAt,
  } as unknown as RecordedHistory;
}

describe('history answers', () => {
  it('refuses a backwards range, and names the context in what it cannot find', () => {
    expect(answerSeries(history('this context'), { uid: 'w', from: 2, to: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
    expect(answerSeries(history('prod-eu'), { uid: 'w', from: 1, to: 2 })).toEqual({ ok: false, error: { code: 'not-found', message: 'Nothing is recorded for workload w in prod-eu.' } });
    expect(answerEpisode(history('this context'), 7)).toEqual({ ok: false, error: { code: 'not-found', message: 'There is no drift episode 7 in this context (retention may have removed it).' } });
  });

  it('pages the objects at a time, and says when the history starts for a time before it', async () => {
    expect(await answerStateAt(history('prod-eu'), { at: SINCE + 1, offset: 2, limit: 2 })).toEqual({ ok: true, value: { at: SINCE + 1, total: 5, objects: objects.slice(2, 4), nextOffset: 4 } });
    expect(await answerStateAt(history('prod-eu'), { at: SINCE + 1, offset: 4, limit: 2 })).toMatchObject({ ok: true, value: { objects: objects.slice(4), nextOffset: null } });
    const early = await answerStateAt(history('prod-eu'), { at: SINCE - 1, offset: 0, limit: 2 });
    expect(early).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringMatching(/^History of prod-eu starts at 2026-11-28T08:00:00\.000Z; 2026-11-28T07:59:59\.999Z is before that/) } });
  });

  it('says when the first state was recorded, and throws any other failure to its caller', async () => {
    const first = SINCE + 60_000;
    const before = await answerStateAt(history('prod-eu', () => Promise.reject(new BeforeStateLogError(first))), { at: SINCE + 1, offset: 0, limit: 2 });
    expect(before).toEqual({ ok: false, error: { code: 'not-found', message: `The first state of prod-eu is from ${new Date(first).toISOString()}, once every kind had been listed; ${new Date(SINCE + 1).toISOString()} is before that.` } });
    await expect(answerStateAt(history('prod-eu', () => Promise.reject(new Error('disk I/O error'))), { at: SINCE + 1, offset: 0, limit: 2 })).rejects.toThrow('disk I/O error');
  });
});
