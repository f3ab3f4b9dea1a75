/**
 * The "Accessible namespaces" editor's rows and checks, kept out of the component so they can be
 * tested: every namespace the access checks looked at (with where it came from and what was
 * found there) plus the user's own entries not checked yet, and the validation of a new entry.
 */
import { NamespaceNameSchema, type AccessSummary, type NamespaceAccess, type NamespaceSource } from '../../../shared/access.ts';

/** How each source of a namespace reads in the editor. */
export const SOURCE_LABELS: Readonly<Record<NamespaceSource, string>> = {
  'namespace-list': 'namespace list',
  context: 'context namespace',
  user: 'added by you',
  'role-bindings': 'RoleBindings',
};

/** One row: a namespace, its sources, what the last check found, and whether the user may remove it. */
export interface NamespaceRow {
  name: string;
  sources: string[];
  /** `pending`: added by the user and not checked yet. */
  state: NamespaceAccess['state'] | 'pending';
  kinds: number;
  message: string | undefined;
  /** On the user's own list (the only entries the editor removes). */
  own: boolean;
}

const STATE_ORDER: Record<NamespaceRow['state'], number> = { watched: 0, pending: 1, error: 2, 'not-found': 3, none: 4 };

/**
 * The editor's rows: the checked namespaces (watched first, then those with a problem), and the
 * user's entries the last check did not cover yet. The namespace-list source is dropped from a
 * namespace where nothing is visible, unless it is the only source: a cluster of 200 namespaces
 * would otherwise bury the user's own.
 */
export function namespaceRows(summary: AccessSummary | null, own: readonly string[]): NamespaceRow[] {
  const ownSet = new Set(own);
  const rows: NamespaceRow[] = (summary?.checked ?? [])
    .filter((entry) => entry.state !== 'none' || entry.sources.some((source) => source !== 'namespace-list'))
    .map((entry) => ({
      name: entry.name,
      sources: entry.sources.map((source) => SOURCE_LABELS[source]),
      state: entry.state,
      kinds: entry.kinds.length,
      message: entry.message,
      own: ownSet.has(entry.name),
    }));
  const checked = new Set(rows.map((row) => row.name));
  for (const name of own) {
    if (!checked.has(name)) rows.push({ name, sources: [SOURCE_LABELS.user], state: 'pending', kinds: 0, message: 'Not checked yet', own: true });
  }
  return rows.sort((a, b) => STATE_ORDER[a.state] - STATE_ORDER[b.state] || a.name.localeCompare(b.name));
}

/** How many namespaces the list showed in which nothing is visible (left out of the rows). */
export function hiddenListedCount(summary: AccessSummary | null): number {
  return (summary?.checked ?? []).filter((entry) => entry.state === 'none' && entry.sources.every((source) => source === 'namespace-list')).length;
}

/** Why `text` cannot be added to `own`, or null when it can (after trimming). */
export function newNamespaceProblem(text: string, own: readonly string[]): string | null {
  const name = text.trim();
  if (name === '') return 'Type a namespace name';
  const parsed = NamespaceNameSchema.safeParse(name);
  if (!parsed.success) return `"${name}": ${parsed.error.issues[0]?.message ?? 'not a namespace name'}`;
  if (own.includes(name)) return `"${name}" is already on your list`;
  return null;
}
