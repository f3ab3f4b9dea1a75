// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import type { SeriesResult } from '../../../../shared/contracts/history.ts';
import { err, ok, type Result } from '../../../../shared/result.ts';
import { useHistoryStore } from '../../../../renderer/stores/history.ts';
import { describeRecording } from '../../../../renderer/stores/history/recording.ts';
import type { Handlers } from '../fake-api.ts';
import { STATUS, stuckRollout } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

useRendererTest({ hash: '#/overview' });

function start(handlers: Handlers = {}) {
  const api = installApi({ 'history:status': () => ok(STATUS), ...handlers });
  return { api, store: useHistoryStore() };
}

/** A promise the test resolves by hand, to answer requests out of order. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('history store', () => {
  it('loads the recording status, then follows the stream', async () => {
    const { api, store } = start();
    await flushPromises();
    expect(store.status).toEqual(STATUS);
    expect(store.recording.tone).toBe('recording');
    api.emit('history:status', { ...STATUS, state: 'paused', message: 'disk full' });
    expect(store.recording.text).toBe('Recording paused: disk full');
    expect(store.recording.readable).toBe(true);
  });

  it('says history is unavailable when the engine has no recorder', async () => {
    const { store } = start({ 'history:status': () => err('unavailable', 'History is not recorded yet') });
    await flushPromises();
    expect(store.status).toBeNull();
    expect(store.recording).toMatchObject({ tone: 'unavailable', readable: false });
    expect(store.recording.detail).toBe('History is not recorded yet.');
  });

  it('keeps only the answer to the latest series request, whatever order answers come in', async () => {
    const answers = [deferred<Result<SeriesResult>>(), deferred<Result<SeriesResult>>()];
    let call = 0;
    const { store } = start({ 'history:series': () => answers[call++]!.promise });
    const first = store.series.run({ uid: 'a', from: 0, to: 10 });
    const second = store.series.run({ uid: 'b', from: 0, to: 10 });
    expect(store.series.loading).toBe(true);
    const newer = { ...stuckRollout(), from: 1 };
    answers[1]!.resolve(ok(newer));
    await second;
    expect(store.series.data).toEqual(newer);
    expect(store.series.request).toEqual({ uid: 'b', from: 0, to: 10 });
    answers[0]!.resolve(ok(stuckRollout()));
    await first;
    expect(store.series.data).toEqual(newer);
    expect(store.series.loading).toBe(false);
  });

  it('keeps the last data and reports the error of a failed request; cancel drops the one in flight', async () => {
    let fail = false;
    const pending = deferred<Result<SeriesResult>>();
    let hold = false;
    const { store } = start({ 'history:series': () => (hold ? pending.promise : fail ? err('not-found', 'no such workload') : ok(stuckRollout())) });
    await store.series.run({ uid: 'a', from: 0, to: 10 });
    fail = true;
    await store.series.run({ uid: 'zzz', from: 0, to: 10 });
    expect(store.series.error).toEqual({ code: 'not-found', message: 'no such workload' });
    expect(store.series.data).toEqual(stuckRollout());
    hold = true;
    const run = store.series.run({ uid: 'a', from: 0, to: 10 });
    store.series.cancel();
    expect(store.series.loading).toBe(false);
    pending.resolve(err('internal', 'late'));
    await run;
    expect(store.series.error).toBeNull();
  });

  it('forgets the queries of the previous context when the status names another one', async () => {
    const { api, store } = start({ 'history:series': () => ok(stuckRollout()) });
    await flushPromises();
    await store.series.run({ uid: 'a', from: 0, to: 10 });
    expect(store.series.data).not.toBeNull();
    api.emit('history:status', { ...STATUS, context: 'prod' });
    await flushPromises();
    expect(store.series.data).toBeNull();
  });
});

describe('describeRecording', () => {
  it('words every state', () => {
    expect(describeRecording(null, null).tone).toBe('loading');
    expect(describeRecording(null, { code: 'transport', message: 'link down' }).text).toBe('History status unknown');
    expect(describeRecording({ ...STATUS, state: 'error', message: 'database is malformed' }, null)).toMatchObject({ tone: 'error', text: 'History error: database is malformed', readable: false });
    expect(describeRecording({ ...STATUS, state: 'off', context: null, since: null }, null)).toMatchObject({ tone: 'off', readable: false });
    expect(describeRecording(STATUS, null).detail).toContain('48,000 samples, 37 drift episodes, 12 MiB on disk');
  });

  it('says a recording the shared store does not take (another recorder writes the context) is on this computer only, with the reason', () => {
    const message = "The shared history store kubedrift@db:5432/history already has a recorder for kind-dev: kubedrift record on node-3 (pid 7) is writing it. Only one recorder may write a context's history, so this one records into this computer's history file only, and the timeline shows what the shared store holds.";
    expect(describeRecording({ ...STATUS, message }, null)).toEqual({ tone: 'paused', text: 'Recording on this computer only', detail: `${message} (48,000 samples, 37 drift episodes, 12 MiB on disk)`, readable: true });
  });
});
