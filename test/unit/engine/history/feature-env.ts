/**
 * The history feature (history/index.ts) on a fake engine context, with a real settings store
 * in `dataDir` and fast timing: what the shared-store and takeover-setting tests drive.
 */
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { EngineContext, SelectedContext } from '../../../../electron/engine/features.ts';
import { createHistoryFeature } from '../../../../electron/engine/history/index.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import type { HistoryStatus } from '../../../../shared/contracts/history.ts';
import type { Settings } from '../../../../shared/model.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

/** Starts the feature with `settings` saved first; nothing is selected until `switchTo`. */
export async function startHistoryFeature(dataDir: string, settings: Partial<Settings>) {
  const fake = fakeEngineContext({ now: Date.now });
  const store = new SettingsStore(path.join(dataDir, 'data'));
  await store.update(settings);
  let selected: SelectedContext | null = null;
  const context: EngineContext = { ...fake.context, dataDir: path.join(dataDir, 'data'), settings: store, selected: () => selected, provideObjectsAt: () => undefined };
  const statuses: HistoryStatus[] = [];
  fake.context.hub.listen((stream, payload) => stream === 'history:status' && statuses.push(payload as HistoryStatus));
  const feature = createHistoryFeature(context, { timing: { flushIntervalMs: 10 }, statusIntervalMs: 10 });
  feature.start?.();
  return {
    feature,
    cache: fake.cache,
    hub: fake.context.hub,
    settings: store,
    statuses,
    switchTo(name: string): void {
      selected = { name, demo: false };
      fake.switchTo(name);
    },
    dispose: async () => feature.dispose?.(),
  };
}

/** A temporary directory per test, and the feature started in it (by the returned function) disposed after the test. */
export function historyFeaturePerTest(): (settings: Partial<Settings>) => ReturnType<typeof startHistoryFeature> {
  let dir = '';
  let cleanup: (() => Promise<void>) | undefined;
  let dispose: (() => Promise<void>) | undefined;
  beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
    await cleanup?.();
  });
  return async (settings) => {
    const env = await startHistoryFeature(dir, settings);
    dispose = env.dispose;
    return env;
  };
}
