/**
 * The report's custom resources: every object of a kind the file's kind table marks custom
 * (served by a CRD), with where it stands by the one status rule the app uses
 * (shared/object-status.ts: kstatus order, the user's rules from Settings, well-known CRD rules). Worst first, so a failing
 * Certificate is at the top; an object with no status signal is shown neutral, never green.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { SnapshotFile } from '../../../../shared/contracts/snapshot.ts';
import type { ObjectState, UserStatusRule } from '../../../../shared/contracts/status-rules.ts';
import { snapshotKindId } from '../../../../shared/contracts/snapshot-kinds.ts';
import { objectStatus, type ObjectStatus } from '../../../../shared/object-status.ts';
import type { Tone } from '../../../../shared/workload-status.ts';
import { html, type RawHtml } from './escape.ts';

/** Rows listed at most; the rest are counted. */
export const MAX_CUSTOM_ROWS = 500;

/** The report's pill classes (styles.ts) for the app's tones. */
const TONE_PILL: Readonly<Record<Tone, string>> = { danger: 'danger', warning: 'warning', pending: 'info', neutral: 'neutral', ok: 'ok' };
const TONE_RANK: Readonly<Record<Tone, number>> = { danger: 0, warning: 1, pending: 2, neutral: 3, ok: 4 };
/** Each state in words; `none` says there is no signal rather than anything like "healthy". */
const STATE_WORDS: Readonly<Record<ObjectState, string>> = {
  terminating: 'Terminating',
  unobserved: 'Not yet observed',
  progressing: 'In progress',
  drifting: 'Drifting',
  failed: 'Failed',
  suspended: 'Suspended',
  current: 'Current',
  none: 'No status signal',
};

interface Row {
  object: SlimObject;
  group: string;
  status: ObjectStatus;
}

/** The custom resources of a file with their state, worst first, then by kind, namespace and name. */
export function customResourceRows(file: Pick<SnapshotFile, 'objects' | 'kinds'>, userRules: readonly UserStatusRule[] = []): Row[] {
  const custom = new Map(file.kinds.filter((entry) => entry.custom && !entry.metadataOnly).map((entry) => [snapshotKindId(entry.apiVersion, entry.kind), entry]));
  const rows: Row[] = [];
  for (const object of file.objects) {
    const entry = custom.get(snapshotKindId(object.apiVersion, object.kind));
    if (entry) rows.push({ object, group: entry.key.slice(entry.plural.length + 1), status: objectStatus(object, { userRules }) });
  }
  const name = (row: Row) => `${row.object.kind}.${row.group}/${row.object.metadata.namespace ?? ''}/${row.object.metadata.name}`;
  return rows.sort((a, b) => TONE_RANK[a.status.tone] - TONE_RANK[b.status.tone] || name(a).localeCompare(name(b)));
}

export function customResourcesSection(file: Pick<SnapshotFile, 'objects' | 'kinds'>, userRules: readonly UserStatusRule[] = []): RawHtml {
  const rows = customResourceRows(file, userRules);
  if (rows.length === 0) return html``;
  const shown = rows.slice(0, MAX_CUSTOM_ROWS);
  return html`<section id="custom-resources"><h2>Custom resources (${rows.length})</h2>
<p class="muted">Objects of kinds the cluster's CustomResourceDefinitions add, with where each stands: its conditions and observed generation, read as the app reads them.</p>
<table><thead><tr><th>Kind</th><th>Object</th><th>State</th><th>Reason</th><th>Message</th></tr></thead><tbody>
${shown.map(
  ({ object, group, status }) => html`<tr data-custom-resource="${object.kind}.${group}/${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}" data-state="${status.state}">
<td>${object.kind} <span class="muted">${group}</span></td><td>${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}</td>
<td><span class="pill ${TONE_PILL[status.tone]}">${STATE_WORDS[status.state]}</span></td><td>${status.reason}</td><td>${status.message}</td></tr>`,
)}
</tbody></table>
${rows.length > shown.length ? html`<p class="note">${rows.length - shown.length} more custom resources are in the snapshot file.</p>` : html``}</section>`;
}
