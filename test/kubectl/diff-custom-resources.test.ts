/**
 * kubectl parity for custom resources: the real `kubectl diff --server-side` (1.27 and 1.32
 * builds) and Kubedrift's diff agree on a custom resource whose list map item changed, and differ
 * on purpose where the CRD says order means nothing: kubectl prints the moved lines of a reordered
 * list map and set, Kubedrift finds no difference.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { objectDiff } from '../../electron/engine/diff/evaluate.ts';
import { runDiff } from '../../electron/engine/diff/run.ts';
import { rowsOf } from '../../electron/engine/diff/summary.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { routeCrd } from '../unit/simcluster/crd/fixtures.ts';
import { kubectlMissing } from './kubectl.ts';
import { MINORS, useKubectlTest, type KubectlSession } from './session.ts';

function route(spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'net.kubedrift.dev/v1',
    kind: 'Route',
    metadata: { name: 'shop' },
    spec: {
      backends: [{ name: 'web', weight: 90 }, { name: 'canary', weight: 10 }],
      hosts: ['shop.example.com', 'www.shop.example.com'],
      ...spec,
    },
  };
}

describe.skipIf(kubectlMissing !== undefined)(`kubectl diff of custom resources${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster;
    let k: KubectlSession;
    let ns: string;
    let dir: string;
    let cleanup: () => Promise<void>;
    let file: string;

    useKubectlTest(minor, 'crdiff', (state) => ({ cluster, k, ns } = state));
    beforeEach(async () => {
      ({ dir, cleanup } = await withTempDir('kubedrift-crdiff-'));
      const crd = path.join(dir, 'crd.json');
      await writeFile(crd, JSON.stringify(routeCrd()));
      const created = await k.run(['apply', '--server-side', '-f', crd]);
      expect(created.code, created.stderr).toBe(0);
      file = path.join(dir, 'route.json');
      await writeFile(file, JSON.stringify(route()));
      const applied = await k.run(['apply', '--server-side', '-n', ns, '-f', file]);
      expect(applied.code, applied.stderr).toBe(0);
    });
    afterEach(() => cleanup?.());

    const run = () => runDiff({ paths: [file], config: cluster.kubeconfigObject(), context: 'crdiff', namespace: ns, kubectl: null });
    const kubedrift = async () => rowsOf(await run(), [])[0];
    const changedLines = (unified: string) => unified.split('\n').filter((line) => /^[-+] /.test(line) && !/^[-+]\s+generation: \d+$/.test(line));
    const kubectlDiff = () => k.run(['diff', '--server-side', '--force-conflicts', '-n', ns, '-f', file]);

    it('agrees that a changed list map item differs, and on the changed lines', async () => {
      await writeFile(file, JSON.stringify(route({ backends: [{ name: 'web', weight: 75 }, { name: 'canary', weight: 25 }] })));
      const result = await kubectlDiff();
      expect(result.code, result.stderr).toBe(1);
      // Besides metadata.generation (which Kubedrift leaves out of both sides), only the two weights, in both.
      expect(changedLines(result.stdout)).toEqual(['-    weight: 90', '+    weight: 75', '-    weight: 10', '+    weight: 25']);
      const ours = await run();
      expect(changedLines(objectDiff(ours.objects[0]!, [], ours.hpas).unified)).toEqual(changedLines(result.stdout));
      expect(rowsOf(ours, [])[0]).toMatchObject({ status: 'OutOfSync', fields: ['spec.backends[name=web].weight', 'spec.backends[name=canary].weight'] });
    });

    it('differs on purpose on a reordered list map and set: kubectl prints the moves, Kubedrift finds them in sync', async () => {
      await writeFile(file, JSON.stringify(route({ backends: [{ name: 'canary', weight: 10 }, { name: 'web', weight: 90 }], hosts: ['www.shop.example.com', 'shop.example.com'] })));
      const result = await kubectlDiff();
      expect(result.code, result.stderr).toBe(1);
      expect(await kubedrift()).toMatchObject({ status: 'InSync', changed: 0 });
    });
  });
});
