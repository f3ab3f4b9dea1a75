/**
 * The smoke test the release workflow runs on every packaged desktop app, here through the
 * browser shell: the real `kubedrift serve --smoke-test`, as a user would type it, must load the
 * renderer in headless Chromium, see the Overview go live on the demo cluster and exit 0.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

describe('kubedrift serve --smoke-test', () => {
  it('prints that the Overview went live on the demo cluster and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['serve', '--smoke-test', '--smoke-timeout', '50']);
    expect({ code, stderr: stderr.split('\n').filter((line) => line.startsWith('kubedrift smoke-test')) }).toEqual({ code: 0, stderr: [] });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const match = /^kubedrift smoke-test: overview live on kubedrift-demo \(([\d,]+) workloads\) in (\d+) ms$/.exec(lines[0] ?? '');
    expect(match, stdout).not.toBeNull();
    expect(Number(match?.[1]?.replace(/,/g, ''))).toBeGreaterThan(0);
  });
});
