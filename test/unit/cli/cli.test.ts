import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CLI, runCli, startServe, startSim, stop } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';

/** A system Node older than 22.19 (the machine's Node 20), if there is one. */
const OLD_NODE = ['/usr/local/bin/node', '/usr/bin/node'].find((candidate) => {
  const result = spawnSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  const [major = 0, minor = 0] = (result.stdout ?? '').trim().split('.').map(Number);
  return result.status === 0 && (major < 22 || (major === 22 && minor < 19));
});

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir());
  await mkdir(path.join(dir, 'renderer'));
  await writeFile(path.join(dir, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
});
afterAll(async () => cleanup());

describe('kubedrift command', () => {
  it('lists its subcommands with --help', async () => {
    const { code, stdout } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Usage: kubedrift <command>/);
    expect(stdout).toMatch(/^\s+serve\s+serve the app to a browser/m);
  });

  it('does not print node:sqlite\'s experimental warning when a command loads the history store', async () => {
    const { code, stdout, stderr } = await runCli(['snapshot', '--help']);
    expect(code).toBe(0);
    expect(stdout + stderr).toMatch(/kubedrift snapshot export/);
    expect(stderr).not.toMatch(/ExperimentalWarning|SQLite/);
  });

  it('exits 2 with a clear message for an unknown command or a bad flag', async () => {
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    const badFlag = await runCli(['serve', '--prot', '80']);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toMatch(/kubedrift serve: Unknown option '--prot'/);
    const badPort = await runCli(['serve', '--port', 'eighty']);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toMatch(/--port must be a number/);
    const badHost = await runCli(['serve', '--host', '0.0.0.0']);
    expect(badHost.code).toBe(2);
    expect(badHost.stderr).toMatch(/--host must be a loopback address/);
  });

  it.skipIf(!OLD_NODE)('re-runs itself on Node 22 when started by an older Node', async () => {
    const { status, stdout } = spawnSync(OLD_NODE as string, [CLI, '--version'], { encoding: 'utf8' });
    expect(status).toBe(0);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('serve prints the listening line and stops cleanly on SIGTERM', async () => {
    const { url, child } = await startServe(['--static', path.join(dir, 'renderer'), '--data-dir', path.join(dir, 'data'), '--kubeconfig', path.join(dir, 'none')]);
    const res = await fetch(url);
    expect(res.status).toBe(200);
    await stop(child);
    expect(child.exitCode).toBe(0);
  });

  it.skipIf(!existsSync('/usr/bin/kubectl'))('sim prints its listening line and writes a kubeconfig kubectl can use', async () => {
    const kubeconfig = path.join(dir, 'sim.kubeconfig');
    const { url, child } = await startSim(['--port', '0', '--scenario', 'minimal', '--write-kubeconfig', kubeconfig]);
    try {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const result = spawnSync('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', path.join(dir, 'kube-cache'), 'get', 'namespaces', '-o', 'name'], {
        encoding: 'utf8',
        env: { ...process.env, HOME: dir },
        timeout: 30_000,
      });
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain('namespace/default');
    } finally {
      await stop(child);
    }
  });

  it.skipIf(!existsSync('/usr/bin/kubectl'))('sim --user writes a context per user whose rights kubectl auth can-i confirms', async () => {
    const kubeconfig = path.join(dir, 'sim-users.kubeconfig');
    const { child } = await startSim(['--port', '0', '--scenario', 'minimal', '--write-kubeconfig', kubeconfig, '--user', 'dev=view:default']);
    try {
      const canI = (...args: string[]) =>
        spawnSync('/usr/bin/kubectl', ['--kubeconfig', kubeconfig, '--context', 'kubedrift-demo-dev', '--cache-dir', path.join(dir, 'kube-cache-users'), 'auth', 'can-i', ...args], {
          encoding: 'utf8',
          env: { ...process.env, HOME: dir },
          timeout: 30_000,
        });
      expect([canI('list', 'pods', '-n', 'default').stdout, canI('list', 'pods', '-n', 'kube-system').stdout, canI('delete', 'pods', '-n', 'default').stdout]).toEqual(['yes\n', 'no\n', 'no\n']);
    } finally {
      await stop(child);
    }
  });

  it('sim refuses a --user it cannot read with exit 2', async () => {
    const bad = await runCli(['sim', '--user', 'dev=reader']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--user dev=reader: unknown role "reader"/);
  });

  it('sim refuses bad flags with exit 2', async () => {
    const bad = await runCli(['sim', '--kubernetes-minor', 'latest']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--kubernetes-minor must be a whole number/);
  });

  it('sim refuses --http2 with --http: HTTP/2 is offered only through TLS', async () => {
    const bad = await runCli(['sim', '--http', '--http2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--http2 needs HTTPS/);
  });
});
