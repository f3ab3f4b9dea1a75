/**
 * Who set a field: the managedFields entry that owns it (kube-apiserver keeps one owner per field
 * for Update operations: a writer that changes a field takes it from every other manager).
 */
import type { FieldWrite } from '../../../shared/contracts/surprises.ts';

interface ManagedFieldsEntry {
  manager?: unknown;
  operation?: unknown;
  subresource?: unknown;
  time?: unknown;
  fieldsV1?: unknown;
}

const record = (value: unknown): Record<string, unknown> | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

/** Whether a fieldsV1 trie holds `path` (`['spec', 'replicas']` is `f:spec` → `f:replicas`). */
export function ownsPath(fieldsV1: unknown, path: readonly string[]): boolean {
  let node = record(fieldsV1);
  for (const segment of path) {
    node = record(node?.[`f:${segment}`]);
    if (!node) return false;
  }
  return true;
}

/**
 * The write that set `path` to `value`, from an object's managedFields: its owner, the
 * subresource it wrote through and the entry's time; undefined when no entry owns the field.
 */
export function writerOf(object: unknown, path: readonly string[], value: string, seenAt: number): FieldWrite | undefined {
  const entries = record(record(object)?.['metadata'])?.['managedFields'];
  if (!Array.isArray(entries)) return undefined;
  const owners = (entries as ManagedFieldsEntry[]).filter((entry) => typeof entry.manager === 'string' && ownsPath(entry.fieldsV1, path));
  if (owners.length === 0) return undefined;
  // Apply entries may share a field; the latest write is the one that set it now.
  const latest = owners.reduce((a, b) => (String(b.time ?? '') > String(a.time ?? '') ? b : a));
  return {
    manager: latest.manager as string,
    ...(typeof latest.subresource === 'string' && latest.subresource !== '' ? { subresource: latest.subresource } : {}),
    value,
    // managedFields times have whole seconds; the moment the engine saw the change is finer.
    at: seenAt,
  };
}
