import { describe, expect, it } from 'vitest';
import { isDiskFull } from '../../../../electron/engine/history/db.ts';
import { deployment, pod } from './fixtures.ts';
import { MANUAL_TIMING, harnessPerTest, type StoreHarness } from './harness.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let h: StoreHarness;
harnessPerTest((next) => (h = next), { timing: { ...MANUAL_TIMING, retryMs: 25 } });

async function until(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A big pod (incompressible annotation) so a flush needs new pages. */
function bigPod(i: number) {
  const p = pod(`p${i}`, `p${i}`, 'rs');
  p.metadata.annotations = { blob: Array.from({ length: 400 }, (_, k) => ((i * 7919 + k * 104_729) % 1_000_003).toString(36)).join('') };
  return p;
}

const pages = () => (h.store.db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count;

describe('a full disk', () => {
  it('pauses recording with a message, keeps the live cache and the queries working, and resumes', async () => {
    const t0 = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'w'));
    h.store.synced();
    await h.store.flush();
    const keyframes = () => (h.store.db.prepare('SELECT count(*) AS n FROM keyframes WHERE complete = 1').get() as { n: number }).n;
    await until(() => keyframes() === 1, 'the first keyframe');
    // The disk fills up: SQLite may not grow the file by one more page.
    h.store.db.exec(`PRAGMA max_page_count = ${pages()}`);
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: 1 }));
    for (let i = 0; i < 50; i++) upsertBuiltin(h.cache, bigPod(i));
    await h.store.flush();
    const paused = h.statuses.at(-1);
    expect(paused?.state).toBe('paused');
    expect(paused?.message).toMatch(/disk is full/);
    expect(h.logs.some((line) => /paused: the disk is full/.test(line))).toBe(true);

    // The live side never noticed: the cache keeps taking changes, queries answer from what was kept.
    h.clock.advance(1_000);
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: 0 }));
    expect(h.cache.size()).toBe(51);
    expect(h.store.series({ uid: 'w', from: t0, to: h.clock.now() })?.series.find((s) => s.name === 'ready')?.points).toEqual([[t0, 2]]);

    // Space again: the retry writes the current state and a keyframe, and recording goes on.
    h.store.db.exec('PRAGMA max_page_count = 1073741823');
    await until(() => h.statuses.at(-1)?.state === 'recording', 'recording to resume');
    expect(h.statuses.at(-1)?.message).toBeUndefined();
    const resumedAt = h.clock.now();
    expect(h.store.series({ uid: 'w', from: t0, to: resumedAt })?.series.find((s) => s.name === 'ready')?.points).toEqual([
      [t0, 2],
      [resumedAt, 0],
    ]);
    await until(() => keyframes() > 1, 'a keyframe after the resumption');
    expect((await h.store.objectsAt(resumedAt + 1)).filter((o) => o.kind === 'Pod')).toHaveLength(50);
  });

  it('recognises a full disk however it is reported', () => {
    expect(isDiskFull(Object.assign(new Error('database or disk is full'), { errcode: 13 }))).toBe(true);
    expect(isDiskFull(Object.assign(new Error('disk I/O error'), { errcode: 10 | (4 << 8) }))).toBe(false);
    expect(isDiskFull(new Error("ENOSPC: no space left on device, write"))).toBe(true);
    expect(isDiskFull(new Error('database is locked'))).toBe(false);
  });
});
