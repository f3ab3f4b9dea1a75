/** `kubedrift snapshot inspect FILE`: what a snapshot holds, without opening the app. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { SnapshotFile } from '../../shared/contracts/snapshot.ts';
import { decodeSnapshot, formatSnapshotTime } from '../engine/snapshot/file.ts';
import { countByKind, driftingRows, workloadRows } from '../engine/snapshot/summary.ts';
import { customResourceRows } from '../engine/snapshot/html/custom-resources.ts';

/** Custom resources that are not current listed at most. */
const MAX_LISTED_CUSTOM = 20;

function scopeText(file: SnapshotFile): string {
  if (file.scope.type === 'cluster') return 'whole cluster';
  if (file.scope.type === 'namespace') return `namespace ${file.scope.namespace}`;
  return `${file.scope.uids.length} selected objects and what they own`;
}

function kilobytes(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`;
}

/** The summary `inspect` prints. */
export function describeFile(file: SnapshotFile, name: string, bytes: number): string {
  const rows = workloadRows(file.objects);
  const drifting = driftingRows(rows);
  const history = file.history;
  const samples = history?.workloads.reduce((sum, entry) => sum + entry.rawSamples, 0) ?? 0;
  const lines = [
    `File:       ${name} (${kilobytes(bytes)}, format version ${file.schemaVersion}, written by Kubedrift ${file.generator.version})`,
    `Context:    ${file.context.name}${file.context.server ? ` (${file.context.server})` : ''}`,
    `Taken at:   ${formatSnapshotTime(file.takenAt)}${file.live ? ' (live)' : ' (a past state, rebuilt from history)'}`,
    `Written:    ${formatSnapshotTime(file.createdAt)}`,
    `Scope:      ${scopeText(file)}`,
    history
      ? `Window:     ${formatSnapshotTime(history.window.from)} to ${formatSnapshotTime(history.window.to)} (${samples} samples of ${history.workloads.length} workloads, ${history.episodes.length} drift episodes)`
      : 'Window:     none (no history was recorded)',
    `Graph:      ${file.graph ? `${file.graph.nodes.length} nodes, ${file.graph.edges.length} edges` : 'none'}`,
    `Diff:       ${file.diff ? `${file.diff.summary.total} objects against the manifests: ${file.diff.summary.counts.OutOfSync} out of sync, ${file.diff.summary.counts.Missing} missing, ${file.diff.summary.counts.Error} errors` : 'none'}`,
    `Objects:    ${file.objects.length} (+ ${file.events.length} Events)`,
  ];
  const kinds = Object.entries(countByKind(file));
  const width = Math.max(...kinds.map(([kind]) => kind.length));
  for (const [kind, count] of kinds) lines.push(`  ${kind.padEnd(width)}  ${String(count).padStart(6)}`);
  lines.push(`Workloads:  ${rows.length}, ${drifting.length} drifting at this time`);
  for (const row of drifting) {
    const numbers = row.desired === null ? '' : `${row.ready ?? 0}/${row.desired} ready`;
    lines.push(`  ${row.kind} ${row.namespace ? `${row.namespace}/` : ''}${row.name}  ${numbers}  ${row.status}: ${(row.drift?.reasons ?? []).join('; ')}`);
  }
  // Custom resources by the one status rule, those not current listed (worst first), as the report does.
  const custom = customResourceRows(file);
  if (custom.length > 0) {
    const troubled = custom.filter((row) => row.status.state !== 'current');
    lines.push(`Custom:     ${custom.length} custom resources, ${troubled.length} not current`);
    for (const { object, group, status } of troubled.slice(0, MAX_LISTED_CUSTOM)) {
      lines.push(`  ${object.kind}.${group} ${object.metadata.namespace ? `${object.metadata.namespace}/` : ''}${object.metadata.name}  ${status.state}: ${status.reason}${status.message ? ` (${status.message})` : ''}`);
    }
    if (troubled.length > MAX_LISTED_CUSTOM) lines.push(`  … and ${troubled.length - MAX_LISTED_CUSTOM} more`);
  }
  return lines.join('\n');
}

export async function inspectCommand(file: string): Promise<number> {
  const bytes = await readFile(file);
  const snapshot = await decodeSnapshot(bytes, path.basename(file));
  console.log(describeFile(snapshot, path.basename(file), bytes.length));
  return 0;
}
