/**
 * kubectl parity: the real `kubectl diff -f` (1.27 and 1.32 builds) and Kubedrift's diff engine,
 * on the same folders against the same simulated cluster, must find the same set of differing
 * objects — none right after `kubectl apply`, then exactly the edited, scaled, deleted and new
 * ones. Differing objects are read from kubectl's `diff -u -N .../LIVE-n/<group.version.Kind.ns.name>` headers.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DiffRow } from '../../shared/contracts/diff.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { runDiff } from '../../electron/engine/diff/run.ts';
import { rowsOf } from '../../electron/engine/diff/summary.ts';
import { kubectlFileName } from '../../electron/engine/diff/text/unified.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { fixture } from '../unit/engine/diff/fixtures.ts';
import { kubectlMissing } from './kubectl.ts';
import { MINORS, useKubectlTest, type KubectlSession } from './session.ts';

/** The objects `kubectl diff` printed a diff for, by kubectl's file name. */
function kubectlDiffering(stdout: string): string[] {
  return [...stdout.matchAll(/^diff -u -N \S*\/LIVE-\d+\/(\S+) /gm)].map((m) => m[1] as string).sort();
}

async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}`);
  await writeFile(file, text.replace(from, to));
}

describe.skipIf(kubectlMissing !== undefined)(`kubectl diff parity${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster;
    let k: KubectlSession;
    let ns: string;
    let dir: string;
    let cleanup: () => Promise<void>;
    let app: string;

    useKubectlTest(minor, 'parity', (state) => ({ cluster, k, ns } = state));
    beforeEach(async () => {
      ({ dir, cleanup } = await withTempDir('kubedrift-parity-'));
      // A namespaced app without namespaces in its files, as most repositories keep them.
      app = path.join(dir, 'app');
      await cp(fixture('guestbook'), app, { recursive: true });
      await cp(fixture('lists', 'configmaps.json'), path.join(app, 'configmaps.json'));
      await cp(fixture('secrets', 'db-credentials.yaml'), path.join(app, 'db-credentials.yaml'));
      await writeFile(path.join(app, 'worker.yaml'), await readFile(fixture('shop', 'nightly-report.yml'), 'utf8').then((text) => text.replace('  namespace: shop\n', '')));
    });
    afterEach(() => cleanup?.());

    /** Kubedrift's diff of the app: what differs, by kubectl's file name, and the rows it could not diff. */
    async function kubedriftDiff(): Promise<{ differing: string[]; errors: DiffRow[] }> {
      const rows = rowsOf(await runDiff({ paths: [app], config: cluster.kubeconfigObject(), context: 'parity', namespace: ns, kubectl: null }), []);
      return {
        differing: rows
          .filter((row) => row.status === 'OutOfSync' || row.status === 'Missing')
          .map((row) => kubectlFileName(row))
          .sort(),
        errors: rows.filter((row) => row.status === 'Error'),
      };
    }

    async function both(): Promise<{ kubectl: string[]; kubedrift: string[]; code: number }> {
      const result = await k.run(['diff', '-n', ns, '-f', app]);
      expect(result.code, result.stderr).toBeLessThan(2);
      const kubedrift = await kubedriftDiff();
      expect(kubedrift.errors).toEqual([]);
      return { kubectl: kubectlDiffering(result.stdout), kubedrift: kubedrift.differing, code: result.code };
    }

    it('agrees before and right after kubectl apply', async () => {
      const before = await both();
      expect(before.kubedrift).toEqual(before.kubectl);
      expect(before.kubectl).toHaveLength(6);
      const applied = await k.run(['apply', '-n', ns, '-f', app]);
      expect(applied.code, applied.stderr).toBe(0);
      const after = await both();
      expect(after).toEqual({ kubectl: [], kubedrift: [], code: 0 });
    });

    it('agrees on edited, scaled-by-hand, deleted and new objects', async () => {
      expect((await k.run(['apply', '-n', ns, '-f', app])).code).toBe(0);
      await edit(path.join(app, 'guestbook-ui-svc.yaml'), 'targetPort: 80', 'targetPort: 8080');
      await edit(path.join(app, 'configmaps.json'), '"a": "1"', '"a": "one"');
      await edit(path.join(app, 'db-credentials.yaml'), 'czNjcjN0', 'cm90YXRlZA==');
      await writeFile(path.join(app, 'new.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: brand-new\ndata:\n  k: v\n');
      expect((await k.run(['scale', 'deployment/guestbook-ui', '-n', ns, '--replicas=3'])).code).toBe(0);
      expect((await k.run(['delete', 'cronjob/nightly-report', '-n', ns])).code).toBe(0);
      const result = await both();
      expect(result.code).toBe(1);
      expect(result.kubedrift).toEqual(result.kubectl);
      expect(result.kubectl).toEqual(
        [
          `apps.v1.Deployment.${ns}.guestbook-ui`,
          `batch.v1.CronJob.${ns}.nightly-report`,
          `v1.ConfigMap.${ns}.brand-new`,
          `v1.ConfigMap.${ns}.listed-one`,
          `v1.Secret.${ns}.db-credentials`,
          `v1.Service.${ns}.guestbook-ui`,
        ].sort(),
      );
      await rm(path.join(app, 'new.yaml'));
    });

    it('agrees on a field deleted from a file after a client-side apply (pruned through last-applied)', async () => {
      expect((await k.run(['apply', '-n', ns, '-f', app])).code).toBe(0);
      await edit(path.join(app, 'guestbook-ui-deployment.yaml'), '  revisionHistoryLimit: 3\n', '');
      // The Service's targetPort defaults to its port: dropping it changes nothing once applied.
      await edit(path.join(app, 'guestbook-ui-svc.yaml'), '    targetPort: 80\n', '');
      await edit(path.join(app, 'configmaps.json'), '"data": { "b": "2" }', '"data": {}');
      const result = await both();
      expect(result.kubedrift).toEqual(result.kubectl);
      expect(result.kubectl).toEqual([`apps.v1.Deployment.${ns}.guestbook-ui`, `v1.ConfigMap.${ns}.listed-two`]);
    });

    it('agrees with kubectl diff --server-side on objects applied server-side, including a deleted field', async () => {
      const applied = await k.run(['apply', '--server-side', '-n', ns, '-f', app]);
      expect(applied.code, applied.stderr).toBe(0);
      await edit(path.join(app, 'guestbook-ui-deployment.yaml'), '  revisionHistoryLimit: 3\n', '');
      await edit(path.join(app, 'guestbook-ui-svc.yaml'), 'targetPort: 80', 'targetPort: 8080');
      const result = await k.run(['diff', '--server-side', '--force-conflicts', '-n', ns, '-f', app]);
      expect(result.code, result.stderr).toBe(1);
      const { differing: kubedrift } = await kubedriftDiff();
      expect(kubedrift).toEqual(kubectlDiffering(result.stdout));
      expect(kubedrift).toEqual([`apps.v1.Deployment.${ns}.guestbook-ui`, `v1.Service.${ns}.guestbook-ui`]);
    });
  });
});
