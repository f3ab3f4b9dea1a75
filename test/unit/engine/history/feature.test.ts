import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EngineContext, ObjectsAt, SelectedContext } from '../../../../electron/engine/features.ts';
import { historyFile } from '../../../../electron/engine/history/db.ts';
import { createHistoryFeature } from '../../../../electron/engine/history/index.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import type { Result } from '../../../../shared/result.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { deployment, pod } from './fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));

function setup() {
  // The events feature's fake context (real cache and hub, a context switch like the engine's),
  // with a real data directory and settings file, and the provider the feature registers kept.
  const fake = fakeEngineContext({ now: Date.now });
  const settings = new SettingsStore(path.join(dir, 'data'));
  let provider: ObjectsAt | undefined;
  let selected: SelectedContext | null = null;
  const context: EngineContext = {
    ...fake.context,
    dataDir: path.join(dir, 'data'),
    settings,
    selected: () => selected,
    objectsAt: (at) => (provider ? provider(at) : Promise.reject(new Error('none'))),
    provideObjectsAt: (p) => (provider = p),
  };
  const statuses: HistoryStatus[] = [];
  fake.context.hub.listen((stream, payload) => stream === 'history:status' && statuses.push(payload as HistoryStatus));
  const feature = createHistoryFeature(context, { timing: { flushIntervalMs: 10 }, statusIntervalMs: 10 });
  return {
    context,
    cache: fake.cache,
    hub: fake.context.hub,
    settings,
    statuses,
    feature,
    switchTo(name: string, extra: { readOnly?: boolean } = {}): void {
      selected = { ...extra, name, demo: false };
      fake.switchTo(name, extra);
    },
    /** The informers of `name` have listed every kind (what the state log's first keyframe waits for). */
    listed(name: string): void {
      fake.context.hub.emit('cluster:health', { context: name, epoch: 'e1', kinds: [{ kind: 'Pod', state: 'live', count: 0, since: 0 }] });
    },
  };
}

let env: ReturnType<typeof setup>;
afterEach(async () => {
  await env.feature.dispose();
  await cleanup();
});

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ALL = { from: 0, to: Date.now() + 3_600_000 };

describe('history feature', () => {
  it('is off with a clear answer until a context is chosen', async () => {
    env = setup();
    await env.feature.start?.();
    expect(value(await env.feature.handlers['history:status']({}))).toMatchObject({ context: null, state: 'off' });
    expect(await env.feature.handlers['history:episodes'](ALL)).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/No context is selected/) } });
    await expect(env.context.objectsAt(Date.now())).rejects.toThrow(/No context is selected/);
  });

  it('records each context into its own database and keeps it across switches', async () => {
    env = setup();
    await env.feature.start?.();
    env.switchTo('prod');
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', state: 'recording' });
    upsertBuiltin(env.cache, deployment('web', 'w', { ready: 1 }));
    await sleep(60);
    expect(value(await env.feature.handlers['history:series']({ uid: 'w', ...ALL })).rawSamples).toBe(1);
    expect(value(await env.feature.handlers['history:episodes'](ALL)).episodes).toHaveLength(1);
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', samples: 1, episodes: 1 });

    env.switchTo('staging');
    expect(existsSync(historyFile(path.join(dir, 'data'), 'staging'))).toBe(true);
    expect(await env.feature.handlers['history:series']({ uid: 'w', ...ALL })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    env.switchTo('prod');
    expect(value(await env.feature.handlers['history:series']({ uid: 'w', ...ALL })).rawSamples).toBe(1);
    const id = value(await env.feature.handlers['history:episodes'](ALL)).episodes[0]?.id ?? -1;
    expect(value(await env.feature.handlers['history:episode']({ id })).workload.name).toBe('web');
    expect(await env.feature.handlers['history:episode']({ id: 999 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
    expect(await env.feature.handlers['history:series']({ uid: 'w', from: 10, to: 5 })).toMatchObject({ ok: false, error: { code: 'invalid-request' } });
  });

  it('records nothing, and creates no database, for an opened snapshot (a read-only context)', async () => {
    env = setup();
    await env.feature.start?.();
    env.switchTo('snapshot: prod @ 12:00', { readOnly: true });
    expect(env.statuses.at(-1)).toMatchObject({ context: 'snapshot: prod @ 12:00', state: 'off', message: expect.stringMatching(/offline snapshot/) });
    upsertBuiltin(env.cache, deployment('web', 'w', { ready: 1 }));
    await sleep(60);
    expect(existsSync(historyFile(path.join(dir, 'data'), 'snapshot: prod @ 12:00'))).toBe(false);
    expect(env.statuses.at(-1)).toMatchObject({ state: 'off', samples: 0 });
  });

  it('answers the cluster at a past time in pages, and refuses a time before the history', async () => {
    env = setup();
    await env.feature.start?.();
    env.switchTo('prod');
    env.listed('prod');
    for (let i = 0; i < 25; i++) upsertBuiltin(env.cache, pod(`p${i}`, `p${i}`, 'rs'));
    await sleep(60);
    const at = Date.now();
    await sleep(5);
    env.cache.delete('pods', 'p0');
    await sleep(60);
    const first = value(await env.feature.handlers['history:state-at']({ at, offset: 0, limit: 10 }));
    expect(first).toMatchObject({ at, total: 25, nextOffset: 10 });
    const last = value(await env.feature.handlers['history:state-at']({ at, offset: 20, limit: 10 }));
    expect(last.objects).toHaveLength(5);
    expect(last.nextOffset).toBeNull();
    expect((await env.context.objectsAt(Date.now() - 1)).objects).toHaveLength(24);
    expect((await env.context.objectsAt(at)).objects.map((o) => o.metadata.uid)).toContain('p0');
    expect(await env.feature.handlers['history:state-at']({ at: 1_000, offset: 0, limit: 10 })).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringMatching(/starts at/) } });
  });

  it('says when the first recorded state is from, for a time after the history began but before every kind was listed', async () => {
    env = setup();
    await env.feature.start?.();
    env.switchTo('prod');
    upsertBuiltin(env.cache, pod('p0', 'p0', 'rs'));
    await sleep(30);
    const at = Date.now();
    await sleep(5);
    const early = await env.feature.handlers['history:state-at']({ at, offset: 0, limit: 10 });
    expect(early).toMatchObject({ ok: false, error: { code: 'not-found', message: `The first state of this context is recorded once every kind has been listed; ${new Date(at).toISOString()} is before that.` } });
    env.listed('prod');
    await sleep(60);
    const later = await env.feature.handlers['history:state-at']({ at, offset: 0, limit: 10 });
    expect(later).toMatchObject({ ok: false, error: { code: 'not-found', message: expect.stringMatching(/^The first state of this context is from \S+Z, once every kind had been listed; \S+ is before that\.$/) } });
    expect(value(await env.feature.handlers['history:state-at']({ at: Date.now() - 1, offset: 0, limit: 10 })).total).toBe(1);
  });

  it('stops and restarts recording with the setting, and still answers queries while off', async () => {
    env = setup();
    await env.settings.load();
    await env.feature.start?.();
    env.switchTo('prod');
    upsertBuiltin(env.cache, deployment('web', 'w'));
    await sleep(60);
    env.hub.emit('settings:changed', await env.settings.update({ historyRecording: false }));
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', state: 'off' });
    upsertBuiltin(env.cache, deployment('web', 'w', { ready: 0 }));
    await sleep(60);
    expect(value(await env.feature.handlers['history:series']({ uid: 'w', ...ALL })).rawSamples).toBe(1);
    env.hub.emit('settings:changed', await env.settings.update({ historyRecording: true }));
    expect(env.statuses.at(-1)).toMatchObject({ state: 'recording' });
    await sleep(60);
    expect(value(await env.feature.handlers['history:series']({ uid: 'w', ...ALL })).rawSamples).toBe(2);
  });

  it('starts with recording off when the settings file says so', async () => {
    env = setup();
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    writeFileSync(path.join(dir, 'data', 'settings.json'), JSON.stringify({ historyRecording: false }));
    // As the engine does: settings are loaded, then the features start.
    await env.settings.load();
    await env.feature.start?.();
    env.switchTo('prod');
    upsertBuiltin(env.cache, deployment('web', 'w'));
    await sleep(60);
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', state: 'off', samples: 0 });
  });

  it('reports a database it cannot open and keeps the live cache going', async () => {
    env = setup();
    await env.feature.start?.();
    // A file where the history directory should be: nothing can be created under it.
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(path.join(dir, 'data'), { recursive: true });
    writeFileSync(path.join(dir, 'data', 'history'), 'not a directory');
    env.switchTo('prod');
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', state: 'error', message: expect.stringMatching(/cannot be opened/) });
    upsertBuiltin(env.cache, deployment('web', 'w'));
    expect(env.cache.size()).toBe(1);
    expect(await env.feature.handlers['history:episodes'](ALL)).toMatchObject({ ok: false, error: { code: 'unavailable', message: expect.stringMatching(/cannot be opened/) } });
  });
});
