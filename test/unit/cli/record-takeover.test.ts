/**
 * `kubedrift record --store postgres://… --takeover-after 5` as real child processes against the
 * simulated cluster and a real PostgreSQL server: a second recorder, with a history file of its
 * own, is refused while the first one writes the context; once the first is killed with SIGKILL
 * it takes the context over after the configured 5 s (not the default 30 s), the writer claim
 * names it, its rows follow the killed recorder's in the database, and a reader sees the time
 * nobody recorded as a gap.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFile } from '../../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../../electron/engine/history/open-store.ts';
import { startSimCluster, type SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { ObjectCache } from '../../../electron/engine/stream/cache.ts';
import { CLI, stop } from '../../helpers/cli.ts';
import { startTestPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { until } from '../../helpers/until.ts';

const CONTEXT = 'shared';
const TAKEOVER_S = 5;

let dir: string;
let cleanup: () => Promise<void>;
let sim: SimCluster;
let server: TestPostgres;
let kubeconfig: string;
let client: pg.Client;
const children: ChildProcess[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  [server, sim] = await Promise.all([startTestPostgres(), startSimCluster({ scenario: 'minimal' })]);
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  await writeFile(kubeconfig, sim.kubeconfig(CONTEXT));
  client = new pg.Client({ connectionString: server.url });
  await client.connect();
}, 90_000);
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) await stop(child);
  await client?.end();
  await sim?.stop();
  await server?.dispose();
  await cleanup?.();
});

/** Starts `kubedrift record` of CONTEXT into the shared store from the data folder `name`. */
function record(name: string): { child: ChildProcess; output: () => string } {
  const args = ['record', '--context', CONTEXT, '--data-dir', path.join(dir, name), '--store', server.url, '--takeover-after', String(TAKEOVER_S)];
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** As until(), with the recorder's output (at the timeout, not at the start) in the error. */
async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, what: string, output: () => string): Promise<T> {
  try {
    return await until(check, what, { timeoutMs: 20_000, pollMs: 100 });
  } catch (error) {
    throw new Error(`${(error as Error).message}; its output:\n${output()}`, { cause: error });
  }
}

const labelOf = (child: ChildProcess): string => `kubedrift record on ${os.hostname()} (pid ${child.pid})`;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function writerLabel(): Promise<string | undefined> {
  return (await client.query<{ label: string }>('SELECT label FROM kd_writers WHERE context = $1', [CONTEXT]).catch(() => undefined))?.rows[0]?.label;
}

interface SessionRow {
  id: number;
  start_at: number;
  end_at: number;
}
async function sessions(): Promise<SessionRow[]> {
  // Before the recorder has created the tables: none yet.
  const found = await client.query<SessionRow>('SELECT id::float8 AS id, start_at::float8 AS start_at, end_at::float8 AS end_at FROM kd_sessions WHERE context = $1 ORDER BY id', [CONTEXT]).catch(() => undefined);
  return found?.rows ?? [];
}

describe('kubedrift record --takeover-after', () => {
  it('refuses a second recorder while the first writes, and lets it take over 5 s after the first is killed', async () => {
    const first = record('first');
    await waitFor(async () => ((await writerLabel()) === labelOf(first.child) && (await sessions()).length > 0 ? true : undefined), "the first recorder's claim and session", first.output);
    expect(first.output()).toMatch(new RegExp(`^history also kept in PostgreSQL at .*; a writer silent ${TAKEOVER_S} s is taken over$`, 'm'));

    // Another history file's recorder of the same context: refused while the first one is alive.
    const second = record('second');
    const refused = new RegExp(`already has a recorder for ${CONTEXT}: ${escape(labelOf(first.child))} is writing it\\. Only one recorder may write`);
    await waitFor(() => (refused.test(second.output()) ? true : undefined), "the second recorder's refusal", second.output);
    expect(await writerLabel()).toBe(labelOf(first.child));
    // Alive, the first one is still not taken over after more than the time-to-live.
    await new Promise((resolve) => setTimeout(resolve, (TAKEOVER_S + 1) * 1000));
    expect(await writerLabel()).toBe(labelOf(first.child));
    expect(second.output()).not.toMatch(/continues .*history in the shared store/);

    const before = await sessions();
    first.child.kill('SIGKILL');
    const killedAt = Date.now();
    const tookOver = await waitFor(async () => ((await writerLabel()) === labelOf(second.child) ? Date.now() : undefined), 'the takeover', second.output);
    // After the configured time-to-live (less the up to ttl/3 since the last renewal), far before the default 30 s.
    expect(tookOver - killedAt).toBeGreaterThanOrEqual(((TAKEOVER_S * 2) / 3) * 1000 - 200);
    expect(tookOver - killedAt).toBeLessThan(15_000);
    await waitFor(() => (/continues shared's history in the shared store/.test(second.output()) ? true : undefined), "the takeover's log line", second.output);
    expect(second.output()).toMatch(new RegExp(`${escape(labelOf(first.child))} \\(another history file\\) stopped writing it; this recorder continues ${CONTEXT}'s history in the shared store \\S+ from its copy \\(\\d+ rows\\)`));
    expect(Number(/from its copy \((\d+) rows\)/.exec(second.output())?.[1])).toBeGreaterThan(0);

    // The second recorder's session follows the killed one's rows: a higher id, a later start.
    const lastOfFirst = before.at(-1) as SessionRow;
    const after = await waitFor(
      async () => {
        const rows = await sessions();
        return rows.some((row) => row.id > lastOfFirst.id) ? rows : undefined;
      },
      "the second recorder's session in the database",
      second.output,
    );
    const next = after.find((row) => row.id > lastOfFirst.id) as SessionRow;
    const killedSession = after.find((row) => row.id === lastOfFirst.id) as SessionRow;
    expect(after.filter((row) => row.id <= lastOfFirst.id).map((row) => row.id)).toEqual(before.map((row) => row.id));
    expect(killedSession.end_at).toBeLessThanOrEqual(killedAt);
    expect(next.start_at).toBeGreaterThan(killedAt);

    // A reader of the shared store (another data folder, recording nothing) sees the time between as not observed.
    const reader = openHistoryStore({
      store: server.url,
      file: historyFile(path.join(dir, 'reader'), CONTEXT),
      context: CONTEXT,
      cache: new ObjectCache(),
      record: false,
      now: Date.now,
      log: () => undefined,
      limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
      onStatus: () => undefined,
      // The app hides breaks shorter than GAP_MS (150 s); this one lasts seconds.
      timing: { gapMs: 1_000 },
    });
    try {
      await reader.flush();
      const gap = reader.gaps(killedSession.start_at, Date.now()).find((g) => g.start >= killedSession.start_at);
      expect(gap).toMatchObject({ start: killedSession.end_at, end: next.start_at, reason: 'stopped' });
      expect(gap?.start).toBeLessThanOrEqual(killedAt);
      expect(gap?.end).toBeGreaterThan(killedAt);
    } finally {
      reader.close();
    }
    await stop(second.child);
  }, 60_000);
});
