// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { ResponseOf } from '../../../../shared/contract.ts';
import { err, ok, type Result } from '../../../../shared/result.ts';
import { useContextsStore } from '../../../../renderer/stores/contexts.ts';
import { STATE_PAGE_SIZE, useTimeTravelStore } from '../../../../renderer/stores/time-travel.ts';
import { deployment, replicaSet } from '../cluster-fixtures.ts';
import { CONTEXT_LIST, type Handlers } from '../fake-api.ts';
import { installApi, useRendererTest } from '../setup.ts';

type Page = Result<ResponseOf<'history:state-at'>>;

useRendererTest({ hash: '#/overview' });

const AT = Date.UTC(2025, 4, 3, 14, 3, 12);
const objects: SlimObject[] = Array.from({ length: 5 }, (_, index) => deployment(`app-${index}`));

/** Serves `list` in pages of `size` (ignoring the requested limit, as a small engine page would). */
function pagesOf(list: SlimObject[], size: number): Handlers['history:state-at'] {
  return ({ at, offset }) => {
    const end = Math.min(list.length, offset + size);
    return ok({ at, total: list.length, objects: list.slice(offset, end), nextOffset: end < list.length ? end : null });
  };
}

function start(handlers: Handlers) {
  const api = installApi(handlers);
  return { api, store: useTimeTravelStore() };
}

describe('time-travel store', () => {
  it('loads the state at T page by page with progress, then offers it like the live store', async () => {
    const { api, store } = start({ 'history:state-at': pagesOf(objects, 2) });
    const seen: Array<{ loaded: number; total: number | null } | null> = [];
    const loading = store.load(AT);
    expect(store.at).toBe(AT);
    expect(store.loading).toBe(true);
    seen.push(store.progress);
    await loading;
    expect(store.loading).toBe(false);
    expect(store.objects).toHaveLength(5);
    expect(store.progress).toEqual({ loaded: 5, total: 5 });
    const pages = api.calls.filter((call) => call.channel === 'history:state-at').map((call) => call.payload);
    expect(pages).toEqual([0, 2, 4].map((offset) => ({ at: AT, offset, limit: STATE_PAGE_SIZE })));
    expect([...store.source.objects('deployments.apps').keys()]).toEqual(objects.map((object) => object.metadata.uid));
    expect(store.source.objects('replicasets.apps').size).toBe(0);
    expect(store.source.changedSince('deployments.apps', 0)).toBeNull();
    expect(seen[0]).toEqual({ loaded: 0, total: null });
  });

  it('bumps the revision per load, so views rebuild their rows', async () => {
    const { store } = start({ 'history:state-at': pagesOf([replicaSet('rs-1')], 10) });
    await store.load(AT);
    const first = store.source.revision('replicasets.apps');
    await store.load(AT - 1000);
    expect(store.source.revision('replicasets.apps')).toBeGreaterThan(first);
  });

  it('reports a failed page clearly and retries the same moment', async () => {
    let failing = true;
    const { store } = start({ 'history:state-at': (payload) => (failing && payload.offset > 0 ? err('unavailable', 'no keyframe before this time') : pagesOf(objects, 2)!(payload)) });
    await store.load(AT);
    expect(store.loading).toBe(false);
    expect(store.objects).toBeNull();
    expect(store.error).toBe('The cluster at this time cannot be rebuilt: no keyframe before this time');
    failing = false;
    await store.retry();
    expect(store.error).toBeNull();
    expect(store.objects).toHaveLength(5);
  });

  it('abandons a load when another moment is chosen or when going back to live', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const serve = pagesOf(objects, 2)!;
    const { store } = start({ 'history:state-at': async (payload) => {
      if (payload.at === AT) await gate;
      return serve(payload) as Page;
    } });
    const old = store.load(AT);
    const newer = store.load(AT + 5000);
    await newer;
    expect(store.at).toBe(AT + 5000);
    release();
    await old;
    expect(store.at).toBe(AT + 5000);
    expect(store.objects).toHaveLength(5);
    store.live();
    expect(store.at).toBeNull();
    expect(store.objects).toBeNull();
    expect(store.progress).toBeNull();
  });

  it('stops instead of looping when the engine pages without moving forward', async () => {
    const { api, store } = start({ 'history:state-at': ({ at }) => ok({ at, total: 10, objects: [deployment('same')], nextOffset: 0 }) });
    await store.load(AT);
    expect(api.calls.filter((call) => call.channel === 'history:state-at')).toHaveLength(1);
    expect(store.loading).toBe(false);
  });

  it('goes back to live when another context is selected', async () => {
    const { api, store } = start({ 'history:state-at': pagesOf(objects, 10) });
    const contexts = useContextsStore();
    await flushPromises();
    await store.load(AT);
    api.emit('contexts:changed', { ...CONTEXT_LIST, selected: 'staging-eu' });
    await flushPromises();
    expect(contexts.selected).toBe('staging-eu');
    expect(store.at).toBeNull();
  });
});
