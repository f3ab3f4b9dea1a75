/**
 * The real kubectl reads the ControllerRevisions the simulated StatefulSet and DaemonSet
 * controllers keep: `get controllerrevisions` prints NAME, CONTROLLER, REVISION, AGE, and
 * `rollout history` (which lists them by the set's selector and owner) shows each revision.
 */
import { describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import { eventually, headerOf, MINORS, parseTable, useKubectlTest, type KubectlSession } from './session.ts';
import { statefulSet } from './statefulset.ts';

const daemonSet = (ns: string) => `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
  namespace: ${ns}
spec:
  selector:
    matchLabels:
      app: agent
  template:
    metadata:
      labels:
        app: agent
    spec:
      containers:
      - name: agent
        image: registry.k8s.io/pause:3.9
`;

describe.skipIf(kubectlMissing !== undefined)(`real kubectl reads ControllerRevisions${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'revisions', (state) => ({ k, ns } = state));

    /** Polls `get controllerrevisions` until `count` rows are listed; returns them. */
    async function revisions(count: number): Promise<Array<Record<string, string>>> {
      let last = '';
      return eventually(
        async () => {
          const res = await k.run(['get', 'controllerrevisions', '-n', ns]);
          last = res.stdout + res.stderr;
          const rows = parseTable(res.stdout);
          // Listed in name order (hashes); the revision number is what orders them.
          return rows.length === count ? rows.sort((a, b) => Number(a['REVISION']) - Number(b['REVISION'])) : undefined;
        },
        { what: `${count} ControllerRevisions in ${ns}`, last: () => last },
      );
    }

    it('get controllerrevisions and rollout history statefulset show a StatefulSet revision per template', async () => {
      const applied = await k.run(['apply', '-f', '-'], statefulSet(ns));
      expect([applied.code, applied.stdout, applied.stderr]).toEqual([0, 'statefulset.apps/db created\n', '']);
      const [first] = await revisions(1);
      const set = await k.run(['set', 'image', 'statefulset/db', 'db=postgres:16.5', '-n', ns]);
      expect([set.code, set.stdout, set.stderr]).toEqual([0, 'statefulset.apps/db image updated\n', '']);
      const rows = await revisions(2);

      const listed = await k.run(['get', 'controllerrevisions', '-n', ns]);
      expect(headerOf(listed.stdout)).toEqual(['NAME', 'CONTROLLER', 'REVISION', 'AGE']);
      expect(rows.map((row) => [row['CONTROLLER'], row['REVISION']])).toEqual([
        ['statefulset.apps/db', '1'],
        ['statefulset.apps/db', '2'],
      ]);
      expect(first?.['NAME']).toMatch(/^db-[a-z0-9]+$/);
      const status = await k.run(['get', 'statefulset', 'db', '-n', ns, '-o', 'jsonpath={.status.updateRevision}']);
      expect(status.stdout).toBe(rows[1]?.['NAME']);

      const history = await k.run(['rollout', 'history', 'statefulset/db', '-n', ns]);
      expect([history.code, history.stderr]).toEqual([0, '']);
      expect(history.stdout.split('\n').map((line) => line.trim().split(/\s+/).join(' '))).toEqual(['statefulset.apps/db', 'REVISION CHANGE-CAUSE', '1 <none>', '2 <none>', '', '']);
      const second = await k.run(['rollout', 'history', 'statefulset/db', '-n', ns, '--revision=2']);
      expect([second.code, second.stderr]).toEqual([0, '']);
      expect(second.stdout).toContain('Image:\tpostgres:16.5');
    });

    it('rollout history daemonset shows the DaemonSet revisions', async () => {
      const applied = await k.run(['apply', '-f', '-'], daemonSet(ns));
      expect([applied.code, applied.stdout, applied.stderr]).toEqual([0, 'daemonset.apps/agent created\n', '']);
      await revisions(1);
      const set = await k.run(['set', 'image', 'daemonset/agent', 'agent=registry.k8s.io/pause:3.10', '-n', ns]);
      expect([set.code, set.stdout, set.stderr]).toEqual([0, 'daemonset.apps/agent image updated\n', '']);
      const rows = await revisions(2);
      expect(rows.map((row) => [row['CONTROLLER'], row['REVISION']])).toEqual([
        ['daemonset.apps/agent', '1'],
        ['daemonset.apps/agent', '2'],
      ]);
      const history = await k.run(['rollout', 'history', 'daemonset/agent', '-n', ns]);
      expect([history.code, history.stderr]).toEqual([0, '']);
      expect(history.stdout.split('\n').map((line) => line.trim().split(/\s+/).join(' '))).toEqual(['daemonset.apps/agent', 'REVISION CHANGE-CAUSE', '1 <none>', '2 <none>', '', '']);
    });
  });
});
