/**
 * What one simulated cluster serves: the built-in kinds of resources.ts plus the kinds its
 * CustomResourceDefinitions add while it runs. The router, discovery, OpenAPI, the garbage
 * collector and the namespace controller read it, so a CRD's kinds appear and disappear
 * everywhere at once. `revision` changes with every change, for caches built from it.
 */
import { compareVersionPriority } from './crd/versions.ts';
import { apiVersionOf, RESOURCE_TYPES, resourceId, type ResourceType } from './resources.ts';

/** One served group version and its kinds. */
export interface GroupVersion {
  group: string;
  version: string;
  types: ResourceType[];
}

/** The kinds one cluster serves (see the file comment); each ObjectStore has one as `types`. */
export class ResourceRegistry {
  private readonly custom = new Map<string, ResourceType[]>();
  private readonly listeners = new Set<() => void>();
  private cache: { all: ResourceType[]; byGvr: Map<string, ResourceType>; byGvk: Map<string, ResourceType>; byId: Map<string, ResourceType>; groupVersions: GroupVersion[] } | undefined;
  private revisionCount = 0;

  /** Bumped by every change of the custom kinds. */
  get revision(): number {
    return this.revisionCount;
  }

  /** Serves `types` (one per served version) for the CRD named `crdName`, replacing what it served before. */
  setCustom(crdName: string, types: ResourceType[]): void {
    if (types.length === 0) {
      this.removeCustom(crdName);
      return;
    }
    // A CRD's status writes re-sync it with the same kinds: nothing to rebuild then.
    const before = this.custom.get(crdName);
    if (before && JSON.stringify(before) === JSON.stringify(types)) return;
    this.custom.set(crdName, types);
    this.changed();
  }

  /** Stops serving the CRD's kinds. */
  removeCustom(crdName: string): void {
    if (!this.custom.delete(crdName)) return;
    this.changed();
  }

  /** The kinds a CRD serves now (empty when none). */
  customTypes(crdName: string): ResourceType[] {
    return this.custom.get(crdName) ?? [];
  }

  /** Called after every change of the served kinds; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.cache = undefined;
    this.revisionCount += 1;
    for (const listener of [...this.listeners]) listener();
  }

  private state(): NonNullable<ResourceRegistry['cache']> {
    if (this.cache) return this.cache;
    const customs = [...this.custom.values()].flat();
    const all = [...RESOURCE_TYPES, ...customs];
    const byGvr = new Map(all.map((t) => [`${t.group}/${t.version}/${t.plural}`, t]));
    const byGvk = new Map(all.map((t) => [`${apiVersionOf(t)}/${t.kind}`, t]));
    const byId = new Map<string, ResourceType>();
    for (const t of all) {
      const id = resourceId(t);
      // A custom kind's objects live under one id whatever the version: its storage version stands for it.
      if (!byId.has(id) || t.custom?.storageVersion === t.version) byId.set(id, t);
    }
    this.cache = { all, byGvr, byGvk, byId, groupVersions: groupVersionsOf(all) };
    return this.cache;
  }

  /** Every served kind: the built-ins first, then the custom ones. */
  all(): readonly ResourceType[] {
    return this.state().all;
  }

  /** By URL parts: group, version and plural. */
  byGVR(group: string, version: string, plural: string): ResourceType | undefined {
    return this.state().byGvr.get(`${group}/${version}/${plural}`);
  }

  /** By an object's apiVersion and kind (an ownerReference's, a manifest's). */
  byApiVersionKind(apiVersion: string, kind: string): ResourceType | undefined {
    return this.state().byGvk.get(`${apiVersion}/${kind}`);
  }

  /** By store id (`plural.group`); a custom kind answers with its storage version. */
  byId(id: string): ResourceType | undefined {
    return this.state().byId.get(id);
  }

  /**
   * Served group versions: the built-in ones in their fixed order, then the custom groups by
   * name; a group's versions in Kubernetes version priority, so the first is the preferred one.
   */
  groupVersions(): readonly GroupVersion[] {
    return this.state().groupVersions;
  }
}

function groupVersionsOf(all: readonly ResourceType[]): GroupVersion[] {
  const out = new Map<string, GroupVersion>();
  for (const t of all) {
    const key = `${t.group}/${t.version}`;
    let entry = out.get(key);
    if (!entry) out.set(key, (entry = { group: t.group, version: t.version, types: [] }));
    entry.types.push(t);
  }
  const builtInGroups = new Set(RESOURCE_TYPES.map((t) => t.group));
  const groupOrder = [...new Set([...out.values()].map((gv) => gv.group))];
  const rank = (group: string) => (builtInGroups.has(group) ? groupOrder.indexOf(group) : groupOrder.length);
  return [...out.values()].sort((a, b) => {
    if (a.group !== b.group) {
      const byRank = rank(a.group) - rank(b.group);
      return byRank !== 0 ? byRank : a.group < b.group ? -1 : 1;
    }
    return compareVersionPriority(a.version, b.version);
  });
}

/** A registry with only the built-in kinds, for callers without a store. */
export const BUILT_IN_REGISTRY = new ResourceRegistry();
