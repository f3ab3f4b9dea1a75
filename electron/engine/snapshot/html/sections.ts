/**
 * The report's sections, each a function of the snapshot: summary, drift over time, drifting
 * workloads, episodes, per-workload charts and Events by controller. Charts come in as ready
 * SVG strings (charts.ts) so these stay plain markup.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { Episode } from '../../../../shared/contracts/history.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import { reasonLabels, type ReasonTone } from '../../../../shared/drift-reasons.ts';
import { causedByText } from '../../../../shared/episode-cause-text.ts';
import { countByKind, type WorkloadRow } from '../summary.ts';
import { formatCount, formatDuration, formatTime, html, raw, type RawHtml } from './escape.ts';
import { kindNameOf } from '../../../../shared/builtin-kinds.ts';

export function summarySection(file: SnapshotFile, rows: readonly WorkloadRow[], drifting: readonly WorkloadRow[]): RawHtml {
  const warnings = file.events.filter((event) => event['type'] === 'Warning').length;
  const episodes = file.history?.episodes ?? [];
  const cards = [
    { value: file.objects.length, label: 'objects' },
    { value: rows.length, label: 'workloads' },
    { value: drifting.length, label: 'drifting at this time', bad: drifting.length > 0 },
    { value: episodes.length, label: 'drift episodes in the window', bad: episodes.length > 0 },
    { value: warnings, label: 'Warning events', bad: warnings > 0 },
  ];
  const kinds = Object.entries(countByKind(file));
  return html`<section id="summary"><h2>Summary</h2>
<div class="cards">${cards.map((card) => html`<div class="card${card.bad ? ' bad' : ''}" data-card="${card.label}"><div class="value">${formatCount(card.value)}</div><div class="label">${card.label}</div></div>`)}</div>
<div class="kinds">${kinds.map(([kind, count]) => html`<span><strong>${formatCount(count)}</strong> ${kind}</span>`)}</div></section>`;
}

export function driftOverTimeSection(file: SnapshotFile, chart: string | null): RawHtml {
  if (!file.history) return html`<section id="drift-over-time"><h2>Drift over time</h2><p class="note">No history was recorded for this context, so there is no timeline.</p></section>`;
  const { from, to } = file.history.window;
  const since = file.history.since;
  const recorded = since !== null && since > from ? ` Recording began at ${formatTime(since)}; the charts start there.` : '';
  return html`<section id="drift-over-time"><h2>Drift over time</h2>
<p class="muted">Drifting workloads from ${formatTime(from)} to ${formatTime(to)}.${recorded}</p>
<div class="chart">${raw(chart ?? '')}</div></section>`;
}

function severityPill(row: WorkloadRow): RawHtml {
  return row.drift ? html`<span class="pill ${row.drift.severity}">${row.status}</span>` : html`<span class="pill ok">${row.status}</span>`;
}

export function driftingSection(drifting: readonly WorkloadRow[]): RawHtml {
  if (drifting.length === 0) return html`<section id="drifting"><h2>Drifting workloads</h2><p class="note">Every workload's actual state matched its desired state at this time.</p></section>`;
  return html`<section id="drifting"><h2>Drifting workloads (${drifting.length})</h2>
<table><thead><tr><th>Workload</th><th class="num">Desired</th><th class="num">Ready</th><th class="num">Available</th><th>Status</th><th>Why</th></tr></thead><tbody>
${drifting.map(
  (row) => html`<tr data-workload="${row.namespace}/${row.name}"><td><span class="muted">${row.kind}</span> ${row.namespace ? `${row.namespace}/` : ''}${row.name}</td>
<td class="num">${formatCount(row.desired)}</td><td class="num">${formatCount(row.ready)}</td><td class="num">${formatCount(row.available)}</td>
<td>${severityPill(row)}</td><td><ul class="reasons">${(row.drift?.reasons ?? []).map((reason) => html`<li>${reason}</li>`)}</ul></td></tr>`,
)}
</tbody></table></section>`;
}


/** The report's pill classes (styles.ts) for the reason tones the app's badges use. */
const REASON_PILL: Readonly<Record<ReasonTone, string>> = { danger: 'danger', warning: 'warning', accent: 'info', neutral: 'neutral' };

/** The causes the episode kept in history ("caused by …"), under its reasons. */
function causeLine(episode: Episode): RawHtml {
  const text = causedByText(episode.causes);
  return text ? html`<div class="muted" data-cause>${text}</div>` : html``;
}

export function episodesSection(file: SnapshotFile): RawHtml {
  if (!file.history) return html``;
  const episodes = [...file.history.episodes].sort((a, b) => b.durationMs - a.durationMs);
  if (episodes.length === 0) return html`<section id="episodes"><h2>Drift episodes</h2><p class="note">No workload drifted during the window.</p></section>`;
  return html`<section id="episodes"><h2>Drift episodes (${episodes.length})</h2>
<table><thead><tr><th>Workload</th><th>Started</th><th>Ended</th><th class="num">Duration</th><th class="num">Peak gap</th><th>Why</th><th>Trigger</th></tr></thead><tbody>
${episodes.map(
  (episode: Episode) => html`<tr><td><span class="muted">${kindNameOf(episode.workload.kind)}</span> ${episode.workload.namespace}/${episode.workload.name}</td>
<td>${formatTime(episode.start)}</td><td>${episode.end === null ? html`<span class="pill warning">ongoing</span>` : formatTime(episode.end)}</td>
<td class="num">${formatDuration(episode.durationMs)}</td><td class="num">${episode.peakGap}</td>
<td>${reasonLabels(episode.reasons, episode.workload.kind).map((badge) => html`<span class="pill ${REASON_PILL[badge.tone]}" title="${badge.description}">${badge.label}</span> `)}${causeLine(episode)}</td>
<td>${episode.trigger ? `generation ${episode.trigger.generation}${episode.trigger.image ? ` → ${episode.trigger.image}` : ''}` : '—'}</td></tr>`,
)}
</tbody></table></section>`;
}

export interface WorkloadChart {
  title: string;
  subtitle: string;
  svg: string;
}

export function workloadChartsSection(charts: readonly WorkloadChart[], omitted: number): RawHtml {
  if (charts.length === 0) return html``;
  return html`<section id="workload-charts"><h2>Desired vs actual per workload</h2>
<p class="muted">Dashed: desired replicas; solid: ready, available and updated. Shaded: drift episodes.</p>
${charts.map((chart) => html`<h3>${chart.title} <span class="muted">${chart.subtitle}</span></h3><div class="chart">${raw(chart.svg)}</div>`)}
${omitted > 0 ? html`<p class="note">${omitted} more workloads with samples are in the snapshot file.</p>` : html``}</section>`;
}

/** Which component reported an Event (core/v1 source, or the events.k8s.io reporter). */
function controllerOf(event: SlimObject): string {
  const source = event['source'] as { component?: string } | undefined;
  return source?.component || (event['reportingComponent'] as string | undefined) || 'unknown';
}

export function eventsSection(file: SnapshotFile): RawHtml {
  if (file.events.length === 0) return html`<section id="events"><h2>Events by controller</h2><p class="note">The cluster held no Events at this time.</p></section>`;
  const groups = new Map<string, SlimObject[]>();
  for (const event of file.events) {
    const name = controllerOf(event);
    groups.set(name, [...(groups.get(name) ?? []), event]);
  }
  const sorted = [...groups].sort((a, b) => b[1].length - a[1].length);
  return html`<section id="events"><h2>Events by controller</h2>
${sorted.map(([controller, events]) => {
  const warnings = events.filter((event) => event['type'] === 'Warning');
  const reasons = new Map<string, number>();
  for (const event of events) reasons.set(String(event['reason'] ?? ''), (reasons.get(String(event['reason'] ?? '')) ?? 0) + Number(event['count'] ?? 1));
  const shown = [...warnings, ...events.filter((event) => event['type'] !== 'Warning')].slice(0, 8);
  return html`<h3>${controller} <span class="muted">${events.length} events${warnings.length > 0 ? `, ${warnings.length} Warning` : ''}</span></h3>
<p class="muted">${[...reasons].sort((a, b) => b[1] - a[1]).map(([reason, count]) => `${reason} ×${count}`).join(' · ')}</p>
<table><thead><tr><th>Type</th><th>Reason</th><th>Object</th><th>Message</th></tr></thead><tbody>
${shown.map((event) => {
  const involved = (event['involvedObject'] ?? {}) as { kind?: string; name?: string; namespace?: string };
  return html`<tr><td>${event['type'] === 'Warning' ? html`<span class="pill warning">Warning</span>` : 'Normal'}</td><td>${event['reason']}</td>
<td><span class="muted">${involved.kind}</span> ${involved.namespace ? `${involved.namespace}/` : ''}${involved.name}</td><td>${event['message']}</td></tr>`;
})}
</tbody></table>`;
})}
</section>`;
}

const DIFF_TONES: Readonly<Record<string, string>> = { OutOfSync: 'warning', Missing: 'danger', Error: 'danger', InSync: 'ok' };

/** The last diff against the manifests: counts and the objects that differ. */
export function diffSection(file: SnapshotFile): RawHtml {
  const diff = file.diff;
  if (!diff) return html``;
  const { counts, startedAt } = diff.summary;
  const differing = diff.rows.filter((row) => row.status !== 'InSync');
  return html`<section id="diff"><h2>Diff against the manifests</h2>
<p class="muted">Run at ${formatTime(startedAt)}: ${counts.InSync} in sync, ${counts.OutOfSync} out of sync, ${counts.Missing} missing, ${counts.Error} errors.</p>
${
  differing.length === 0
    ? html`<p class="note">Every object matched its manifest.</p>`
    : html`<table><thead><tr><th>Status</th><th>Object</th><th class="num">Fields</th><th>What differs</th><th>Manifest</th></tr></thead><tbody>
${differing.slice(0, 500).map(
  (row) => html`<tr><td><span class="pill ${DIFF_TONES[row.status] ?? 'warning'}">${row.status}</span></td>
<td><span class="muted">${row.kind}</span> ${row.namespace ? `${row.namespace}/` : ''}${row.name}</td><td class="num">${row.changed}</td>
<td>${row.reason ?? row.fields.join(', ')}</td><td class="muted">${row.source.file}:${row.source.line}</td></tr>`,
)}
</tbody></table>`
}
${differing.length > 500 || diff.truncated ? html`<p class="note">More differing objects are in the snapshot file.</p>` : html``}</section>`;
}
