/**
 * A background recorder's cause finder starts only once the first lists are in and their backfill
 * is written (issue #20: indexing every listed object and finding causes in a half-listed cache
 * held the one thread the lists and the backfill need), and it then reads what is cached.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startContextRecorder, type ContextRecorder } from '../../../../electron/engine/background/context-recorder.ts';
import type * as CauseNoterModule from '../../../../electron/engine/background/cause-noter.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const started: Array<{ logs: string[]; cached: number }> = [];

vi.mock('../../../../electron/engine/background/cause-noter.ts', async (importOriginal) => {
  const original = await importOriginal<typeof CauseNoterModule>();
  return {
    ...original,
    startCauseNoter: (options: Parameters<typeof original.startCauseNoter>[0]) => {
      started.push({ logs: [...logs], cached: options.cache.list().length });
      return original.startCauseNoter(options);
    },
  };
});

const logs: string[] = [];
let sim: SimCluster | undefined;
let recorder: ContextRecorder | undefined;
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await recorder?.stop();
  await sim?.stop();
  await cleanup?.();
  recorder = sim = cleanup = undefined;
});

async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('a background recorder connecting', () => {
  it('starts finding causes after the backfill of its first lists is written, from everything cached', async () => {
    const temp = await withTempDir();
    cleanup = temp.cleanup;
    const cluster = await startSimCluster({ scenario: 'minimal', tls: false, onError: () => undefined });
    sim = cluster;
    recorder = startContextRecorder({
      context: 'sim',
      dataDir: temp.dir,
      clientConfig: async () => cluster.kubeconfigObject('sim'),
      now: Date.now,
      log: (message) => logs.push(message),
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      timing: { flushIntervalMs: 50 },
      causesIntervalMs: 50,
    });
    await until(() => started.length > 0, 'the cause finder started');
    // Health updates after the lists (a watch reconnecting and listed again) start no second one.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(started).toHaveLength(1);
    const [first] = started;
    expect(first?.logs.some((line) => /backfill read \d+ objects into \d+ inferred rows/.test(line))).toBe(true);
    // Deployments, ReplicaSets, pods, nodes, Events of the minimal scenario: all there to read.
    expect(first?.cached).toBeGreaterThan(3);
  });
});
