import { existsSync, readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mergePathLists, parseFramedPath, resolveLoginShellPath } from '../../../../electron/engine/cluster/shell-path.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

const INHERITED = '/usr/bin:/bin:/only/inherited';

/** A stand-in login shell: `$1` is the flags, `$2` the command, as `$SHELL -ilc CMD` gets them. */
async function fakeShell(name: string, body: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

/** Running, as opposed to gone or killed and waiting to be reaped (a zombie, state Z on Linux). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2] !== 'Z';
  } catch {
    return true;
  }
}

describe('resolveLoginShellPath', () => {
  it('reads the PATH a chatty login profile builds and puts its entries first', async () => {
    const shell = await fakeShell(
      'chatty-sh',
      [
        'echo "Last login: Mon Jan  6 09:12:44 on ttys001"',
        'echo "__KD_START__ a profile that prints the mark too"',
        'export PATH="/opt/homebrew/bin:/usr/local/bin:$PATH"',
        '/bin/sh -c "$2"',
        'echo "see you (from .zlogout)"',
      ].join('\n'),
    );
    const result = await resolveLoginShellPath({ shell, env: { PATH: INHERITED } });
    expect(result).toEqual({
      path: '/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/only/inherited',
      source: 'login-shell',
      shell,
    });
  });

  it('takes the shell from $SHELL and passes it the inherited environment', async () => {
    const shell = await fakeShell('env-sh', 'export PATH="$KD_EXTRA:$PATH"; /bin/sh -c "$2"');
    const result = await resolveLoginShellPath({ env: { PATH: INHERITED, SHELL: shell, KD_EXTRA: '/from/env' } });
    expect(result.path.split(':')[0]).toBe('/from/env');
    expect(result.shell).toBe(shell);
  });

  it('gives up on a shell that hangs, kills it with its children, and keeps the inherited PATH', async () => {
    const shell = await fakeShell('hanging-sh', `echo $$ > "${dir}/shell.pid"; sleep 60 & echo $! > "${dir}/child.pid"; wait`);
    const started = Date.now();
    const result = await resolveLoginShellPath({ shell, env: { PATH: INHERITED }, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result).toEqual({
      path: INHERITED,
      source: 'inherited',
      shell,
      error: `${shell} did not answer within 300 ms (kept the inherited PATH)`,
    });
    const pids = await Promise.all(['shell.pid', 'child.pid'].map(async (f) => Number(await readFile(path.join(dir, f), 'utf8'))));
    await vi.waitFor(() => expect(pids.filter(alive)).toEqual([]), { timeout: 3_000, interval: 20 });
  });

  it('keeps the inherited PATH and says why when the profile fails', async () => {
    const shell = await fakeShell('failing-sh', 'echo "zsh: command not found: brew" >&2; exit 3');
    const result = await resolveLoginShellPath({ shell, env: { PATH: INHERITED } });
    expect(result.source).toBe('inherited');
    expect(result.path).toBe(INHERITED);
    expect(result.error).toBe(`${shell} exited with code 3 without printing its PATH: zsh: command not found: brew`);
  });

  it('reports a shell that does not exist instead of throwing', async () => {
    const result = await resolveLoginShellPath({ shell: path.join(dir, 'no-such-shell'), env: { PATH: INHERITED } });
    expect(result).toMatchObject({ path: INHERITED, source: 'inherited', error: expect.stringMatching(/cannot start .*no-such-shell: .*ENOENT/) });
  });

  it('reports an empty PATH from the shell rather than using it', async () => {
    const result = await resolveLoginShellPath({
      shell: '/bin/fake',
      env: { PATH: INHERITED },
      run: async () => ({ stdout: '__KD_START__\n__KD_END__', code: 0 }),
    });
    expect(result).toEqual({ path: INHERITED, source: 'inherited', shell: '/bin/fake', error: '/bin/fake printed an empty PATH' });
  });

  it('never waits on a runner that ignores the abort signal', async () => {
    const result = await resolveLoginShellPath({ shell: '/bin/fake', env: { PATH: INHERITED }, timeoutMs: 50, run: () => new Promise(() => undefined) });
    expect(result).toMatchObject({ source: 'inherited', error: expect.stringMatching(/did not answer within 50 ms/) });
  });

  it('asks no shell on Windows, nor when SHELL is unset', async () => {
    const run = vi.fn(async () => ({ stdout: '__KD_START__/x__KD_END__', code: 0 }));
    expect(await resolveLoginShellPath({ platform: 'win32', env: { PATH: 'C:\\bin', SHELL: '/bin/bash' }, run })).toEqual({ path: 'C:\\bin', source: 'inherited' });
    expect(await resolveLoginShellPath({ platform: 'linux', env: { PATH: INHERITED }, run })).toMatchObject({ path: INHERITED, source: 'inherited', error: expect.stringMatching(/SHELL is not set/) });
    expect(run).not.toHaveBeenCalled();
  });

  it('calls csh-family shells without the -l they refuse in combination', async () => {
    const run = vi.fn(async () => ({ stdout: '__KD_START__/x__KD_END__', code: 0 }));
    await resolveLoginShellPath({ shell: '/bin/tcsh', env: { PATH: INHERITED }, platform: 'linux', run });
    await resolveLoginShellPath({ shell: '/usr/bin/zsh', env: { PATH: INHERITED }, platform: 'linux', run });
    expect(run.mock.calls.map((call) => (call as unknown as [string, string[]])[1][0])).toEqual(['-ic', '-ilc']);
  });

  for (const shell of ['/bin/sh', '/bin/bash', '/bin/zsh', '/usr/bin/fish']) {
    it.skipIf(!existsSync(shell))(`reads the PATH from a real ${path.basename(shell)}`, async () => {
      const result = await resolveLoginShellPath({ shell, env: { PATH: INHERITED, HOME: dir } });
      expect(result.error).toBeUndefined();
      expect(result.source).toBe('login-shell');
      expect(result.path.split(':')).toContain('/only/inherited');
      expect(result.path).not.toMatch(/__KD_|\n/);
    });
  }
});

describe('parseFramedPath', () => {
  it('takes the last complete frame and drops the newline printenv adds', () => {
    expect(parseFramedPath('motd __KD_START__ noise\n__KD_START__/a:/b\n__KD_END__bye')).toBe('/a:/b');
    expect(parseFramedPath('__KD_START__/a:/b')).toBeNull();
    expect(parseFramedPath('nothing here')).toBeNull();
  });
});

describe('mergePathLists', () => {
  it('puts the first list first, without repeats or empty entries', () => {
    expect(mergePathLists('/a::/b:/a', '/b:/c:')).toBe('/a:/b:/c');
  });
});
