/**
 * The wiring, as the engine runs it: the causes feature pushes `causes:changed` on the hub, the
 * history feature hears it and the open episode keeps the cause; neither feature knows the other.
 * A push for another context is ignored.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCausesFeature } from '../../../../electron/engine/causes/feature.ts';
import type { EngineContext, SelectedContext } from '../../../../electron/engine/features.ts';
import { createHistoryFeature } from '../../../../electron/engine/history/index.ts';
import { SettingsStore } from '../../../../electron/engine/settings.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { Episode } from '../../../../shared/contracts/history.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { deployment, event, IMAGE, pod, replicaSet } from '../causes/fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

let dir: string;
let cleanup: () => Promise<void>;
let dispose: Array<() => unknown> = [];
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => {
  for (const stop of dispose) await stop();
  dispose = [];
  await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const PULL_FAILED = `Failed to pull image "${IMAGE}": rpc error: code = NotFound desc = failed to pull and unpack image "${IMAGE}": failed to resolve reference "${IMAGE}": ${IMAGE}: not found`;

/** The history feature, and the causes feature beside it unless the test pushes causes itself. */
function setup(options: { causesFeature?: boolean } = {}) {
  const fake = fakeEngineContext({ now: Date.now });
  let selected: SelectedContext | null = null;
  const context: EngineContext = {
    ...fake.context,
    dataDir: path.join(dir, 'data'),
    settings: new SettingsStore(path.join(dir, 'data')),
    selected: () => selected,
    provideObjectsAt: () => undefined,
  };
  const history = createHistoryFeature(context, { timing: { flushIntervalMs: 10 }, statusIntervalMs: 10 });
  const causes = options.causesFeature === false ? undefined : createCausesFeature(context, { intervalMs: 10 });
  dispose.push(() => causes?.dispose?.(), () => history.dispose?.());
  return {
    context,
    cache: fake.cache,
    history,
    async start(name: string) {
      await history.start?.();
      selected = { name, demo: false };
      fake.switchTo(name);
    },
    async episodes(): Promise<Episode[]> {
      const result = await history.handlers['history:episodes']({ from: 0, to: Date.now() + 3_600_000 });
      if (!result.ok) throw new Error(result.error.message);
      return result.value.episodes;
    },
  };
}

let version = 70_000;
const put = (cache: Parameters<typeof upsertBuiltin>[0], object: SlimObject) => upsertBuiltin(cache, { ...object, metadata: { ...object.metadata, resourceVersion: String((version += 1)) } } as SlimObject);

describe('history hears the causes feature', () => {
  it("keeps the cause the causes feature pushed on the episode it belongs to", async () => {
    const env = setup();
    await env.start('prod');
    const catalog = deployment('catalog', { replicas: 1, status: { updatedReplicas: 1, readyReplicas: 0, availableReplicas: 0, unavailableReplicas: 1 } });
    const rs = replicaSet(catalog, 2, { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
    const broken = pod(rs, 'x1', { ready: false, phase: 'Pending', containerStatuses: [{ name: 'catalog', image: IMAGE, imageID: '', ready: false, restartCount: 0, started: false, state: { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${IMAGE}"` } } }] });
    for (const object of [catalog, rs, broken, event(broken, 'Failed', PULL_FAILED, { first: 40, fieldPath: 'spec.containers{catalog}' })]) put(env.cache, object);
    let episode: Episode | undefined;
    for (let i = 0; i < 100 && !episode?.causes; i += 1) {
      await sleep(20);
      episode = (await env.episodes()).find((candidate) => candidate.workload.uid === catalog.metadata.uid);
    }
    expect(episode?.causes?.map((cause) => [cause.code, cause.sentence, cause.evidence?.name])).toEqual([['image-pull', `1 pod can't pull ${IMAGE}: not found`, broken.metadata.name]]);
  });

  it('ignores a push about another context', async () => {
    const env = setup({ causesFeature: false });
    await env.start('prod');
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
    put(env.cache, catalog);
    const report = { target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'storefront', name: 'catalog', uid: catalog.metadata.uid }, causes: [{ code: 'crash-loop' as const, sentence: 'from elsewhere', evidence: [], chain: [] }] };
    env.context.hub.emit('causes:changed', { context: 'staging', revision: 99, at: Date.now(), reports: [report] });
    await sleep(80);
    const [episode] = await env.episodes();
    expect(episode?.workload.uid).toBe(catalog.metadata.uid);
    expect(episode?.causes?.some((cause) => cause.sentence === 'from elsewhere') ?? false).toBe(false);
  });
});

describe('history opened after the causes were pushed', () => {
  it('gives the open episode the cause the causes feature pushed before recording began', async () => {
    const env = setup({ causesFeature: false });
    await env.start('prod');
    await env.context.settings.update({ historyRecording: false });
    env.context.hub.emit('settings:changed', env.context.settings.get());
    const catalog = deployment('catalog', { replicas: 1, status: { readyReplicas: 0, availableReplicas: 0 } });
    put(env.cache, catalog);
    const report = { target: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'storefront', name: 'catalog', uid: catalog.metadata.uid }, causes: [{ code: 'crash-loop' as const, sentence: 'container catalog keeps crashing', evidence: [], chain: [] }] };
    // The last push before recording is switched on; the cluster does not change after it.
    env.context.hub.emit('causes:changed', { context: 'prod', revision: 7, at: Date.now(), reports: [report] });
    await env.context.settings.update({ historyRecording: true });
    env.context.hub.emit('settings:changed', env.context.settings.get());
    await sleep(80);
    const episode = (await env.episodes()).find((candidate) => candidate.workload.uid === catalog.metadata.uid);
    expect(episode?.causes?.map((cause) => cause.sentence)).toEqual(['container catalog keeps crashing']);
  });
});
