/**
 * The consistency checker: once traffic has quiesced, the simulator's store (what a `GET` list
 * returns), the engine cache and the renderer store must hold the same objects at the same
 * versions, compared as sets of (kind, uid, resourceVersion). Every e2e run that has a cluster
 * ends with `expectConsistent`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { WATCHED_KINDS, type ClusterHealth, type KindKey, type KindHealth } from '../../shared/cluster.ts';
import type { Result } from '../../shared/result.ts';
import type { Engine } from '../../electron/engine/engine.ts';
import type { ResourceType } from '../../electron/engine/simcluster/resources.ts';
import type { ObjectStore } from '../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../electron/engine/simcluster/types.ts';

/** One object as the three views are compared. */
export interface Stamp {
  kind: KindKey;
  uid: string;
  resourceVersion: string;
}

/** The views compared with the simulator, the reference. */
export type ViewName = 'engine' | 'renderer';

/** How one view differs from the simulator. */
export interface ViewDiff {
  /** In the simulator, not in the view. */
  missing: Stamp[];
  /** In the view, not in the simulator. */
  extra: Stamp[];
  /** In both, at another resourceVersion (the view's stamp). */
  stale: Array<{ view: Stamp; simulator: Stamp }>;
}

/** The outcome of one comparison. */
export interface ConsistencyReport {
  consistent: boolean;
  /** Objects in the simulator view. */
  objects: number;
  diffs: Record<ViewName, ViewDiff>;
}

/** What `window.__kubedriftStore` answers (renderer/stores/cluster/test-hook.ts). */
interface RendererHook {
  dump(): Stamp[];
  status(): { epoch: string | null; seq: number | null; synced: boolean; objects: number; appliedAt: number | null };
}

/** How many differences per category a failure message lists. */
const LISTED_PER_CATEGORY = 8;
const POLL_INTERVAL_MS = 100;

/**
 * Where the simulator stores each kind: the simulator's store id is the kind key (`pods`,
 * `certificates.cert-manager.io`), so custom resources are found as the CRD serves them. Events
 * of both APIs are one stored object (the events.k8s.io view is a conversion), kept as `events`.
 * A kind the simulator does not serve (a CRD deleted meanwhile) holds nothing.
 */
function storedTypeOf(store: ObjectStore, kind: KindKey): ResourceType | undefined {
  return store.types.byId(kind);
}

/** Which stored objects a view should hold: all of them, or those the user may read (a restricted user). */
export type VisibleFilter = (type: ResourceType, object: KubeObject) => boolean;

/**
 * The simulator's own view: every stored object of the given kinds (default: the built-in
 * watched ones), at the current rv; with `visible`, only the objects it keeps.
 */
export function simulatorStamps(store: ObjectStore, kinds: readonly KindKey[] = WATCHED_KINDS, visible?: VisibleFilter): Stamp[] {
  return kinds.flatMap((kind) => {
    const type = storedTypeOf(store, kind);
    const objects = type ? store.all(type).filter((object) => !visible || visible(type, object)) : [];
    return objects.map((object) => ({ kind, uid: object.metadata.uid, resourceVersion: object.metadata.resourceVersion }));
  });
}

/** What the renderer store holds, through the page's test hook (null before the store exists). */
export async function rendererStamps(page: Page): Promise<Stamp[] | null> {
  return page.evaluate(() => (globalThis as unknown as { __kubedriftStore?: RendererHook }).__kubedriftStore?.dump() ?? null);
}

/** The renderer store's stream status, through the page's test hook (null before the store exists). */
export async function rendererStatus(page: Page): Promise<ReturnType<RendererHook['status']> | null> {
  return page.evaluate(() => (globalThis as unknown as { __kubedriftStore?: RendererHook }).__kubedriftStore?.status() ?? null);
}

const keyOf = (stamp: Stamp): string => `${stamp.kind}/${stamp.uid}`;

function diffView(reference: readonly Stamp[], view: readonly Stamp[]): ViewDiff {
  const wanted = new Map(reference.map((stamp) => [keyOf(stamp), stamp]));
  const diff: ViewDiff = { missing: [], extra: [], stale: [] };
  const seen = new Set<string>();
  for (const stamp of view) {
    const key = keyOf(stamp);
    seen.add(key);
    const expected = wanted.get(key);
    if (!expected) diff.extra.push(stamp);
    else if (expected.resourceVersion !== stamp.resourceVersion) diff.stale.push({ view: stamp, simulator: expected });
  }
  for (const [key, stamp] of wanted) if (!seen.has(key)) diff.missing.push(stamp);
  return diff;
}

const isEmpty = (diff: ViewDiff): boolean => diff.missing.length + diff.extra.length + diff.stale.length === 0;

/** Compares the engine and renderer views with the simulator's; `kinds` limits the comparison. */
export function compareViews(views: { simulator: readonly Stamp[]; engine: readonly Stamp[]; renderer: readonly Stamp[] }, kinds: readonly KindKey[] = WATCHED_KINDS): ConsistencyReport {
  const included = new Set<KindKey>(kinds);
  const only = (stamps: readonly Stamp[]) => stamps.filter((stamp) => included.has(stamp.kind));
  const simulator = only(views.simulator);
  const diffs = { engine: diffView(simulator, only(views.engine)), renderer: diffView(simulator, only(views.renderer)) };
  return { consistent: isEmpty(diffs.engine) && isEmpty(diffs.renderer), objects: simulator.length, diffs };
}

function listed<T>(items: readonly T[], line: (item: T) => string): string[] {
  const lines = items.slice(0, LISTED_PER_CATEGORY).map((item) => `      ${line(item)}`);
  if (items.length > LISTED_PER_CATEGORY) lines.push(`      … and ${items.length - LISTED_PER_CATEGORY} more`);
  return lines;
}

/** The report as text: per view, what is missing, extra and stale, with object names where known. */
export function describeReport(report: ConsistencyReport, names: ReadonlyMap<string, string> = new Map()): string {
  if (report.consistent) return `consistent: ${report.objects} objects in all three views`;
  const label = (stamp: Stamp) => `${stamp.kind} ${names.get(stamp.uid) ?? stamp.uid}`;
  const lines = [`the views differ (the simulator holds ${report.objects} objects):`];
  for (const view of ['engine', 'renderer'] as const) {
    const diff = report.diffs[view];
    if (isEmpty(diff)) {
      lines.push(`  ${view}: equal to the simulator`);
      continue;
    }
    lines.push(`  ${view}: ${diff.missing.length} missing, ${diff.extra.length} extra, ${diff.stale.length} stale`);
    if (diff.missing.length > 0) lines.push(`    missing:`, ...listed(diff.missing, (s) => `${label(s)} rv ${s.resourceVersion}`));
    if (diff.extra.length > 0) lines.push(`    extra:`, ...listed(diff.extra, (s) => `${label(s)} rv ${s.resourceVersion}`));
    if (diff.stale.length > 0) lines.push(`    stale:`, ...listed(diff.stale, (s) => `${label(s.view)} rv ${s.view.resourceVersion}, simulator rv ${s.simulator.resourceVersion}`));
  }
  return lines.join('\n');
}

function namesOf(store: ObjectStore, kinds: readonly KindKey[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const kind of kinds) {
    const type = storedTypeOf(store, kind);
    for (const object of type ? store.all(type) : []) {
      const { namespace, name, uid } = object.metadata;
      names.set(uid, namespace ? `${namespace}/${name}` : name);
    }
  }
  return names;
}

function healthLine(kinds: readonly KindHealth[]): string {
  return kinds.map((k) => `${k.kind}=${k.state}(${k.count})${k.message ? ` "${k.message}"` : ''}`).join(' ');
}

/** Options of `expectConsistent`. */
export interface ConsistencyOptions {
  cluster: { store: ObjectStore };
  engine: Pick<Engine, 'inspectCache' | 'dispatch'>;
  page: Page;
  /** How long the views may take to agree (default 15 s). */
  timeoutMs?: number;
  kinds?: readonly KindKey[];
  /**
   * The simulator's objects the views should hold (default: all): a restricted user's views are
   * compared with what that user may read, so an object it must not see counts as extra.
   */
  visible?: VisibleFilter;
}

/**
 * Polls until the three views agree; resolves with the object count and how long it took, or
 * throws with the last difference (missing / extra / stale per view), the renderer's stream
 * status and the engine's per-kind health.
 */
export async function expectConsistent(options: ConsistencyOptions): Promise<{ objects: number; ms: number }> {
  const { cluster, engine, page } = options;
  const kinds = options.kinds ?? WATCHED_KINDS;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const started = Date.now();
  let report: ConsistencyReport | undefined;
  for (;;) {
    const renderer = await rendererStamps(page);
    if (renderer) {
      report = compareViews({ simulator: simulatorStamps(cluster.store, kinds, options.visible), engine: engine.inspectCache(), renderer }, kinds);
      if (report.consistent) return { objects: report.objects, ms: Date.now() - started };
    }
    if (Date.now() - started >= timeoutMs) break;
    await sleep(POLL_INTERVAL_MS);
  }
  const status = await rendererStatus(page);
  const health = (await engine.dispatch('cluster:health', {})) as Result<ClusterHealth>;
  const detail = [
    report ? describeReport(report, namesOf(cluster.store, kinds)) : 'the page never had a window.__kubedriftStore (is the app loaded?)',
    `renderer status: ${JSON.stringify(status)}`,
    `engine health: ${health.ok ? healthLine(health.value.kinds) : health.error.message}`,
  ];
  throw new Error(`not consistent after ${timeoutMs} ms: ${detail.join('\n')}`);
}
