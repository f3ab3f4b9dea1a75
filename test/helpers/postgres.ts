/**
 * A real PostgreSQL server for a test or a bench: `initdb` in a temporary directory, `postgres`
 * on 127.0.0.1 at a free port with its Unix socket in that directory, password authentication
 * over TCP (so wrong credentials can be tested), stopped and removed afterwards.
 *
 * The binaries are Debian's `postgresql` package (/usr/lib/postgresql/<major>/bin) or whatever
 * `initdb` is on PATH. PostgreSQL refuses to run as root, so as root the server runs as `nobody`
 * (spawn's uid/gid) in a directory handed to it.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { withTempDir } from './tmp.ts';

const NOBODY = 65_534;
const START_TIMEOUT_MS = 30_000;
export const PG_USER = 'kubedrift';
export const PG_PASSWORD = 'drift-test';
export const PG_DATABASE = 'postgres';

/** The directory holding initdb and postgres, or a clear error saying what to install. */
export function findPostgresBin(): string {
  const candidates: string[] = [];
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const majors = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    candidates.push(...majors.map((major) => path.join(root, major, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean));
  const found = candidates.find((dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'postgres')));
  if (!found) {
    throw new Error("PostgreSQL's server binaries (initdb, postgres) were not found in /usr/lib/postgresql/*/bin or on PATH. The shared-store tests start their own server: install Debian's `postgresql` package (apt-get install postgresql).");
  }
  return found;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface TestPostgres {
  port: number;
  /** A connection string with the right credentials. */
  url: string;
  /** The same server, a wrong password. */
  wrongPasswordUrl: string;
  /** Stops the server (fast shutdown); its data stays for `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its directory. */
  dispose(): Promise<void>;
}

/** Initialises and starts a server; throws with a clear message when it cannot. */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = findPostgresBin();
  const temp = await withTempDir('kubedrift-pg-');
  const asRoot = process.getuid?.() === 0;
  const ids = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
  if (asRoot) chownSync(temp.dir, NOBODY, NOBODY);
  const data = path.join(temp.dir, 'data');
  const pwfile = path.join(temp.dir, 'pw');
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  if (asRoot) chownSync(pwfile, NOBODY, NOBODY);
  const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', PG_USER, `--pwfile=${pwfile}`, '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-sync'], { ...ids, encoding: 'utf8', cwd: temp.dir });
  if (init.status !== 0) throw new Error(`initdb failed (${init.status}): ${init.stderr || init.stdout}`);
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const output: string[] = [];
    child = spawn(path.join(bin, 'postgres'), ['-D', data, '-p', String(port), '-k', temp.dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'], { ...ids, cwd: temp.dir, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`postgres exited (${child.exitCode}): ${output.join('')}`);
      if (output.join('').includes('ready to accept connections')) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`postgres did not start within ${START_TIMEOUT_MS} ms: ${output.join('')}`);
  }

  async function stop(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGINT');
    await exited;
  }

  await start();
  const url = `postgres://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${port}/${PG_DATABASE}`;
  return {
    port,
    url,
    wrongPasswordUrl: `postgres://${PG_USER}:not-the-password@127.0.0.1:${port}/${PG_DATABASE}`,
    stop,
    start,
    async dispose() {
      await stop();
      await temp.cleanup();
    },
  };
}

/** Creates the database `name` on `server`; the connection string that reaches it. */
export async function createDatabase(server: TestPostgres, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return server.url.replace(/\/[^/]*$/, `/${name}`);
}
