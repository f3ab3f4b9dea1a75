/**
 * Coverage: sessions of observing a context, and the gaps between them with why they happened,
 * across an app close and reopen (the engine restarted over the same data directory), a context
 * switch, recording switched off, and a session that stopped without saying (a crash).
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineContext, SelectedContext } from '../../../../electron/engine/features.ts';
import { createCoverageQuery, startSession } from '../../../../electron/engine/history/coverage.ts';
import { historyFile, openHistoryDb } from '../../../../electron/engine/history/db.ts';
import { createHistoryFeature } from '../../../../electron/engine/history/index.ts';
import { GAP_MS } from '../../../../electron/engine/history/recorder.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import { EpisodeListSchema, SeriesResultSchema } from '../../../../shared/contracts/history.ts';
import type { Result } from '../../../../shared/result.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { deployment, manualClock } from './fixtures.ts';
import { harnessPerTest, type StoreHarness } from './harness.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;

describe('coverage of one store', () => {
  let h: StoreHarness;
  harnessPerTest((harness) => (h = harness));

  it('has no gap while recording, and says history had not started before the first session', () => {
    const start = h.clock.now();
    h.clock.advance(30 * MIN);
    h.store.tick();
    expect(h.store.gaps(start, h.clock.now())).toEqual([]);
    expect(h.store.gaps(start - 2 * HOUR, h.clock.now())).toEqual([{ start: start - 2 * HOUR, end: start, reason: 'not-yet' }]);
  });

  it('records the app closed over night as a gap, labelled, across a restart over the same file', async () => {
    const start = h.clock.now();
    h.clock.advance(10 * MIN);
    h.store.tick();
    const closedAt = h.clock.now();
    await h.restartAfter(14 * HOUR);
    const reopenedAt = h.clock.now();
    h.clock.advance(5 * MIN);
    expect(h.store.gaps(start, h.clock.now())).toEqual([{ start: closedAt, end: reopenedAt, reason: 'app-closed' }]);
    // A window inside the gap is all gap; a window after now has nothing to say.
    expect(h.store.gaps(closedAt + HOUR, closedAt + 2 * HOUR)).toEqual([{ start: closedAt + HOUR, end: closedAt + 2 * HOUR, reason: 'app-closed' }]);
    expect(h.store.gaps(h.clock.now() + MIN, h.clock.now() + HOUR)).toEqual([]);
  });

  it('records a lost connection as a gap until the cluster answers again', () => {
    const start = h.clock.now();
    h.clock.advance(5 * MIN);
    const lostAt = h.clock.now();
    h.store.connection(true);
    h.store.connection(true);
    h.clock.advance(20 * MIN);
    const backAt = h.clock.now();
    h.store.connection(false);
    h.clock.advance(5 * MIN);
    expect(h.store.gaps(start, h.clock.now())).toEqual([{ start: lostAt, end: backAt, reason: 'connection-lost' }]);
  });

  it('does not call a restart shorter than the recorder’s gap a gap (the episode went on)', async () => {
    const start = h.clock.now();
    await h.restartAfter(GAP_MS / 2);
    h.clock.advance(MIN);
    expect(h.store.gaps(start, h.clock.now())).toEqual([]);
  });

  it('answers the gaps with the series and the episodes, in the contract’s shape', async () => {
    const start = h.clock.now();
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: 1 }));
    await h.store.flush();
    await h.restartAfter(3 * HOUR);
    upsertBuiltin(h.cache, deployment('web', 'w', { ready: 1 }));
    await h.store.flush();
    const range = { from: start, to: h.clock.now() + MIN };
    const series = SeriesResultSchema.parse({ ...h.store.series({ uid: 'w', ...range }), since: h.store.since() });
    const list = EpisodeListSchema.parse({ ...h.store.episodes.episodes(range), since: h.store.since() });
    for (const answer of [series, list]) expect(answer.gaps).toEqual([{ start, end: start + 3 * HOUR, reason: 'app-closed' }]);
    // The episode open at close was closed there: it never spans the gap.
    expect(list.episodes.map((e) => e.end)).toEqual([start, null]);
  });
});

describe('a session that stopped without saying', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
  afterEach(() => cleanup());

  it('ends at its last mark, and the time after is a gap of a stopped app', () => {
    const clock = manualClock();
    const { db } = openHistoryDb(path.join(dir, 'h.sqlite'));
    const start = clock.now();
    const crashed = startSession(db, clock.now, 1_000);
    clock.advance(20 * MIN);
    crashed.mark();
    const lastAlive = clock.now();
    clock.advance(500);
    crashed.mark(); // within the mark interval: not written
    clock.advance(2 * HOUR);
    const restarted = clock.now();
    startSession(db, clock.now);
    clock.advance(MIN);
    const gaps = createCoverageQuery(db, { now: clock.now, live: () => true });
    expect(gaps(start, clock.now())).toEqual([{ start: lastAlive, end: restarted, reason: 'stopped' }]);
    db.close();
  });
});

describe('coverage through the history feature', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
  afterEach(() => cleanup());

  function engine(clock: ReturnType<typeof manualClock>) {
    const fake = fakeEngineContext({ now: clock.now });
    let selected: SelectedContext | null = null;
    const context: EngineContext = {
      ...fake.context,
      dataDir: path.join(dir, 'data'),
      settings: new SettingsStore(path.join(dir, 'data')),
      selected: () => selected,
      objectsAt: () => Promise.reject(new Error('none')),
      provideObjectsAt: () => undefined,
    };
    const feature = createHistoryFeature(context, { timing: { flushIntervalMs: 2 ** 30, heartbeatCheckMs: 2 ** 30, retryMs: 2 ** 30 }, statusIntervalMs: 2 ** 30 });
    return {
      feature,
      hub: fake.context.hub,
      cache: fake.cache,
      switchTo(name: string) {
        selected = { name, demo: false };
        fake.switchTo(name);
      },
    };
  }

  const value = <T,>(result: Result<T>): T => {
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  };

  it('labels a context switch, an app close and a lost connection, each with its own reason', async () => {
    const clock = manualClock();
    const first = engine(clock);
    await first.feature.start?.();
    first.switchTo('prod');
    const start = clock.now();
    clock.advance(10 * MIN);
    const switchedAt = clock.now();
    first.switchTo('staging');
    clock.advance(HOUR);
    const backAt = clock.now();
    first.switchTo('prod');
    clock.advance(10 * MIN);
    const closedAt = clock.now();
    await first.feature.dispose();
    expect(historyFile(path.join(dir, 'data'), 'prod')).toMatch(/prod-/);

    clock.advance(14 * HOUR);
    const reopenedAt = clock.now();
    const second = engine(clock);
    await second.feature.start?.();
    second.switchTo('prod');
    upsertBuiltin(second.cache, deployment('web', 'w'));
    clock.advance(MIN);
    // Every kind reconnecting: the connection is lost until one is live again.
    const lostAt = clock.now();
    second.hub.emit('cluster:health', { context: 'prod', epoch: 'e1', kinds: [{ kind: 'pods', state: 'reconnecting', count: 0, since: lostAt }] });
    clock.advance(10 * MIN);
    const answeredAt = clock.now();
    second.hub.emit('cluster:health', { context: 'prod', epoch: 'e1', kinds: [{ kind: 'pods', state: 'live', count: 0, since: answeredAt }] });
    clock.advance(MIN);
    const list = value(await second.feature.handlers['history:episodes']({ from: start, to: clock.now() }));
    expect(list.gaps).toEqual([
      { start: switchedAt, end: backAt, reason: 'context-switched' },
      { start: closedAt, end: reopenedAt, reason: 'app-closed' },
      { start: lostAt, end: answeredAt, reason: 'connection-lost' },
    ]);
    await second.feature.dispose();
  });
});
