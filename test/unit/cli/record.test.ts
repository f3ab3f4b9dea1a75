/**
 * `kubedrift record` as a real child process against `kubedrift sim`: two contexts record into
 * their own SQLite files, an unreachable one reports its error on a line of its own, the health
 * endpoints answer, and SIGTERM stops it with the history written.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFile } from '../../../electron/engine/history/db.ts';
import { CLI, runCli, startSim, stop } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
let sim: Awaited<ReturnType<typeof startSim>>;
let kubeconfig: string;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  sim = await startSim(['--scenario', 'minimal', '--write-kubeconfig', kubeconfig, '--user', 'ops=cluster-admin']);
  await until(() => existsSync(kubeconfig), 'the kubeconfig');
}, 60_000);
afterAll(async () => {
  await stop(sim.child);
  await cleanup();
});

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function samplesIn(file: string): number {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return Number((db.prepare('SELECT coalesce(sum(count), 0) AS n FROM sample_blocks').get() as { n: number }).n);
  } finally {
    db.close();
  }
}

describe('kubedrift record', () => {
  it('records two contexts into their own files, reports an unreachable one, and stops on SIGTERM with history written', async () => {
    const dataDir = path.join(dir, 'data');
    const unreachable = path.join(dir, 'unreachable.kubeconfig');
    await writeFile(
      unreachable,
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Config',
        contexts: [{ name: 'gone', context: { cluster: 'gone', user: 'gone' } }],
        clusters: [{ name: 'gone', cluster: { server: 'https://127.0.0.1:1' } }],
        users: [{ name: 'gone', user: { token: 'x' } }],
      }),
    );
    const args = ['record', '--context', 'kubedrift-demo', '--context', 'kubedrift-demo-ops', '--context', 'gone', '--data-dir', dataDir, '--health-port', '0', '--max-size', '64Mi'];
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: `${kubeconfig}${path.delimiter}${unreachable}` }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      await until(() => /^recording kubedrift-demo since /m.test(stdout) && /^recording kubedrift-demo-ops since /m.test(stdout), `both recording lines:\n${stdout}\n${stderr}`);
      await until(() => /^error gone: .*; retrying at /m.test(stdout), `the error line of "gone":\n${stdout}`);
      expect(stdout).not.toMatch(/^error kubedrift-demo/m);
      const port = /health checks on http:\/\/127\.0\.0\.1:(\d+)\/healthz/.exec(stdout)?.[1];
      const alive = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(alive.status).toBe(200);
      // "gone" never records, so the recorder is not ready; the body says which context.
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(503);
      expect(((await ready.json()) as { contexts: Array<{ context: string; state: string }> }).contexts).toEqual(
        expect.arrayContaining([expect.objectContaining({ context: 'kubedrift-demo', state: 'recording' }), expect.objectContaining({ context: 'gone', state: 'retrying' })]),
      );
      // Let the informers list and the first flushes run, then stop.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toMatch(/^stopped; history written to /m);
    expect(samplesIn(historyFile(dataDir, 'kubedrift-demo'))).toBeGreaterThan(0);
    expect(samplesIn(historyFile(dataDir, 'kubedrift-demo-ops'))).toBeGreaterThan(0);
    expect(existsSync(historyFile(dataDir, 'gone'))).toBe(false);
  }, 90_000);

  it('keeps what it wrote when killed with SIGKILL: the file opens and holds the samples flushed before', async () => {
    const dataDir = path.join(dir, 'killed');
    const child = spawn(process.execPath, [CLI, 'record', '--context', 'kubedrift-demo', '--data-dir', dataDir, '--kubeconfig', kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    try {
      await until(() => /^recording kubedrift-demo since /m.test(stdout), `the recording line:\n${stdout}`);
      // Flushes run every 500 ms: what was queued a second ago is on disk.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    expect(samplesIn(historyFile(dataDir, 'kubedrift-demo'))).toBeGreaterThan(0);
  }, 60_000);

  it('refuses bad usage with a clear message', async () => {
    const none = await runCli(['record']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/name at least one context to record with --context NAME/);
    const unknown = await runCli(['record', '--context', 'nope', '--kubeconfig', kubeconfig]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/there is no context "nope" in .*sim\.kubeconfig \(known: kubedrift-demo, kubedrift-demo-ops\)/);
    const size = await runCli(['record', '--context', 'kubedrift-demo', '--max-size', 'lots']);
    expect(size.code).toBe(2);
    expect(size.stderr).toMatch(/--max-size must be a size such as 536870912, 512Mi or 5Gi, got "lots"/);
    const port = await runCli(['record', '--context', 'kubedrift-demo', '--health-port', 'http']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--health-port must be a number from 0 to 65535, got "http"/);
  }, 60_000);
});
