/**
 * The registry's pure part: the discovered kinds with their modes and counts, rebuilt whenever
 * discovery, the exclusion rules, the access checks or the CRD facts change, and the difference
 * from the previous build as added / removed / changed kinds (what starts and stops informers).
 */
import type { KindEntry, UnavailableGroupVersion } from '../../../../shared/discovery.ts';
import { decideMode, type ModeInputs } from './modes.ts';
import type { ResolvedDiscovery, ServedKind } from './resolve.ts';

/** What changed between two builds; a count change alone is not a change. */
export interface KindChanges {
  added: KindEntry[];
  removed: KindEntry[];
  changed: Array<{ before: KindEntry; after: KindEntry }>;
}

/** Whether a change set is empty. */
export function noChanges(changes: KindChanges): boolean {
  return changes.added.length === 0 && changes.removed.length === 0 && changes.changed.length === 0;
}

/** Everything of an entry but its count, for change detection. */
function identity(kind: KindEntry): string {
  const { count: _count, ...rest } = kind;
  return JSON.stringify(rest);
}

/**
 * Keeps kinds a group version served before it became unavailable, marked unavailable with its
 * message, instead of dropping them: an APIService blip (metrics-server restarting) should not
 * make kinds vanish and reappear, nor drop what their informers hold.
 */
export function carryOverUnavailable(previous: ReadonlyMap<string, ServedKind>, next: ResolvedDiscovery): ResolvedDiscovery {
  const keys = new Set(next.kinds.map((k) => k.key));
  const kept: ServedKind[] = [];
  for (const kind of previous.values()) {
    if (keys.has(kind.key)) continue;
    const down: UnavailableGroupVersion | undefined = next.unavailable.find((u) => u.group === kind.ref.group && kind.versions.includes(u.version));
    if (down) kept.push({ ...kind, unavailable: down.message });
  }
  if (kept.length === 0) return next;
  return { ...next, kinds: [...next.kinds, ...kept].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}

/** The current kinds; `rebuild` swaps in a new build and says what changed. */
export class KindCatalog {
  private served = new Map<string, ServedKind>();
  private entries = new Map<string, KindEntry>();
  private unavailableGroups: UnavailableGroupVersion[] = [];
  private readonly counts = new Map<string, number>();

  /** The served kinds of the last discovery (input of the next carry-over). */
  servedKinds(): ReadonlyMap<string, ServedKind> {
    return this.served;
  }

  /** Replaces what discovery found; call `rebuild` after. */
  setDiscovery(resolved: ResolvedDiscovery): void {
    this.served = new Map(resolved.kinds.map((k) => [k.key, k]));
    this.unavailableGroups = resolved.unavailable;
  }

  /** Recomputes every kind's mode; returns what changed since the last build. */
  rebuild(inputs: ModeInputs): KindChanges {
    const next = new Map<string, KindEntry>();
    for (const kind of this.served.values()) {
      const decision = decideMode(kind, this.served, inputs);
      next.set(kind.key, {
        key: kind.key,
        ref: kind.ref,
        versions: kind.versions,
        verbs: kind.verbs,
        listable: kind.listable,
        watchable: kind.watchable,
        subresources: kind.subresources,
        shortNames: kind.shortNames,
        categories: kind.categories,
        custom: decision.custom,
        mode: decision.mode,
        ...(decision.message !== undefined ? { message: decision.message } : {}),
        count: this.counts.get(kind.key) ?? null,
      });
    }
    const changes: KindChanges = { added: [], removed: [], changed: [] };
    for (const [key, after] of next) {
      const before = this.entries.get(key);
      if (!before) changes.added.push(after);
      else if (identity(before) !== identity(after)) changes.changed.push({ before, after });
    }
    for (const [key, before] of this.entries) {
      if (next.has(key)) continue;
      changes.removed.push(before);
      this.counts.delete(key);
    }
    this.entries = next;
    return changes;
  }

  /** Records an informer's object count; false when the kind is not (or no longer) known. */
  setCount(key: string, count: number): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (!Number.isInteger(count) || count < 0) throw new Error(`an object count is a non-negative integer, got ${count} for ${key}`);
    this.counts.set(key, count);
    this.entries.set(key, { ...entry, count });
    return true;
  }

  get(key: string): KindEntry | undefined {
    return this.entries.get(key);
  }

  /** Every kind, sorted by key. */
  list(): KindEntry[] {
    return [...this.entries.values()];
  }

  unavailable(): UnavailableGroupVersion[] {
    return [...this.unavailableGroups];
  }
}
