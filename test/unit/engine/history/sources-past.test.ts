/**
 * The state at a past time and compare with history sources, below the UI: the real `kubedrift
 * record --listen` process records a simulated cluster whose web Deployment scales 2 → 4 → 2
 * every 8 s; the app's engine starts later, so its own history has a gap where only the recorder
 * observed. A moment in that gap is rebuilt by the recorder (and says so), a moment the app saw
 * by the app; compare takes each moment from whoever observed it; a failing source fails alone;
 * a context only the recorder records is answered by it (its Graph at a past time too).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../../electron/engine/engine.ts';
import { connectSource, type SourceSocket } from '../../../../electron/engine/history/sources/client.ts';
import type { ResponseOf } from '../../../../shared/contract.ts';
import type { Result } from '../../../../shared/result.ts';
import { CLI, startSim, stop } from '../../../helpers/cli.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const TOKEN = 'recorder-token-past-0123456789';
const CONTEXT = 'kubedrift-demo';
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
/** A moment only the recorder observed (before the app's engine started). */
let onlyRecorder: number;
let direct: SourceSocket;

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  const scenario = path.join(dir, 'drifting.yaml');
  await writeFile(scenario, SCENARIO);
  sim = await startSim(['--scenario', scenario, '--write-kubeconfig', kubeconfig, '--user', 'ops=cluster-admin']);
  await until(() => existsSync(kubeconfig), 'the kubeconfig');
  const tokenFile = path.join(dir, 'token');
  await writeFile(tokenFile, `${TOKEN}\n`);
  const args = ['record', '--context', CONTEXT, '--context', OPS, '--kubeconfig', kubeconfig, '--data-dir', path.join(dir, 'recorder'), '--listen', '127.0.0.1:0', '--token-file', tokenFile];
  recorder = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  recorder.stdout?.on('data', (chunk: Buffer) => (recorderOut += chunk.toString()));
  recorder.stderr?.on('data', (chunk: Buffer) => (recorderOut += chunk.toString()));
  await until(() => /^recording kubedrift-demo-ops since /m.test(recorderOut) && /history served on ws:\/\/127\.0\.0\.1:\d+\/ws/.test(recorderOut), `the recorder's lines:\n${recorderOut}`, 60_000);
  recorderUrl = `http://127.0.0.1:${/history served on ws:\/\/127\.0\.0\.1:(\d+)\/ws/.exec(recorderOut)?.[1]}`;
  direct = await connectSource({ url: recorderUrl, token: TOKEN, context: CONTEXT });
  // A moment the recorder can rebuild (its first state is written once every kind has listed).
  await until(async () => {
    onlyRecorder = Date.now() - 500;
    const answer = await direct.request('history:state-at', { at: onlyRecorder, offset: 0, limit: 1 });
    return answer.ok && answer.value.total > 0;
  }, 'a moment the recorder can rebuild', 40_000);
  await sleep(1_000);
}, 120_000);

afterAll(async () => {
  direct?.close();
  if (recorder) await stop(recorder);
  if (sim) await stop(sim.child);
  await cleanup();
});

async function value<C extends 'history:state-at' | 'history:compare' | 'history:source-add' | 'history:source-remove' | 'history:status' | 'contexts:select' | 'graph:get'>(engine: Engine, channel: C, payload: unknown): Promise<ResponseOf<C>> {
  const result = (await engine.dispatch(channel, payload)) as Result<ResponseOf<C>>;
  if (!result.ok) throw new Error(`${channel}: ${result.error.message}`);
  return result.value;
}

/** What the recorder itself answers, asked directly. */
async function fromRecorder<C extends 'history:state-at' | 'history:compare'>(channel: C, payload: unknown): Promise<ResponseOf<C>> {
  const answer = (await direct.request(channel, payload)) as Result<ResponseOf<C>>;
  if (!answer.ok) throw new Error(`recorder ${channel}: ${answer.error.message}`);
  return answer.value;
}

const uids = (objects: ReadonlyArray<{ metadata: { uid: string } }>): string[] => objects.map((object) => object.metadata.uid).sort();

describe('history sources: the cluster at a past time comes from whoever observed it', () => {
  it('rebuilds a moment only the recorder saw from the recorder, one the app saw from the app, and compares across them', async () => {
    const engine = createEngine({ version: '0.0.0-test', dataDir: path.join(dir, 'app'), shell: 'test', kubeconfig, context: CONTEXT, env: {}, homeDir: dir, log: () => {}, loginShellPath: false, watchKubeconfig: false });
    await engine.start();
    try {
      const added = await value(engine, 'history:source-add', { name: 'rack recorder', url: recorderUrl, token: TOKEN });
      expect(added.sources[0]).toMatchObject({ state: 'connected' });
      await value(engine, 'history:source-add', { name: 'gone', url: 'http://127.0.0.1:1', token: TOKEN });
      await until(async () => (await value(engine, 'history:status', {})).samples > 0, "the app's own samples");
      await sleep(2_000);
      const onlyApp = Date.now() - 1_000;

      // The gap in the app's history: the recorder's state, said to be its; the failing source named, not fatal.
      const past = await value(engine, 'history:state-at', { at: onlyRecorder, offset: 0, limit: 2_000 });
      const itsOwn = await fromRecorder('history:state-at', { at: onlyRecorder, offset: 0, limit: 2_000 });
      expect(past.recordedBy).toBe('rack recorder');
      expect(past.total).toBe(itsOwn.total);
      expect(uids(past.objects)).toEqual(uids(itsOwn.objects));
      expect(past.objects.some((object) => object.kind === 'Deployment' && object.metadata.name === 'web')).toBe(true);
      expect(past.sources).toEqual(expect.arrayContaining([{ name: 'rack recorder', state: 'merged' }, { name: 'gone', state: 'error', message: '127.0.0.1:1 cannot be reached: nothing listens there.' }]));
      // Its next pages come from the same observer.
      const second = await value(engine, 'history:state-at', { at: onlyRecorder, offset: 1, limit: 1 });
      expect(second).toMatchObject({ recordedBy: 'rack recorder', total: itsOwn.total });
      expect(second.objects.map((object) => object.metadata.uid)).toEqual(itsOwn.objects.slice(1, 2).map((object) => object.metadata.uid));

      // A moment the app observed is the app's own: no source named, none asked.
      const own = await value(engine, 'history:state-at', { at: onlyApp, offset: 0, limit: 2_000 });
      expect(own.recordedBy).toBeUndefined();
      expect(own.sources).toEqual([]);
      expect(own.objects.some((object) => object.kind === 'Deployment' && object.metadata.name === 'web')).toBe(true);

      // Compare: t1 only the recorder saw, t2 the app saw; each side is its observer's.
      const compared = await value(engine, 'history:compare', { t1: onlyRecorder, t2: onlyApp });
      expect(compared.recordedBy).toEqual({ t1: 'rack recorder' });
      const before = await fromRecorder('history:compare', { t1: 0, t2: onlyRecorder });
      for (const change of compared.changes) {
        const seen = before.changes.find((entry) => entry.workload.uid === change.workload.uid);
        expect(change.before).toEqual(seen?.after ?? null);
        expect(change.changed.length).toBeGreaterThan(0);
      }
      // Both moments the recorder saw (it records still) but only t1 the app did not: the recorder answers alone.
      const bothRecorder = await value(engine, 'history:compare', { t1: onlyRecorder, t2: onlyRecorder + 500 });
      expect(bothRecorder.recordedBy).toEqual({ t1: 'rack recorder', t2: 'rack recorder' });
      expect(bothRecorder.changes).toEqual((await fromRecorder('history:compare', { t1: onlyRecorder, t2: onlyRecorder + 500 })).changes);

      // Without the recorder, nobody can rebuild the gap: the app's reason and the failing source's, in one message.
      const rack = added.sources.find((entry) => entry.name === 'rack recorder');
      await value(engine, 'history:source-remove', { id: rack?.id });
      const lost = await engine.dispatch('history:state-at', { at: onlyRecorder, offset: 0, limit: 10 });
      expect(lost).toMatchObject({ ok: false, error: { code: 'unavailable' } });
      expect(!lost.ok && lost.error.message).toMatch(/^History of this context starts at .*; .* is before that .* History source gone: 127\.0\.0\.1:1 cannot be reached: nothing listens there\.$/);
    } finally {
      await engine.dispose();
    }
  }, 120_000);

  it('answers a context only the recorder records from the recorder; a source with a refused token fails alone', async () => {
    const engine = createEngine({
      version: '0.0.0-test',
      dataDir: path.join(dir, 'no-kubeconfig'),
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
      await value(engine, 'contexts:select', { name: OPS });
      await until(async () => (await value(engine, 'history:status', {})).context === OPS, 'the history status of ops');
      const at = Date.now() - 1_000;
      const state = await value(engine, 'history:state-at', { at, offset: 0, limit: 2_000 });
      expect(state).toMatchObject({ recordedBy: 'rack recorder', sources: [{ name: 'rack recorder', state: 'merged' }] });
      expect(state.objects.some((object) => object.kind === 'Deployment' && object.metadata.name === 'web')).toBe(true);
      const compared = await value(engine, 'history:compare', { t1: onlyRecorder, t2: at });
      expect(compared.recordedBy).toEqual({ t1: 'rack recorder', t2: 'rack recorder' });
      // The Graph at that time is built from the recorder's state too.
      const graph = await value(engine, 'graph:get', { namespace: 'default', at });
      expect(JSON.stringify(graph.nodes)).toContain('"web');

      // A source whose token was rotated away fails alone, with its own reason; the answer is the recorder's.
      await value(engine, 'history:source-add', { name: 'stale token', url: recorderUrl, token: 'an-expired-token-0000000000' });
      const again = await value(engine, 'history:state-at', { at, offset: 0, limit: 2_000 });
      expect(again.recordedBy).toBe('rack recorder');
      expect(again.total).toBe(state.total);
      expect(again.sources).toEqual(expect.arrayContaining([{ name: 'stale token', state: 'error', message: expect.stringMatching(/^This recorder refused the token/) }]));
    } finally {
      await engine.dispose();
    }
  }, 60_000);
});
