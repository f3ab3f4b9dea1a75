/**
 * The Overview's kind filter: every kind it lists, grouped by API group — the built-in workload
 * groups first (apps, batch), then each custom group with its kinds — with a way to pick a whole
 * group or one kind. A filter value is `all`, `group:<group>` or a kind key; keys never hold a
 * colon, so the three cannot collide.
 */
import { builtinKind } from '../../../shared/builtin-kinds.ts';
import type { KindEntry } from '../../../shared/discovery.ts';
import { parseKindKey } from '../../../shared/kinds.ts';
import { kindLabel } from '../../stores/cluster/kinds.ts';
import { WORKLOAD_KINDS } from '../../stores/rows/workloads.ts';

/** `all`, `group:<group>` or a kind key. */
export type KindFilter = string;

export const ALL_KINDS = 'all';
const GROUP_PREFIX = 'group:';

/** The filter value of a whole API group. */
export function groupFilter(group: string): KindFilter {
  return `${GROUP_PREFIX}${group}`;
}

/** The group a filter value names, or undefined when it names `all` or one kind. */
export function filterGroup(filter: KindFilter): string | undefined {
  return filter.startsWith(GROUP_PREFIX) ? filter.slice(GROUP_PREFIX.length) : undefined;
}

/** A kind the Overview lists. */
export interface OverviewKind {
  key: string;
  group: string;
  /** As the filter shows it: "Deployments" for a built-in kind, the Kind ("Certificate") otherwise. */
  title: string;
  builtin: boolean;
}

/**
 * The kinds the Overview lists: the built-in workload kinds, then every custom kind discovery
 * found that carries status (custom and watched in full; metadata-only kinds have no status).
 */
export function overviewKinds(entries: readonly KindEntry[]): OverviewKind[] {
  const builtins = WORKLOAD_KINDS.map((key) => ({ key, group: builtinKind(key)?.ref.group ?? '', title: kindLabel(key).title, builtin: true }));
  const custom = entries.filter((entry) => entry.custom && entry.mode === 'full').map((entry) => ({ key: entry.key, group: entry.ref.group, title: entry.ref.kind, builtin: false }));
  return [...builtins, ...custom];
}

const groupCache = new Map<string, string>();
/** The API group of a kind key (memoised: the filter asks once per row). */
export function groupOfKey(key: string): string {
  let group = groupCache.get(key);
  if (group === undefined) {
    try {
      group = parseKindKey(key).group;
    } catch {
      group = '';
    }
    groupCache.set(key, group);
  }
  return group;
}

export interface KindChoice {
  /** The filter value (the kind key). */
  id: KindFilter;
  label: string;
  count: number;
}

export interface KindGroup {
  group: string;
  /** "core" for the core group, else the group's name. */
  label: string;
  /** The filter value of the whole group. */
  id: KindFilter;
  builtin: boolean;
  count: number;
  kinds: KindChoice[];
}

/** Built-in groups in the order kubectl api-resources lists them. */
const BUILTIN_GROUP_ORDER = ['', 'apps', 'batch'];

/**
 * The kinds grouped by API group with their counts (under the other filters): built-in groups
 * first in BUILTIN_GROUP_ORDER, then custom groups by name, kinds by title within each.
 */
export function groupKinds(kinds: readonly OverviewKind[], counts: Readonly<Record<string, number>>): KindGroup[] {
  const groups = new Map<string, KindGroup>();
  for (const kind of kinds) {
    let group = groups.get(kind.group);
    if (!group) {
      group = { group: kind.group, label: kind.group === '' ? 'core' : kind.group, id: groupFilter(kind.group), builtin: kind.builtin, count: counts[groupFilter(kind.group)] ?? 0, kinds: [] };
      groups.set(kind.group, group);
    }
    group.kinds.push({ id: kind.key, label: kind.title, count: counts[kind.key] ?? 0 });
  }
  const rank = (group: KindGroup): number => {
    const at = BUILTIN_GROUP_ORDER.indexOf(group.group);
    return group.builtin ? (at < 0 ? BUILTIN_GROUP_ORDER.length : at) : BUILTIN_GROUP_ORDER.length + 1;
  };
  const ordered = [...groups.values()].sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label));
  for (const group of ordered) if (!group.builtin) group.kinds.sort((a, b) => a.label.localeCompare(b.label) || a.id.localeCompare(b.id));
  return ordered;
}

/** Where the choice is kept: per context, since each cluster serves its own custom kinds. */
const STORAGE_PREFIX = 'kubedrift.overview.kind:';

/** The kind filter last chosen in `context` (`all` when none was, or storage is unavailable). */
export function loadKindFilter(context: string | null, storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): KindFilter {
  if (context === null || !storage) return ALL_KINDS;
  try {
    return storage.getItem(`${STORAGE_PREFIX}${context}`) || ALL_KINDS;
  } catch {
    return ALL_KINDS;
  }
}

/** Remembers the kind filter of `context`; `all` is the default, so it is forgotten rather than stored. */
export function saveKindFilter(context: string | null, filter: KindFilter, storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined = globalThis.localStorage): void {
  if (context === null || !storage) return;
  try {
    if (filter === ALL_KINDS) storage.removeItem(`${STORAGE_PREFIX}${context}`);
    else storage.setItem(`${STORAGE_PREFIX}${context}`, filter);
  } catch {
    // Storage full or disabled (a locked-down profile): the choice lasts for this window only.
  }
}
