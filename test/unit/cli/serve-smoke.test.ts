import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
});
afterEach(() => cleanup());

/** A renderer build that is only an index.html: enough to get past the build check. */
async function fakeRenderer(): Promise<string> {
  const renderer = path.join(dir, 'renderer');
  await mkdir(renderer);
  await writeFile(path.join(renderer, 'index.html'), '<!doctype html><title>Kubedrift</title>');
  return renderer;
}

describe('kubedrift serve --smoke-test', () => {
  it('refuses the flags that choose a cluster or an address, since it fixes both', async () => {
    const withContext = await runCli(['serve', '--smoke-test', '--context', 'prod']);
    expect(withContext.code).toBe(2);
    expect(withContext.stderr).toMatch(/--smoke-test runs on the demo cluster .*; drop --context/);
    const withKubeconfig = await runCli(['serve', '--smoke-test', '--kubeconfig', '/home/me/.kube/config']);
    expect(withKubeconfig.stderr).toMatch(/drop --kubeconfig/);
  });

  it('refuses a --smoke-timeout that is not a positive number of seconds, or without --smoke-test', async () => {
    const bad = await runCli(['serve', '--smoke-test', '--smoke-timeout', '10s']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--smoke-timeout must be a positive number of seconds, got "10s"/);
    const alone = await runCli(['serve', '--smoke-timeout', '10']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--smoke-timeout goes with --smoke-test/);
  });

  it('exits 1 with one line saying where Chromium was looked for when it is missing', async () => {
    const result = await runCli(['serve', '--smoke-test', '--static', await fakeRenderer()], { KUBEDRIFT_CHROMIUM: path.join(dir, 'no-chromium') });
    expect(result.code).toBe(1);
    const line = `KUBEDRIFT_CHROMIUM is ${path.join(dir, 'no-chromium')}, which does not exist`;
    expect(result.stderr.trim()).toMatch(/^kubedrift smoke-test: failed after \d+ ms: /);
    expect(result.stderr.trim().endsWith(line)).toBe(true);
    expect(result.stdout).toBe('');
  });

  it('lists --smoke-test in serve --help', async () => {
    const { code, stdout } = await runCli(['serve', '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/--smoke-test\s+start on the built-in demo cluster/);
  });
});
