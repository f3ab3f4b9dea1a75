/**
 * What a snapshot of a busy namespace costs (graph-build.ts's 10,000 pods under 200 Deployments,
 * as slim objects the way the cache holds them):
 * - `snapshot_export_10k_pods_ms`: scope, redaction, sorting and gzip of the file, median;
 * - `snapshot_10k_pods_file_bytes`: the .kubedrift.json.gz size;
 * - `snapshot_open_10k_pods_ms`: unzip, header checks and schema validation when it is opened;
 * - `snapshot_yaml_10k_pods_ms` and `snapshot_report_10k_pods_ms`: the YAML bundle and the HTML report.
 */
import { collectSnapshot } from '../../electron/engine/snapshot/collect.ts';
import { decodeSnapshot, encodeSnapshot } from '../../electron/engine/snapshot/file.ts';
import { renderReport } from '../../electron/engine/snapshot/html/report.ts';
import { snapshotYaml } from '../../electron/engine/snapshot/yaml.ts';
import { busyNamespace } from './graph-build.ts';
import { percentile, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

async function median(runs: number, task: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await task();
    samples.push(performance.now() - start);
  }
  return round(percentile(samples, 50));
}

export const snapshotExport: BenchScenario = {
  name: 'snapshot-export',
  results: ['snapshot_export_10k_pods_ms', 'snapshot_10k_pods_file_bytes', 'snapshot_open_10k_pods_ms', 'snapshot_yaml_10k_pods_ms', 'snapshot_report_10k_pods_ms'],
  goals: [
    { result: 'snapshot_export_10k_pods_ms', below: 2_000 },
    { result: 'snapshot_open_10k_pods_ms', below: 1_500 },
  ],
  async run(ctx) {
    const objects = busyNamespace();
    const runs = ctx.quick ? 2 : 7;
    const sources = {
      version: 'bench',
      now: () => Date.parse('2025-05-01T12:00:00Z'),
      selected: () => ({ name: 'bench', demo: false }),
      live: () => objects,
      objectsAt: () => Promise.reject(new Error('no history in the bench')),
    };
    const exportOnce = async () => encodeSnapshot((await collectSnapshot(sources, { scope: { type: 'namespace', namespace: 'busy' }, at: null })).file);
    const bytes = await exportOnce();
    const file = await decodeSnapshot(bytes);
    if (file.objects.filter((object) => object.kind === 'Pod').length !== 10_000) throw new Error('the snapshot does not hold the 10,000 pods');
    return {
      snapshot_export_10k_pods_ms: await median(runs, exportOnce),
      snapshot_10k_pods_file_bytes: bytes.length,
      snapshot_open_10k_pods_ms: await median(runs, () => decodeSnapshot(bytes)),
      snapshot_yaml_10k_pods_ms: await median(runs, () => snapshotYaml(file, { keepStatus: true })),
      snapshot_report_10k_pods_ms: await median(runs, () => renderReport(file)),
    };
  },
};
