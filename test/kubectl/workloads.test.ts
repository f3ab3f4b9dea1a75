/**
 * The real kubectl drives the simulated controllers as it drives a real cluster's: `get -w`
 * streams a deleted pod's termination and its ReplicaSet's replacement, `scale` converges,
 * `rollout status` follows a `set image` rollout to its end, and `delete` cascades to the
 * Deployment's ReplicaSets and pods.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import { eventually, headerOf, MINORS, parseTable, useKubectlTest, type KubectlSession } from './session.ts';

interface PodView {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { containers: Array<{ image: string }> };
  status: { phase: string; containerStatuses?: Array<{ ready: boolean }> };
}

describe.skipIf(kubectlMissing !== undefined)(`real kubectl drives the simulated controllers${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'work', (state) => ({ k, ns } = state));
    beforeEach(async () => {
      const created = await k.run(['create', 'deployment', 'web', '--image=nginx:1.27.2', '--replicas=2', '-n', ns]);
      expect([created.code, created.stdout, created.stderr]).toEqual([0, 'deployment.apps/web created\n', '']);
      await readyPods(2);
    });

    /** Polls `get deploy web` until it reads `want`; returns the row. */
    async function deploymentReads(want: { READY: string; 'UP-TO-DATE': string; AVAILABLE: string }): Promise<Record<string, string>> {
      let last = '';
      return eventually(
        async () => {
          const res = await k.run(['get', 'deploy', 'web', '-n', ns]);
          last = res.stdout + res.stderr;
          const row = parseTable(res.stdout)[0];
          return row && row['READY'] === want.READY && row['UP-TO-DATE'] === want['UP-TO-DATE'] && row['AVAILABLE'] === want.AVAILABLE ? row : undefined;
        },
        { what: `deployment web to read ${JSON.stringify(want)}`, last: () => last },
      );
    }

    /** Polls `get pods` until exactly `count` pods are listed, all 1/1 Running; returns their rows. */
    async function readyPods(count: number): Promise<Array<Record<string, string>>> {
      let last = '';
      return eventually(
        async () => {
          const res = await k.run(['get', 'pods', '-n', ns]);
          last = res.stdout + res.stderr;
          const rows = parseTable(res.stdout);
          return rows.length === count && rows.every((row) => row['READY'] === '1/1' && row['STATUS'] === 'Running') ? rows : undefined;
        },
        { what: `${count} running pods in ${ns}`, last: () => last },
      );
    }

    it('get pods -w shows a deleted pod terminating and its ReplicaSet creating a replacement', async () => {
      const before = (await readyPods(2)).map((row) => row['NAME'] ?? '');
      const victim = before[0] ?? '';
      const watch = k.stream(['get', 'pods', '-n', ns, '-w', '--request-timeout=30s']);
      try {
        const listed = await watch.until((out) => before.every((name) => out.includes(name)));
        expect(headerOf(listed)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);

        const deleted = await k.run(['delete', 'pod', victim, '-n', ns]);
        expect([deleted.code, deleted.stdout, deleted.stderr]).toEqual([0, `pod "${victim}" deleted\n`, '']);

        const lines = () => watch.stdout().split('\n').map((line) => line.trim().split(/\s+/));
        const hash = victim.replace(/-[a-z0-9]{5}$/, '');
        const replacementRunning = (row: string[]) => row[0]?.startsWith(`${hash}-`) && !before.includes(row[0]) && row[1] === '1/1' && row[2] === 'Running';
        await watch.until(() => lines().some(replacementRunning));
        const rows = lines();
        expect(rows).toContainEqual([victim, '1/1', 'Terminating', '0', expect.stringMatching(/^\d+s$/)]);
        const replacement = rows.find(replacementRunning)?.[0] ?? '';
        // The watch saw the new pod from its creation on: Pending, then ContainerCreating, then Running.
        const phases = rows.filter((row) => row[0] === replacement).map((row) => row[2]);
        expect(phases[0]).toBe('Pending');
        expect(phases).toContain('ContainerCreating');
        expect(phases.at(-1)).toBe('Running');
        expect(before).not.toContain(replacement);
      } finally {
        await watch.stop();
      }
      const after = (await readyPods(2)).map((row) => row['NAME']);
      expect(after).not.toContain(victim);
    });

    it('scale deploy/web --replicas=4 converges to four ready replicas', async () => {
      const scaled = await k.run(['scale', 'deploy/web', '--replicas=4', '-n', ns]);
      expect([scaled.code, scaled.stdout, scaled.stderr]).toEqual([0, 'deployment.apps/web scaled\n', '']);
      expect(await deploymentReads({ READY: '4/4', 'UP-TO-DATE': '4', AVAILABLE: '4' })).toMatchObject({ NAME: 'web' });
      expect(await readyPods(4)).toHaveLength(4);
      const rs = parseTable((await k.run(['get', 'rs', '-n', ns])).stdout);
      expect(rs).toEqual([expect.objectContaining({ NAME: expect.stringMatching(/^web-[a-z0-9]+$/), DESIRED: '4', CURRENT: '4', READY: '4' })]);

      const down = await k.run(['scale', 'deploy/web', '--replicas=1', '-n', ns]);
      expect(down.stdout).toBe('deployment.apps/web scaled\n');
      await deploymentReads({ READY: '1/1', 'UP-TO-DATE': '1', AVAILABLE: '1' });
      expect(await readyPods(1)).toHaveLength(1);
    });

    it('rollout status follows a set image rollout until it is successfully rolled out', async () => {
      const oldRs = parseTable((await k.run(['get', 'rs', '-n', ns])).stdout).map((row) => row['NAME']);
      const set = await k.run(['set', 'image', 'deploy/web', 'nginx=nginx:1.28.0', '-n', ns]);
      expect([set.code, set.stdout, set.stderr]).toEqual([0, 'deployment.apps/web image updated\n', '']);
      const status = await k.run(['rollout', 'status', 'deploy/web', '-n', ns, '--timeout=60s']);
      expect([status.code, status.stderr]).toEqual([0, '']);
      const lines = status.stdout.trim().split('\n');
      expect(lines.at(-1)).toBe('deployment "web" successfully rolled out');
      for (const line of lines.slice(0, -1)) expect(line).toMatch(/^Waiting for deployment (spec update to be observed\.\.\.|"web" rollout to finish: .+\.\.\.)$/);

      // Done means done: every pod not on its way out runs the new image and is ready, and the old
      // ReplicaSet is scaled to zero (an old pod may still be terminating, as on a real cluster).
      const listed = JSON.parse((await k.run(['get', 'pods', '-n', ns, '-o', 'json'])).stdout) as { items: PodView[] };
      const live = listed.items.filter((pod) => !pod.metadata.deletionTimestamp);
      expect(live.map((pod) => [pod.spec.containers[0]?.image, pod.status.phase, pod.status.containerStatuses?.[0]?.ready])).toEqual([
        ['nginx:1.28.0', 'Running', true],
        ['nginx:1.28.0', 'Running', true],
      ]);
      const replicaSets = parseTable((await k.run(['get', 'rs', '-n', ns])).stdout);
      expect(replicaSets.find((row) => oldRs.includes(row['NAME']))).toMatchObject({ DESIRED: '0', CURRENT: '0', READY: '0' });
      expect(replicaSets.find((row) => !oldRs.includes(row['NAME']))).toMatchObject({ DESIRED: '2', CURRENT: '2', READY: '2' });

      const history = await k.run(['rollout', 'history', 'deploy/web', '-n', ns]);
      expect(history.stdout).toMatch(/^deployment\.apps\/web \nREVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>\n/);
    });

    it('delete deploy/web cascades to its ReplicaSets and pods', async () => {
      await k.run(['set', 'image', 'deploy/web', 'nginx=nginx:1.28.0', '-n', ns]);
      await k.run(['rollout', 'status', 'deploy/web', '-n', ns, '--timeout=60s']);
      expect(parseTable((await k.run(['get', 'rs', '-n', ns])).stdout)).toHaveLength(2);

      const deleted = await k.run(['delete', 'deploy/web', '-n', ns]);
      expect([deleted.code, deleted.stdout, deleted.stderr]).toEqual([0, 'deployment.apps "web" deleted\n', '']);
      let last = '';
      const gone = await eventually(
        async () => {
          const res = await k.run(['get', 'deploy,rs,pods', '-n', ns]);
          last = res.stdout + res.stderr;
          return res.code === 0 && res.stdout === '' ? res.stderr : undefined;
        },
        { what: `the deployment's ReplicaSets and pods to be gone from ${ns}`, last: () => last },
      );
      expect(gone).toBe(`No resources found in ${ns} namespace.\n`);
      const missing = await k.run(['get', 'deploy', 'web', '-n', ns]);
      expect([missing.code, missing.stderr]).toEqual([1, 'Error from server (NotFound): deployments.apps "web" not found\n']);
    });
  });
});
