import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeOf, interpretElectronProbe, planLaunch, type ProbeOutput } from '../../../electron/tools/start.ts';

const ROOT = path.resolve('/work/kubedrift');
const ELECTRON_ERROR = `Downloading Electron binary...
/work/kubedrift/node_modules/electron/index.js:43
      throw new Error(
      ^

Error: Electron failed to install correctly. Please delete \`node_modules/electron\` and run "npx install-electron --no" manually.
    at getElectronPath (/work/kubedrift/node_modules/electron/index.js:43:13)`;

function probe(output: Partial<ProbeOutput>, exists = true) {
  return interpretElectronProbe({ status: 0, stdout: '', stderr: '', timedOut: false, ...output }, () => exists);
}

describe('interpretElectronProbe', () => {
  it('finds the binary on the last line, after download progress', () => {
    expect(probe({ stdout: 'Downloading Electron binary...\n/work/kubedrift/node_modules/electron/dist/electron' })).toEqual({
      ok: true,
      binary: '/work/kubedrift/node_modules/electron/dist/electron',
    });
  });

  it('reports the missing binary in Electron\'s own words', () => {
    expect(probe({ status: 1, stderr: ELECTRON_ERROR })).toEqual({ ok: false, reason: 'Electron failed to install correctly' });
  });

  it('reports a missing electron package by its error line', () => {
    const stderr = "node:internal/modules/cjs/loader:1386\n  throw err;\n  ^\n\nError: Cannot find module 'electron'\nRequire stack:";
    expect(probe({ status: 1, stderr })).toEqual({ ok: false, reason: "Error: Cannot find module 'electron'" });
  });

  it('treats a path that does not exist as missing', () => {
    expect(probe({ stdout: '/nowhere/electron' }, false)).toEqual({ ok: false, reason: '/nowhere/electron does not exist' });
  });

  it('gives up on a probe that timed out', () => {
    expect(probe({ status: null, timedOut: true })).toEqual({ ok: false, reason: 'locating Electron timed out' });
  });
});

describe('planLaunch', () => {
  it('starts Electron on the project with the forwarded arguments', () => {
    const plan = planLaunch({ probe: { ok: true, binary: '/e/electron' }, projectRoot: ROOT, nodePath: '/n/node', forwardArgs: ['--context', 'dev'] });
    expect(plan).toEqual({ command: '/e/electron', args: [ROOT, '--context', 'dev'], unsetEnv: ['ELECTRON_RUN_AS_NODE'] });
  });

  it('falls back to the browser shell on this Node, with one line saying why and how to fix it', () => {
    const plan = planLaunch({
      probe: { ok: false, reason: 'Electron failed to install correctly' },
      projectRoot: ROOT,
      nodePath: '/n/node',
      forwardArgs: ['--context', 'dev'],
    });
    expect(plan.command).toBe('/n/node');
    expect(plan.args).toEqual([path.join(ROOT, 'electron', 'bin', 'kubedrift.mjs'), 'serve', '--context', 'dev']);
    expect(plan.notice).toBe(
      `Electron's binary is not installed (Electron failed to install correctly); install it with "npx install-electron". Opening the browser shell instead.`,
    );
    expect(plan.notice).not.toContain('\n');
  });
});

describe('exitCodeOf', () => {
  it('forwards the child exit code', () => {
    expect(exitCodeOf(0, null)).toBe(0);
    expect(exitCodeOf(2, null)).toBe(2);
  });
  it('reports a signal the way shells do', () => {
    expect(exitCodeOf(null, 'SIGINT')).toBe(128 + os.constants.signals.SIGINT);
    expect(exitCodeOf(null, 'SIGTERM')).toBe(128 + os.constants.signals.SIGTERM);
  });
});
