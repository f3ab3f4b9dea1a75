import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runDesktopSmoke, smokeEngineOptions, type DesktopSmokeOptions } from '../../../electron/desktop/smoke.ts';
import { READY_PROBE_SCRIPT } from '../../../shared/smoke.ts';

// The decision is made without Electron: loading smoke.ts with Electron unavailable proves it.
vi.mock('electron', () => {
  throw new Error('smoke.ts must not import electron');
});

function setup(answers: unknown[], overrides: Partial<DesktopSmokeOptions> = {}) {
  let clock = 500;
  let asked = 0;
  const printed: string[] = [];
  const errors: string[] = [];
  const executeJavaScript = vi.fn(async (_code: string) => answers[Math.min(asked++, answers.length - 1)]);
  const run = runDesktopSmoke({
    executeJavaScript,
    failure: () => undefined,
    startedAt: 0,
    now: () => clock,
    sleep: async (ms) => {
      clock += ms;
    },
    print: (line) => printed.push(line),
    printError: (line) => errors.push(line),
    ...overrides,
  });
  return { run, printed, errors, executeJavaScript };
}

describe('desktop smoke test', () => {
  it('waits for the window to report the Overview live on the demo cluster, prints the line and exits 0', async () => {
    const { run, printed, errors, executeJavaScript } = setup([null, null, { context: 'kubedrift-demo', workloads: 18 }]);
    await expect(run).resolves.toBe(0);
    expect(printed).toEqual(['kubedrift smoke-test: overview live on kubedrift-demo (18 workloads) in 700 ms']);
    expect(errors).toEqual([]);
    expect(executeJavaScript).toHaveBeenCalledWith(READY_PROBE_SCRIPT);
  });

  it('exits 1 with the reason when the Overview does not go live in time', async () => {
    const { run, printed, errors } = setup([null], { timeout: '2' });
    await expect(run).resolves.toBe(1);
    expect(printed).toEqual([]);
    expect(errors).toEqual(['kubedrift smoke-test: failed after 2000 ms: the Overview did not go live within 2000 ms']);
  });

  it('exits 1 at once when the renderer process is gone', async () => {
    const { run, errors } = setup([null], { failure: () => 'the renderer process is gone (crashed)' });
    await expect(run).resolves.toBe(1);
    expect(errors).toEqual(['kubedrift smoke-test: failed after 500 ms: the renderer process is gone (crashed)']);
  });

  it('refuses a --smoke-timeout that is not a number of seconds', async () => {
    const { run, errors, executeJavaScript } = setup([null], { timeout: 'soon' });
    await expect(run).resolves.toBe(1);
    expect(errors).toEqual(['kubedrift smoke-test: failed after 0 ms: --smoke-timeout must be a positive number of seconds, got "soon"']);
    expect(executeJavaScript).not.toHaveBeenCalled();
  });

  it('fails when the window went live on a context other than the demo cluster', async () => {
    const { run, errors } = setup([{ context: 'kind-dev', workloads: 4 }]);
    await expect(run).resolves.toBe(1);
    expect(errors[0]).toContain('went live on "kind-dev", not on kubedrift-demo');
  });

  it('starts the engine on the demo context with a kubeconfig that does not exist, unwatched', () => {
    expect(smokeEngineOptions({ dataDir: '/tmp/kubedrift-smoke-1' })).toEqual({
      kubeconfig: path.join('/tmp/kubedrift-smoke-1', 'no-kubeconfig'),
      context: 'kubedrift-demo',
      watchKubeconfig: false,
      loginShellPath: false,
    });
  });
});
