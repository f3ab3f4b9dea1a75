/**
 * A background recorder's list worker starts as the connect does, before the server is probed
 * (it loads for ~140 ms before it can decode the first pages), and the recorder, which owns it,
 * ends it whether the probe fails or the recorder stops while its informers are trying to list.
 * After a failed probe, the retries start none until a probe succeeds.
 */
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { startContextRecorder, type ContextRecorder, type ContextRecorderOptions } from '../../../../electron/engine/background/context-recorder.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

/** Nothing listens on port 1: the informers' lists fail and retry until stopped. */
const CONFIG = {
  apiVersion: 'v1',
  kind: 'Config',
  clusters: [{ name: 'c', cluster: { server: 'http://127.0.0.1:1' } }],
  users: [{ name: 'u', user: { token: 't' } }],
  contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
  'current-context': 'x',
};

let recorder: ContextRecorder | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await recorder?.stop();
  await cleanup?.();
  recorder = cleanup = undefined;
});

/** Workers made from now on, and which of them have exited. */
function watchWorkers(): { made: Worker[]; exited: Set<Worker>; stop(): void } {
  const made: Worker[] = [];
  const exited = new Set<Worker>();
  const onWorker = (worker: Worker): void => {
    made.push(worker);
    worker.once('exit', () => exited.add(worker));
  };
  process.on('worker', onWorker);
  return { made, exited, stop: () => process.off('worker', onWorker) };
}

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const GOOD = { ok: true, server: 'http://127.0.0.1:1', version: 'v1.32.0' } as const;
const DOWN = { ok: false, server: 'http://127.0.0.1:1', error: { code: 'unreachable', message: '127.0.0.1:1 cannot be reached' } } as const;

/** Starts the recorder under test with `probe` (and `retryInitialMs` when given) in a fresh data directory. */
async function startWith(probe: NonNullable<ContextRecorderOptions['probe']>, retryInitialMs?: number): Promise<void> {
  const temp = await withTempDir();
  cleanup = temp.cleanup;
  recorder = startContextRecorder({
    context: 'x',
    dataDir: temp.dir,
    clientConfig: async () => CONFIG,
    now: Date.now,
    log: () => undefined,
    limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
    onStatus: () => undefined,
    probe,
    ...(retryInitialMs === undefined ? {} : { retryInitialMs }),
  });
}

function start(probeOk: boolean, seen: { atProbe: number }, workers: ReturnType<typeof watchWorkers>): Promise<void> {
  return startWith(async () => {
    // The worker made before the probe is announced a little later ('worker' is not synchronous):
    // waited for here, while the probe is still running. Made after the probe, it never comes.
    await until(() => workers.made.length > 0, 'a worker during the probe', 3_000).catch(() => undefined);
    seen.atProbe = workers.made.length;
    return probeOk ? GOOD : DOWN;
  });
}

describe('a background recorder’s list worker', () => {
  it('is running when the server is probed, and ends when the probe fails', async () => {
    const workers = watchWorkers();
    try {
      const seen = { atProbe: -1 };
      await start(false, seen, workers);
      await until(() => seen.atProbe >= 0, 'the probe');
      expect(seen.atProbe).toBe(1);
      await until(() => workers.exited.size === 1, 'the worker to exit after the failed probe');
    } finally {
      workers.stop();
    }
  });

  it('ends when the recorder stops while its informers cannot list', async () => {
    const workers = watchWorkers();
    try {
      const seen = { atProbe: -1 };
      await start(true, seen, workers);
      await until(() => recorder?.status().state === 'recording', 'recording');
      expect(seen.atProbe).toBe(1);
      expect(workers.exited.size).toBe(0);
      await recorder?.stop();
      await until(() => workers.exited.size === 1, 'the worker to exit after stop');
    } finally {
      workers.stop();
    }
  });

  it('is not started again while the probe keeps failing, and starts once it succeeds', async () => {
    const workers = watchWorkers();
    const atProbe: number[] = [];
    try {
      await startWith(async () => {
        // The first attempt's worker is announced while this waits; a retry's would be within 300 ms.
        if (atProbe.length === 0) await until(() => workers.made.length > 0, 'a worker during the first probe', 3_000);
        else await new Promise((resolve) => setTimeout(resolve, 300));
        atProbe.push(workers.made.length);
        return atProbe.length < 3 ? DOWN : GOOD;
      }, 50);
      await until(() => recorder?.status().state === 'recording', 'recording after two failed probes');
      expect(atProbe).toEqual([1, 1, 1]);
      await until(() => workers.made.length === 2, 'a worker once the probe succeeded');
      expect(workers.exited.has(workers.made[0] as Worker)).toBe(true);
      await recorder?.stop();
      await until(() => workers.exited.size === 2, 'the second worker to exit after stop');
    } finally {
      workers.stop();
    }
  });
});
