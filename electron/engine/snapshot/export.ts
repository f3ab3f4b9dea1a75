/**
 * One export, from request to bytes: collect the snapshot, then encode it in the chosen format
 * (gzipped snapshot file, YAML bundle or HTML report), reporting each step so a large export
 * shows a moving bar. The HTML renderer is imported on first use: it brings ECharts.
 */
import type { ExportFormat, ExportRequest, SnapshotProgress } from '../../../shared/contracts/snapshot.ts';
import { SNAPSHOT_EXTENSION } from '../../../shared/contracts/snapshot.ts';
import { collectSnapshot, type CollectSources } from './collect.ts';
import { encodeSnapshot } from './file.ts';
import { snapshotYaml } from './yaml.ts';

export interface ExportOutput {
  bytes: Buffer;
  fileName: string;
  mimeType: string;
  objects: number;
  takenAt: number;
  notes: string[];
}

export type ProgressReporter = (progress: Omit<SnapshotProgress, 'id' | 'format'>) => void;

const FORMATS: Readonly<Record<ExportFormat, { extension: string; mimeType: string; label: string }>> = {
  snapshot: { extension: SNAPSHOT_EXTENSION, mimeType: 'application/gzip', label: 'snapshot file' },
  yaml: { extension: '.yaml', mimeType: 'application/yaml', label: 'YAML bundle' },
  html: { extension: '.html', mimeType: 'text/html', label: 'HTML report' },
};

/** `prod-eu-20240501-120005.kubedrift.json.gz`: the context and the UTC time, safe on every file system. */
export function exportFileName(context: string, takenAt: number, format: ExportFormat): string {
  const safe = context.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'cluster';
  const stamp = new Date(takenAt).toISOString().replace(/\.\d+Z$/, '').replace(/[-:]/g, '').replace('T', '-');
  return `${safe}-${stamp}${FORMATS[format].extension}`;
}

/** Steps of the bar: collect, history, graph, then the format's own (charts for HTML), then writing. */
const BASE_STEPS = 4;

export async function runExport(sources: CollectSources, request: Omit<ExportRequest, 'destination'>, report: ProgressReporter): Promise<ExportOutput> {
  let total = BASE_STEPS + 1;
  const words = { collecting: 'Reading the objects', history: 'Reading the recorded history', graph: 'Building the ownership graph' } as const;
  const order = ['collecting', 'history', 'graph'] as const;
  const { file, notes } = await collectSnapshot(sources, request, (phase, done, of) =>
    report({
      phase,
      // The history step advances per workload: its share of the bar is one step, filled gradually.
      done: order.indexOf(phase) + (done !== undefined && of ? done / of : 0),
      total,
      message: done !== undefined && of ? `${words[phase]}: ${done} of ${of} workloads` : words[phase],
    }),
  );
  const format = FORMATS[request.format];
  let text: string | Buffer;
  if (request.format === 'snapshot') {
    report({ phase: 'rendering', done: 3, total, message: `Compressing ${file.objects.length} objects` });
    text = await encodeSnapshot(file);
  } else if (request.format === 'yaml') {
    report({ phase: 'rendering', done: 3, total, message: `Writing ${file.objects.length} objects as YAML` });
    text = snapshotYaml(file, { keepStatus: request.keepStatus });
  } else {
    const { renderReport } = await import('./html/report.ts');
    report({ phase: 'rendering', done: 3, total, message: 'Drawing the charts' });
    text = renderReport(file, {
      userRules: sources.statusRules?.() ?? [],
      onChart: (done, charts) => {
        total = BASE_STEPS + charts;
        report({ phase: 'rendering', done: 3 + done, total, message: `Drawing chart ${done} of ${charts}` });
      },
    });
  }
  return {
    bytes: typeof text === 'string' ? Buffer.from(text, 'utf8') : text,
    fileName: exportFileName(file.context.name, file.takenAt, request.format),
    mimeType: format.mimeType,
    objects: file.objects.length,
    takenAt: file.takenAt,
    notes,
  };
}

export function formatLabel(format: ExportFormat): string {
  return FORMATS[format].label;
}
