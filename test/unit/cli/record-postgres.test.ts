/**
 * `kubedrift record --store postgres://…` as a real child process against `kubedrift sim` and a
 * real PostgreSQL server: the recorder copies what it records into the shared database, and an
 * app on another data folder, which recorded nothing, reads that context's history from it.
 * A connection string that is not PostgreSQL's stops it at once with the reason.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historyFile } from '../../../electron/engine/history/db.ts';
import { openHistoryStore } from '../../../electron/engine/history/open-store.ts';
import { ObjectCache } from '../../../electron/engine/stream/cache.ts';
import { CLI, runCli, startSim, stop } from '../../helpers/cli.ts';
import { startTestPostgres, type TestPostgres } from '../../helpers/postgres.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { until } from '../../helpers/until.ts';

let dir: string;
let cleanup: () => Promise<void>;
let sim: Awaited<ReturnType<typeof startSim>>;
let server: TestPostgres;
let kubeconfig: string;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  server = await startTestPostgres();
  kubeconfig = path.join(dir, 'sim.kubeconfig');
  sim = await startSim(['--scenario', 'minimal', '--write-kubeconfig', kubeconfig]);
  const end = Date.now() + 30_000;
  while (!existsSync(kubeconfig) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 100));
}, 90_000);
afterAll(async () => {
  if (sim) await stop(sim.child);
  await server?.dispose();
  await cleanup?.();
});

describe('kubedrift record --store', () => {
  it('records into the shared database, and an app that recorded nothing reads the history from it', async () => {
    const args = ['record', '--context', 'kubedrift-demo', '--data-dir', path.join(dir, 'recorder'), '--store', server.url];
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: kubeconfig }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      const workloads = await until(async () => {
        if (!/^recording kubedrift-demo since /m.test(output)) return undefined;
        const found = await client.query<{ uid: string; name: string }>("SELECT uid, name FROM kd_workloads WHERE context = 'kubedrift-demo' ORDER BY name").catch(() => undefined);
        return found && found.rows.length > 0 ? found.rows : undefined;
      }, `the recorder's workloads in PostgreSQL:\n${output}`, { timeoutMs: 30_000, pollMs: 200 });
      expect(output).toMatch(new RegExp(`^history also kept in PostgreSQL at kubedrift@127\\.0\\.0\\.1:${server.port}/postgres$`, 'm'));
      expect(output).not.toContain('drift-test');
      // The writer claim names the recorder for the other recorders of the context.
      const claim = await client.query<{ label: string }>("SELECT label FROM kd_writers WHERE context = 'kubedrift-demo'");
      expect(claim.rows[0]?.label).toBe(`kubedrift record on ${os.hostname()} (pid ${child.pid})`);

      const app = openHistoryStore({
        store: server.url,
        file: historyFile(path.join(dir, 'app'), 'kubedrift-demo'),
        context: 'kubedrift-demo',
        cache: new ObjectCache(),
        record: false,
        now: Date.now,
        log: () => undefined,
        limits: () => ({ maxAgeMs: 14 * 86_400_000, maxBytes: 1024 ** 3 }),
        onStatus: () => undefined,
      });
      try {
        await app.flush();
        const first = workloads[0] as { uid: string; name: string };
        const series = app.series({ uid: first.uid, from: 0, to: Date.now() });
        expect(series?.workload.name).toBe(first.name);
        expect(series?.series.find((s) => s.name === 'desired')?.points.length).toBeGreaterThan(0);
        expect(app.gaps(Date.now() - 60_000, Date.now())[0]?.reason).toBe('not-yet');
      } finally {
        app.close();
      }
    } finally {
      await client.end();
      await stop(child);
    }
    expect(output).toMatch(/stopped; history written to /);
  }, 90_000);

  it('stops at once on a connection string that is not PostgreSQL, saying why', async () => {
    const result = await runCli(['record', '--context', 'kubedrift-demo', '--store', 'mysql://root@db/history'], { KUBECONFIG: kubeconfig });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--store: The history store's connection string must start with postgres:\/\/ or postgresql:\/\/, got "mysql:…"/);
  });
});
