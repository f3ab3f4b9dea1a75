/**
 * The HTML report: one self-contained file (styles and SVG charts inline, no script, no
 * external reference) a person can mail, attach to a ticket or print. Loaded on demand: it is the
 * only part of the engine that needs ECharts.
 */
import type { Episode } from '../../../../shared/contracts/history.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import type { UserStatusRule } from '../../../../shared/contracts/status-rules.ts';
import { driftingRows, workloadRows } from '../summary.ts';
import { driftCountChart, workloadChart } from './charts.ts';
import { customResourcesSection } from './custom-resources.ts';
import { escapeHtml, formatTime, html, type RawHtml } from './escape.ts';
import { diffSection, driftingSection, driftOverTimeSection, episodesSection, eventsSection, summarySection, workloadChartsSection, type WorkloadChart } from './sections.ts';
import { REPORT_CSS } from './styles.ts';

/** Per-workload charts drawn at most; the rest stay in the snapshot file. */
export const MAX_WORKLOAD_CHARTS = 24;

export interface ReportOptions {
  /** Called after each chart, for progress. */
  onChart?: (done: number, total: number) => void;
  /** The user's status rules (Settings): custom resources' states as the app shows them. */
  userRules?: readonly UserStatusRule[];
}

function scopeText(file: SnapshotFile): string {
  switch (file.scope.type) {
    case 'cluster':
      return 'whole cluster';
    case 'namespace':
      return `namespace ${file.scope.namespace}`;
    case 'selection':
      return `${file.scope.uids.length} selected objects and what they own`;
  }
}

function headerBlock(file: SnapshotFile): RawHtml {
  const rows: Array<[string, string]> = [
    ['Context', file.context.name],
    ['API server', file.context.server ?? (file.context.demo ? 'the built-in simulated cluster' : '—')],
    ['Scope', scopeText(file)],
    ...(file.context.view ? [['Restricted view', `${file.context.view.text} (what the context's user may read)`] as [string, string]] : []),
    ['State at', `${formatTime(file.takenAt)}${file.live ? ' (live)' : ' (rebuilt from history)'}`],
    ['Report written', formatTime(file.createdAt)],
    ['Kubedrift', file.generator.version],
  ];
  return html`<header class="report"><h1>Kubedrift report: ${file.context.name}</h1>
<div class="sub">Desired vs actual state at ${formatTime(file.takenAt)}</div>
<dl>${rows.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl></header>`;
}

/**
 * The part of the window the charts draw: from when recording began (if that is later than the
 * window's start; a window of a day over ten minutes of history would squeeze every line against
 * the right edge) to its end.
 */
export function chartRange(file: SnapshotFile): { from: number; to: number } {
  const window = file.history?.window ?? { from: file.takenAt, to: file.takenAt };
  const since = file.history?.since ?? window.from;
  return { from: Math.min(Math.max(window.from, since), window.to), to: window.to };
}

/**
 * Workloads worth a chart: those that drifted in the window first (longest first), then those
 * drifting now. Listed workloads only: a Deployment's ReplicaSets drift with it and add nothing.
 */
function chartedWorkloads(file: SnapshotFile, listed: ReadonlySet<string>, driftingUids: ReadonlySet<string>): Array<{ uid: string; episodes: Episode[] }> {
  const history = file.history;
  if (!history) return [];
  const byUid = new Map<string, Episode[]>();
  for (const episode of history.episodes) byUid.set(episode.workload.uid, [...(byUid.get(episode.workload.uid) ?? []), episode]);
  const withSamples = new Set(history.workloads.filter((entry) => entry.series.some((series) => series.points.some(([, value]) => value !== null))).map((entry) => entry.workload.uid));
  const total = (uid: string) => (byUid.get(uid) ?? []).reduce((sum, episode) => sum + episode.durationMs, 0);
  return [...new Set([...byUid.keys(), ...driftingUids])]
    .filter((uid) => withSamples.has(uid) && listed.has(uid))
    .sort((a, b) => total(b) - total(a))
    .map((uid) => ({ uid, episodes: byUid.get(uid) ?? [] }));
}

export function renderReport(file: SnapshotFile, options: ReportOptions = {}): string {
  const rows = workloadRows(file.objects);
  const drifting = driftingRows(rows);
  const charted = chartedWorkloads(file, new Set(rows.map((row) => row.uid)), new Set(drifting.map((row) => row.uid)));
  const drawn = charted.slice(0, MAX_WORKLOAD_CHARTS);
  const total = drawn.length + 1;
  const window = chartRange(file);
  const driftChart = file.history ? driftCountChart(file.history.driftCount, window) : null;
  options.onChart?.(1, total);
  const samplesOf = new Map((file.history?.workloads ?? []).map((entry) => [entry.workload.uid, entry]));
  const charts: WorkloadChart[] = drawn.map(({ uid, episodes }, index) => {
    const entry = samplesOf.get(uid);
    if (!entry) throw new Error(`no samples for ${uid}`);
    const svg = workloadChart(entry.series, window, episodes);
    options.onChart?.(index + 2, total);
    const { kind, namespace, name } = entry.workload;
    const subtitle = episodes.length > 0 ? `${kind} · ${episodes.length} episode${episodes.length === 1 ? '' : 's'}` : `${kind} · drifting`;
    return { title: `${namespace}/${name}`, subtitle, svg };
  });
  const body = html`${headerBlock(file)}
${summarySection(file, rows, drifting)}
${driftOverTimeSection(file, driftChart)}
${driftingSection(drifting)}
${customResourcesSection(file, options.userRules ?? [])}
${episodesSection(file)}
${workloadChartsSection(charts, charted.length - drawn.length)}
${eventsSection(file)}
${diffSection(file)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="Kubedrift ${escapeHtml(file.generator.version)}">
<title>Kubedrift report: ${escapeHtml(file.context.name)} at ${escapeHtml(formatTime(file.takenAt))}</title>
<style>${REPORT_CSS}</style></head>
<body><main>${body.html}
<footer>Written by Kubedrift ${escapeHtml(file.generator.version)} on ${escapeHtml(formatTime(file.createdAt))}. Secret values and credentials are never included.</footer></main></body></html>
`;
}
