/**
 * History sources end to end below the UI: the real `kubedrift record --listen` process records
 * a simulated cluster whose web Deployment drifts every 8 s (scaled 2 → 4 → 2), and serves its
 * history behind a token. The app's engine starts later (its own history has a gap before that)
 * with the recorder as a history source: its timeline then has the recorder's episodes in that
 * gap, marked as recorded by it, and no gap where the recorder observed. A wrong token and an unreachable URL fail only their own source, clearly.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../../electron/engine/engine.ts';
import { connectSource } from '../../../../electron/engine/history/sources/client.ts';
import type { EpisodeList } from '../../../../shared/contracts/history.ts';
import type { ConnectionStatus, ContextList } from '../../../../shared/model.ts';
import { HISTORY_SOURCE_PROTOCOL, type HistorySourceList } from '../../../../shared/contracts/history-sources.ts';
import { CLI, runCli, startSim, stop } from '../../../helpers/cli.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const TOKEN = 'recorder-token-0123456789abcdef';
const CONTEXT = 'kubedrift-demo';
/** A second context of the same cluster, which the app of the last test has no kubeconfig for. */
const OPS = 'kubedrift-demo-ops';

const SCENARIO = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata: { name: drifting }
spec:
  kubelet: { pullDelay: 1s, startDelay: 500ms, readinessDelay: 500ms }
  nodes: [{ name: node-1, cpu: "8", memory: 16Gi }]
  timeline:
    - { at: 3s, every: 8s, note: scale up, scale: { namespace: default, target: deployment/web, replicas: 4 } }
    - { at: 7s, every: 8s, note: scale down, scale: { namespace: default, target: deployment/web, replicas: 2 } }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: web, namespace: default, labels: { app: web } }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: nginx, image: "nginx:1.27.2" }] }
`;

let dir: string;
let cleanup: () => Promise<void>;
let sim: Awaited<ReturnType<typeof startSim>>;
let kubeconfig: string;
let recorder: ChildProcess;
let recorderOut = '';
let recorderUrl: string;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  const scenario = path.join(dir, 'drifting.yaml');
  await writeFile(scenario, SCENARIO);
  sim = await startSim(['--scenario', scenario, '--write-kubeconfig', kubeconfig, '--user', 'ops=cluster-admin']);
  await until(() => existsSync(kubeconfig), 'the kubeconfig');
  const tokenFile = path.join(dir, 'token');
  await writeFile(tokenFile, `# the apps' token\n${TOKEN}\n`);
  const args = ['record', '--context', CONTEXT, '--context', OPS, '--kubeconfig', kubeconfig, '--data-dir', path.join(dir, 'recorder'), '--listen', '127.0.0.1:0', '--token-file', tokenFile];
  recorder = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  recorder.stdout?.on('data', (chunk: Buffer) => (recorderOut += chunk.toString()));
  recorder.stderr?.on('data', (chunk: Buffer) => (recorderOut += chunk.toString()));
  await until(() => /^recording kubedrift-demo since /m.test(recorderOut) && /^recording kubedrift-demo-ops since /m.test(recorderOut) && /history served on ws:\/\/127\.0\.0\.1:\d+\/ws/.test(recorderOut), `the recorder's lines:\n${recorderOut}`);
  recorderUrl = `http://127.0.0.1:${/history served on ws:\/\/127\.0\.0\.1:(\d+)\/ws/.exec(recorderOut)?.[1]}`;
}, 90_000);

afterAll(async () => {
  if (recorder) await stop(recorder);
  if (sim) await stop(sim.child);
  await cleanup();
});

function engineAt(dataDir: string): Engine {
  return createEngine({ version: '0.0.0-test', dataDir, shell: 'test', kubeconfig, context: CONTEXT, env: {}, homeDir: dir, log: () => {}, loginShellPath: false, watchKubeconfig: false });
}

async function value<T>(engine: Engine, channel: string, payload: unknown): Promise<T> {
  const result = await engine.dispatch(channel, payload);
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value as T;
}

/** The upgrade's HTTP status and body, or 101 when the recorder took the connection. */
function upgrade(headers: Record<string, string>, protocols: string[] = [HISTORY_SOURCE_PROTOCOL], query = ''): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${recorderUrl.replace('http', 'ws')}/ws${query}`, protocols, { headers });
    ws.once('open', () => {
      ws.close();
      resolve({ status: 101, body: '' });
    });
    ws.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    ws.once('error', (error) => !/Unexpected server response/.test(error.message) && reject(error));
  });
}

describe('history sources: the app reads a recorder through the contract', () => {
  it('refuses a missing or wrong token, another protocol and an unrecorded context, each with a clear message', async () => {
    const missing = await upgrade({});
    expect(missing.status).toBe(401);
    expect(missing.body).toMatch(/needs a token: send it as "Authorization: Bearer <token>"/);
    const wrong = await upgrade({ Authorization: 'Bearer not-the-token-at-all-000' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatch(/refused the token: it is wrong, or it was replaced .* \(expired\)/);
    const protocol = await upgrade({ Authorization: `Bearer ${TOKEN}` }, ['kubedrift.history.v0']);
    expect(protocol.status).toBe(400);
    expect(protocol.body).toMatch(/speaks kubedrift\.history\.v1; the app asked for kubedrift\.history\.v0/);
    const unknown = await upgrade({ Authorization: `Bearer ${TOKEN}` }, undefined, '?context=prod');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatch(/does not record context "prod"; it records kubedrift-demo, kubedrift-demo-ops\./);
    expect((await upgrade({ Authorization: `Bearer ${TOKEN}` })).status).toBe(101);
  });

  it('takes a rotated token at once: the old one is refused as expired, the new one accepted', async () => {
    const tokenFile = path.join(dir, 'token');
    const next = 'rotated-recorder-token-9876543210';
    await writeFile(tokenFile, `${next}\n`);
    try {
      const old = await upgrade({ Authorization: `Bearer ${TOKEN}` });
      expect(old.status).toBe(401);
      expect(old.body).toMatch(/\(expired\)/);
      expect((await upgrade({ Authorization: `Bearer ${next}` })).status).toBe(101);
    } finally {
      await writeFile(tokenFile, `${TOKEN}\n`);
    }
  });

  it('never listens without a usable token, and says why', async () => {
    const base = ['record', '--context', CONTEXT, '--kubeconfig', kubeconfig];
    const none = await runCli([...base, '--listen', '127.0.0.1:0'], { KUBEDRIFT_RECORDER_TOKEN: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/--listen needs a token: --token-file FILE, or \$KUBEDRIFT_RECORDER_TOKEN/);
    const short = await runCli([...base, '--listen', '127.0.0.1:0'], { KUBEDRIFT_RECORDER_TOKEN: 'secret' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/must be at least 16 characters/);
    const address = await runCli([...base, '--listen', 'everywhere'], { KUBEDRIFT_RECORDER_TOKEN: TOKEN });
    expect(address.code).toBe(2);
    expect(address.stderr).toMatch(/--listen must be HOST:PORT such as 127\.0\.0\.1:7443 or 0\.0\.0\.0:7443, got "everywhere"/);
    const lonely = await runCli([...base, '--token-file', path.join(dir, 'token')]);
    expect(lonely.code).toBe(2);
    expect(lonely.stderr).toMatch(/--token-file goes with --listen HOST:PORT/);
    const missing = await runCli([...base, '--listen', '127.0.0.1:0', '--token-file', path.join(dir, 'no-such-token')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--token-file .*no-such-token cannot be read: ENOENT/);
  }, 60_000);

  it('answers the contract\'s history requests only, with the contract\'s errors', async () => {
    const socket = await connectSource({ url: recorderUrl, token: TOKEN, context: null });
    try {
      const server = expect.stringMatching(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(await socket.request('history:recorded', {})).toEqual({ ok: true, value: { contexts: [{ name: CONTEXT, server }, { name: OPS, server }] } });
      expect(await socket.request('contexts:select', { name: CONTEXT })).toMatchObject({ ok: false, error: { code: 'unknown-channel', message: 'This recorder serves history only; contexts:select is not one of its requests.' } });
      expect(await socket.request('history:episodes', { from: 0, to: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(/connect with \?context=NAME \(one of kubedrift-demo, kubedrift-demo-ops\)/) } });
    } finally {
      socket.close();
    }
    const bound = await connectSource({ url: recorderUrl, token: TOKEN, context: CONTEXT });
    try {
      expect(await bound.request('history:episodes', { from: 'yesterday', to: 1 })).toMatchObject({ ok: false, error: { code: 'invalid-request', message: 'Invalid payload for history:episodes' } });
      const status = await bound.request('history:status', {});
      expect(status).toMatchObject({ ok: true, value: { context: CONTEXT, state: 'recording', bytes: expect.any(Number) } });
      expect(status.ok && status.value.bytes).toBeGreaterThan(0);
    } finally {
      bound.close();
    }
  });

  it('merges the recorder\'s episodes into the gap of the app\'s own history; bad sources fail alone', async () => {
    const recordingSince = Date.parse(/^recording kubedrift-demo since (\S+)$/m.exec(recorderOut)?.[1] ?? '');
    // The app is not running while the recorder sees the first scale-ups: the app's history has a gap there.
    const probe = await connectSource({ url: recorderUrl, token: TOKEN, context: CONTEXT });
    try {
      await until(async () => {
        const list = await probe.request('history:episodes', { from: recordingSince, to: Date.now() });
        return list.ok && list.value.episodes.some((episode) => episode.end !== null);
      }, 'an ended episode at the recorder', 40_000);
    } finally {
      probe.close();
    }
    const dataDir = path.join(dir, 'app');
    const localStart = Date.now();
    const engine = engineAt(dataDir);
    await engine.start();
    try {
      const added = await value<HistorySourceList>(engine, 'history:source-add', { name: 'rack recorder', url: recorderUrl, token: TOKEN });
      const source = added.sources.find((entry) => entry.name === 'rack recorder');
      expect(source).toMatchObject({ state: 'connected', lastError: null, contexts: [expect.objectContaining({ name: CONTEXT }), expect.objectContaining({ name: OPS })] });
      // The token stays in the engine: not in the answer, not in settings.
      expect(JSON.stringify(added)).not.toContain(TOKEN);
      expect(JSON.stringify(await value(engine, 'settings:get', {}))).not.toContain(TOKEN);

      await until(async () => (await value<{ samples: number }>(engine, 'history:status', {})).samples > 0, 'the app\'s own samples');
      const range = { from: recordingSince - 60_000, to: Date.now() };
      const merged = await value<EpisodeList>(engine, 'history:episodes', range);
      expect(merged.sources).toEqual([{ name: 'rack recorder', state: 'merged' }]);
      const fromRecorder = merged.episodes.filter((episode) => episode.recordedBy === 'rack recorder');
      // The scale-ups before the app started are the recorder's: web's Deployment (or its ReplicaSets) drifted.
      expect(fromRecorder.some((episode) => episode.start < localStart && episode.workload.name.startsWith('web'))).toBe(true);
      for (const episode of fromRecorder) expect(episode.id).toBeLessThan(0);
      // No drift twice: per workload, no two episodes overlap.
      for (const a of merged.episodes) {
        for (const b of merged.episodes) {
          if (a === b || a.workload.uid !== b.workload.uid) continue;
          expect(a.start <= (b.end ?? Date.now()) && b.start <= (a.end ?? Date.now())).toBe(false);
        }
      }
      // Coverage is the union: what the recorder observed before the app started is no gap.
      expect(merged.gaps?.some((gap) => gap.end > recordingSince + 1_000)).toBe(false);
      // The workload's own series: the recorder is asked too and takes part.
      const series = await value<{ sources?: unknown; series: Array<{ name: string; points: unknown[] }> }>(engine, 'history:series', { uid: fromRecorder[0]?.workload.uid, ...range });
      expect(series.sources).toEqual([{ name: 'rack recorder', state: 'merged' }]);
      expect(series.series.find((line) => line.name === 'ready')?.points.length).toBeGreaterThan(0);
      // One of the recorder's episodes opens by its id of the app's.
      const opened = await value<{ id: number; recordedBy?: string }>(engine, 'history:episode', { id: fromRecorder[0]?.id });
      expect(opened).toMatchObject({ id: fromRecorder[0]?.id, recordedBy: 'rack recorder' });

      // A wrong token and an unreachable URL: their own errors, the rest is served.
      const bad = await value<HistorySourceList>(engine, 'history:source-add', { name: 'stale token', url: recorderUrl, token: 'an-expired-token-0000000000' });
      expect(bad.sources.find((entry) => entry.name === 'stale token')).toMatchObject({ state: 'error', lastError: { code: 'unauthorized', message: expect.stringMatching(/^This recorder refused the token: it is wrong, or it was replaced in the recorder's token file \(expired\)\.$/) } });
      const gone = await value<HistorySourceList>(engine, 'history:source-add', { name: 'gone', url: 'http://127.0.0.1:1', token: TOKEN });
      expect(gone.sources.find((entry) => entry.name === 'gone')).toMatchObject({ state: 'error', lastError: { code: 'unreachable', message: '127.0.0.1:1 cannot be reached: nothing listens there.' } });
      expect(gone.sources.find((entry) => entry.name === 'rack recorder')?.state).toBe('connected');
      // The app's own episodes, once it has seen a scale-up itself (the recorder's copy of that one is left out).
      let after = await value<EpisodeList>(engine, 'history:episodes', range);
      await until(async () => {
        after = await value<EpisodeList>(engine, 'history:episodes', { ...range, to: Date.now() });
        return after.episodes.some((episode) => episode.recordedBy === undefined && episode.end !== null);
      }, 'an episode of the app\'s own');
      expect(after.sources).toEqual(
        expect.arrayContaining([
          { name: 'rack recorder', state: 'merged' },
          { name: 'stale token', state: 'error', message: expect.stringMatching(/refused the token/) },
          { name: 'gone', state: 'error', message: expect.stringMatching(/cannot be reached/) },
        ]),
      );
      expect(after.episodes.filter((episode) => episode.recordedBy === undefined).length).toBeGreaterThan(0);
      expect(after.episodes.some((episode) => episode.recordedBy === 'rack recorder')).toBe(true);

      // Removing the source leaves the app's own history alone.
      const removed = await value<HistorySourceList>(engine, 'history:source-remove', { id: source?.id });
      expect(removed.sources.map((entry) => entry.name)).toEqual(['stale token', 'gone']);
      // ...which does have the gap the recorder filled, and none of its episodes.
      const alone = await value<EpisodeList>(engine, 'history:episodes', range);
      expect(alone.gaps?.some((gap) => gap.reason === 'not-yet' && gap.start <= recordingSince && gap.end >= localStart)).toBe(true);
      expect(alone.episodes.some((episode) => episode.recordedBy !== undefined)).toBe(false);
    } finally {
      await engine.dispose();
    }
  }, 120_000);
  it('lists a context only the recorder records and shows its history, offline, with no live view', async () => {
    const dataDir = path.join(dir, 'no-kubeconfig');
    const engine = createEngine({
      version: '0.0.0-test',
      dataDir,
      shell: 'test',
      kubeconfig: path.join(dir, 'no-such-kubeconfig'),
      env: {},
      homeDir: dir,
      log: () => {},
      loginShellPath: false,
      watchKubeconfig: false,
      demoCluster: () => Promise.reject(new Error('no demo cluster in this test')),
    });
    await engine.start();
    try {
      await value(engine, 'history:source-add', { name: 'rack recorder', url: recorderUrl, token: TOKEN });
      const contexts = await value<ContextList>(engine, 'contexts:list', {});
      // The built-in demo context keeps its name; the recorder's other context is listed as its.
      expect(contexts.contexts.find((entry) => entry.name === OPS)).toMatchObject({ recordedBy: 'rack recorder', demo: false });
      expect(contexts.contexts.filter((entry) => entry.name === CONTEXT).map((entry) => entry.recordedBy)).toEqual([undefined]);
      await value(engine, 'contexts:select', { name: OPS });
      await until(async () => (await value<ConnectionStatus>(engine, 'connection:status', {})).context === OPS, 'the connection status of ops');
      expect((await value<ConnectionStatus>(engine, 'connection:status', {})).message).toBe(`No kubeconfig context: ${OPS} is only recorded by history source rack recorder, so the timeline shows its history and there is no live view.`);
      expect(await value(engine, 'history:status', {})).toMatchObject({ context: OPS, state: 'off', message: expect.stringMatching(/^Recorded by history source rack recorder/) });
      let list: EpisodeList | undefined;
      await until(async () => {
        list = await value<EpisodeList>(engine, 'history:episodes', { from: Date.now() - 10 * 60_000, to: Date.now() });
        return list.episodes.length > 0;
      }, 'the recorder\'s episodes of ops');
      expect(list?.sources).toEqual([{ name: 'rack recorder', state: 'merged' }]);
      expect(list?.episodes.every((episode) => episode.recordedBy === 'rack recorder' && episode.id < 0)).toBe(true);
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});
