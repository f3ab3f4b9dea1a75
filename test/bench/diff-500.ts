/**
 * What one diff run costs against the simulated cluster: 500 objects (Deployments, Services,
 * ConfigMaps, Secrets) in 50 multi-document files, all but the last file applied to the cluster,
 * then one in ten edited in the files: 49 out of sync, 10 missing, the rest in sync.
 * - `diff_500_objects_ms`: the whole run as the app does it — read and parse the files, discover
 *   the kinds, GET and dry-run every object, normalise, compare and build the rows — median of
 *   the runs.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { startSimCluster } from '../../electron/engine/simcluster/index.ts';
import { runDiff } from '../../electron/engine/diff/run.ts';
import { rowsOf, summaryOf } from '../../electron/engine/diff/summary.ts';
import { applyManifests } from '../unit/engine/diff/apply.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const OBJECTS = 500;
const FILES = 50;
const NS = 'bench-diff';

function manifest(i: number, edited: boolean): Record<string, unknown> {
  const name = `app-${i}`;
  const labels = { 'app.kubernetes.io/name': name, 'app.kubernetes.io/part-of': 'bench' };
  switch (i % 4) {
    case 0:
      return {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name, namespace: NS, labels },
        spec: {
          replicas: 2,
          selector: { matchLabels: { 'app.kubernetes.io/name': name } },
          template: {
            metadata: { labels },
            spec: { containers: [{ name: 'app', image: `registry.example.com/${name}:${edited ? '1.1' : '1.0'}`, ports: [{ containerPort: 8080 }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
          },
        },
      };
    case 1:
      return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: NS, labels }, spec: { selector: { 'app.kubernetes.io/name': name }, ports: [{ port: edited ? 8081 : 80, targetPort: 8080 }] } };
    case 2:
      return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: NS, labels }, data: { LOG_LEVEL: edited ? 'debug' : 'info', FEATURE_FLAGS: 'a,b,c', 'config.yaml': 'server:\n  port: 8080\n' } };
    default:
      return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: NS, labels }, type: 'Opaque', data: { password: Buffer.from(edited ? `rotated-${i}` : `secret-${i}`).toString('base64') } };
  }
}

async function writeFolder(dir: string, edited: (i: number) => boolean): Promise<void> {
  const perFile = OBJECTS / FILES;
  for (let f = 0; f < FILES; f++) {
    const docs = Array.from({ length: perFile }, (_, k) => stringify(manifest(f * perFile + k, edited(f * perFile + k))));
    await writeFile(path.join(dir, `app-${String(f).padStart(2, '0')}.yaml`), docs.join('---\n'));
  }
}

export const diff500: BenchScenario = {
  name: 'diff-500',
  results: ['diff_500_objects_ms'],
  goals: [{ result: 'diff_500_objects_ms', below: 5000 }],
  async run(ctx) {
    const cluster = await startSimCluster({ scenario: 'minimal', controllers: false, onError: ctx.log });
    const dir = await mkdtemp(path.join(os.tmpdir(), 'kubedrift-bench-diff-'));
    try {
      const config = cluster.kubeconfigObject();
      await writeFile(path.join(dir, 'namespace.yaml'), stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }));
      await writeFolder(dir, () => false);
      // Applied except the last file (its objects are Missing), then one in ten edited (OutOfSync).
      const applied = [path.join(dir, 'namespace.yaml'), ...Array.from({ length: FILES - 1 }, (_, f) => path.join(dir, `app-${String(f).padStart(2, '0')}.yaml`))];
      await applyManifests(config, applied);
      await writeFolder(dir, (i) => i % 10 === 3);
      const runs: number[] = [];
      for (let r = 0; r < (ctx.quick ? 1 : 3); r++) {
        const started = performance.now();
        const run = await runDiff({ paths: [dir], config, context: 'bench', kubectl: null });
        const summary = summaryOf(run, rowsOf(run, []));
        runs.push(performance.now() - started);
        const expected = { InSync: OBJECTS + 1 - 59, OutOfSync: 49, Missing: 10, Error: 0 };
        if (JSON.stringify(summary.counts) !== JSON.stringify(expected)) throw new Error(`unexpected diff result: ${JSON.stringify(summary.counts)}, expected ${JSON.stringify(expected)}`);
      }
      ctx.log(`diff of ${OBJECTS} objects: ${runs.map((ms) => Math.round(ms)).join(', ')} ms`);
      return { diff_500_objects_ms: round(percentile(runs, 50)) };
    } finally {
      await rm(dir, { recursive: true, force: true });
      await cluster.stop();
    }
  },
};
