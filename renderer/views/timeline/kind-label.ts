/**
 * How the timeline names a recorded workload's kind: built-in workloads by their short kubectl
 * names (`deploy`, `sts`), custom resources by their Kubernetes kind and API group, as the
 * engine recorded them (`Database`, `db.kubedrift.dev`) — a kind key alone does not say the kind,
 * and a custom `Job` must not read as a batch Job.
 */
import { BUILTIN_KEYS, kindNameOf } from '../../../shared/builtin-kinds.ts';
import type { WorkloadRef } from '../../../shared/contracts/history.ts';
import { HISTORY_KINDS } from '../../../shared/contracts/history.ts';
import { parseKindKey } from '../../../shared/kinds.ts';

/** kubectl's short names of the built-in kinds the history records. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  [BUILTIN_KEYS.Deployment]: 'deploy',
  [BUILTIN_KEYS.StatefulSet]: 'sts',
  [BUILTIN_KEYS.DaemonSet]: 'ds',
  [BUILTIN_KEYS.ReplicaSet]: 'rs',
  [BUILTIN_KEYS.Job]: 'job',
  [BUILTIN_KEYS.HorizontalPodAutoscaler]: 'hpa',
};

const BUILT_IN: ReadonlySet<string> = new Set(HISTORY_KINDS);

export interface KindLabel {
  /** The Kubernetes kind: `Deployment`, `Database`. */
  kind: string;
  /** The API group (`''` for core). */
  group: string;
  /** What a narrow column shows: kubectl's short name for a built-in kind, the kind otherwise. */
  short: string;
  /** Whether the kind is a custom resource (not one of the built-in workload kinds). */
  custom: boolean;
  /** `Database (db.kubedrift.dev)`; a built-in kind by its name alone. */
  title: string;
}

/** The label of a workload's kind (see the file comment). */
export function kindLabelOf(ref: Pick<WorkloadRef, 'kind' | 'kindName'>): KindLabel {
  const { group, plural } = parseKindKey(ref.kind);
  if (BUILT_IN.has(ref.kind)) {
    const kind = kindNameOf(ref.kind);
    return { kind, group, short: SHORT_NAMES[ref.kind] ?? kind, custom: false, title: kind };
  }
  // A row recorded without its kind name (it should not happen) still says which resource it is.
  const kind = ref.kindName ?? plural;
  return { kind, group, short: kind, custom: true, title: group ? `${kind} (${group})` : kind };
}

/** A custom kind the timeline's filter offers. */
export interface CustomKindOption {
  key: string;
  kind: string;
}

/** Custom kinds of one API group, for an `<optgroup>`. */
export interface CustomKindGroup {
  group: string;
  kinds: CustomKindOption[];
}

/**
 * The custom kinds the timeline's kind filter offers, grouped by API group: those the engine
 * watches in full (discovery), those the answer shows episodes of (a CRD deleted since is still
 * in the history), and the one chosen now (so the choice stays visible).
 */
export function customKindGroups(
  discovered: ReadonlyArray<{ key: string; custom: boolean; mode: string; ref: { group: string; kind: string } }>,
  recorded: ReadonlyArray<Pick<WorkloadRef, 'kind' | 'kindName'>>,
  chosen: string,
): CustomKindGroup[] {
  const byKey = new Map<string, { group: string; kind: string }>();
  for (const entry of discovered) if (entry.custom && entry.mode === 'full') byKey.set(entry.key, { group: entry.ref.group, kind: entry.ref.kind });
  for (const ref of recorded) {
    const label = kindLabelOf(ref);
    if (label.custom && !byKey.has(ref.kind)) byKey.set(ref.kind, { group: label.group, kind: label.kind });
  }
  if (chosen !== 'all' && !BUILT_IN.has(chosen) && !byKey.has(chosen)) {
    const label = kindLabelOf({ kind: chosen });
    byKey.set(chosen, { group: label.group, kind: label.kind });
  }
  const groups = new Map<string, CustomKindOption[]>();
  for (const [key, { group, kind }] of byKey) groups.set(group, [...(groups.get(group) ?? []), { key, kind }]);
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([group, kinds]) => ({ group, kinds: kinds.sort((a, b) => a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key)) }));
}
