/**
 * Gathers what a snapshot holds: the objects at T (the live cache, or the state rebuilt from
 * history for a past T), narrowed to the scope, redacted, with the history window and the graph.
 * Scopes keep what explains the chosen objects: a namespace brings its Namespace object and the
 * Nodes its pods run on; a selection brings everything the chosen objects own (a Deployment's
 * ReplicaSets and Pods) and the Events about all of them.
 */
import { BUILTIN_KEYS, isBuiltinObject } from '../../../shared/builtin-kinds.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import {
  SNAPSHOT_KIND,
  SNAPSHOT_SCHEMA_VERSION,
  type SnapshotFile,
  type SnapshotDiff,
  type SnapshotGraph,
  type SnapshotHistory,
  type SnapshotScope,
  type SnapshotView,
  type TimeWindow,
} from '../../../shared/contracts/snapshot.ts';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { SelectedContext } from '../features.ts';
import { kindNames, kindTable, type KindNames } from './kind-table.ts';
import { redactObject } from './redact.ts';

/** The default history window: the hour before T. */
export const DEFAULT_WINDOW_MS = 60 * 60 * 1000;

export interface CollectSources {
  version: string;
  now(): number;
  selected(): SelectedContext | null;
  /** The live objects. */
  live(): SlimObject[];
  /** The objects at a past time (rejects when no history is recorded). */
  objectsAt(at: number): Promise<{ objects: SlimObject[]; at: number }>;
  /** The user's status rules (Settings), for the HTML report's states as the app shows them. */
  statusRules?: (() => readonly UserStatusRule[]) | undefined;
  /** Names the kinds of the objects for the file's kind table; the built-in kinds only when absent. */
  kindNames?: (() => Promise<KindNames>) | undefined;
  /** The recorded history of the window for the scoped workloads, or null when none exists. */
  history?:
    | ((input: {
        window: TimeWindow;
        objects: readonly SlimObject[];
        namespace: string | null;
        selection: boolean;
        progress: (done: number, total: number) => void;
      }) => Promise<SnapshotHistory | null>)
    | undefined;
  /** The selected context's restricted view (its user's permissions), or null when it sees the whole cluster. */
  view?: (() => Promise<SnapshotView | null>) | undefined;
  /** The last diff results of the selected context, or null. */
  diff?: ((input: { namespace: string | null }) => Promise<SnapshotDiff | null>) | undefined;
  /** The ownership graph of the scope at T, or null. */
  graph?: ((input: { namespace: string | null; focus: string | null; at: number | null }) => Promise<SnapshotGraph | null>) | undefined;
}

export interface CollectRequest {
  scope: SnapshotScope;
  at: number | null;
  window?: TimeWindow | null | undefined;
}

export type CollectStep = 'collecting' | 'history' | 'graph';

/** A step began, or (history) advanced: `done` of `total` workloads read. */
export type StepReporter = (phase: CollectStep, done?: number, total?: number) => void;

export interface Collected {
  file: SnapshotFile;
  /** What could not be included, in words. */
  notes: string[];
}

const involvedUid = (event: SlimObject): string | undefined => (event['involvedObject'] as { uid?: string } | undefined)?.uid;

/** The uids of the selection and of everything they own, transitively. */
function ownedClosure(objects: readonly SlimObject[], roots: readonly string[]): Set<string> {
  const children = new Map<string, string[]>();
  for (const object of objects) {
    for (const owner of object.metadata.ownerReferences ?? []) {
      const list = children.get(owner.uid) ?? [];
      list.push(object.metadata.uid);
      children.set(owner.uid, list);
    }
  }
  const out = new Set<string>();
  const queue = [...roots];
  while (queue.length > 0) {
    const uid = queue.pop() as string;
    if (out.has(uid)) continue;
    out.add(uid);
    queue.push(...(children.get(uid) ?? []));
  }
  return out;
}

/** The objects and Events a scope covers. */
export function applyScope(all: readonly SlimObject[], scope: SnapshotScope): { objects: SlimObject[]; events: SlimObject[] } {
  const events = all.filter((object) => isBuiltinObject(object, BUILTIN_KEYS.Event));
  const objects = all.filter((object) => !isBuiltinObject(object, BUILTIN_KEYS.Event));
  if (scope.type === 'cluster') return { objects, events };
  if (scope.type === 'namespace') {
    const inNamespace = objects.filter((object) => object.metadata.namespace === scope.namespace);
    const nodes = new Set(inNamespace.map((object) => (object['spec'] as { nodeName?: string } | undefined)?.nodeName).filter(Boolean));
    const extra = objects.filter((object) => (object.kind === 'Namespace' && object.metadata.name === scope.namespace) || (object.kind === 'Node' && nodes.has(object.metadata.name)));
    return { objects: [...extra, ...inNamespace], events: events.filter((event) => event.metadata.namespace === scope.namespace) };
  }
  const uids = ownedClosure(objects, scope.uids);
  return {
    objects: objects.filter((object) => uids.has(object.metadata.uid)),
    events: events.filter((event) => uids.has(involvedUid(event) ?? '')),
  };
}

/** Stable order: kinds as listed, then namespace and name, so two exports of one state are equal. */
function sortObjects(objects: SlimObject[]): SlimObject[] {
  return objects.sort(
    (a, b) => a.kind.localeCompare(b.kind) || (a.metadata.namespace ?? '').localeCompare(b.metadata.namespace ?? '') || a.metadata.name.localeCompare(b.metadata.name) || a.metadata.uid.localeCompare(b.metadata.uid),
  );
}

export async function collectSnapshot(sources: CollectSources, request: CollectRequest, step: StepReporter = () => {}): Promise<Collected> {
  const context = sources.selected();
  if (!context) throw new Error('No context is selected: choose a cluster to export first');
  const notes: string[] = [];
  step('collecting');
  const createdAt = sources.now();
  let takenAt = createdAt;
  let all: SlimObject[];
  if (request.at === null) {
    all = sources.live();
  } else {
    const state = await sources.objectsAt(request.at);
    all = state.objects;
    takenAt = state.at;
  }
  const scoped = applyScope(all, request.scope);
  if (request.scope.type === 'selection' && scoped.objects.length === 0) {
    throw new Error(`None of the ${request.scope.uids.length} selected objects exist at ${new Date(takenAt).toISOString()}`);
  }
  const objects = sortObjects(scoped.objects.map(redactObject));
  const events = sortObjects(scoped.events.map(redactObject));
  const { kinds, unnamed } = kindTable([...objects, ...events], sources.kindNames ? await sources.kindNames() : kindNames({}));
  if (unnamed.length > 0) notes.push(`Kubedrift could not name these kinds, so opening the snapshot leaves their objects out (they stay in the file): ${unnamed.join(', ')}.`);

  step('history');
  const window = request.window ?? { from: takenAt - DEFAULT_WINDOW_MS, to: takenAt };
  if (window.from > window.to) throw new Error('The history window ends before it starts');
  let history: SnapshotHistory | null = null;
  const namespace = request.scope.type === 'namespace' ? request.scope.namespace : null;
  if (sources.history) {
    history = await sources.history({ window, objects, namespace, selection: request.scope.type === 'selection', progress: (done, total) => step('history', done, total) });
    if (history === null) notes.push('No history was recorded for this context in the window, so the snapshot has no timeline.');
  } else {
    notes.push('History recording is not available here, so the snapshot has no timeline.');
  }

  step('graph');
  const focus = request.scope.type === 'selection' && request.scope.uids.length === 1 ? (request.scope.uids[0] as string) : null;
  const graph = sources.graph && (request.scope.type !== 'selection' || focus) ? await sources.graph({ namespace, focus, at: request.at }) : null;
  if (!graph) notes.push('The snapshot holds no ownership graph; the graph view rebuilds it from the objects when the snapshot is opened.');

  const view = sources.view ? await sources.view() : null;
  const file: SnapshotFile = {
    schemaVersion: SNAPSHOT_SCHEMA_VERSION,
    kind: SNAPSHOT_KIND,
    createdAt,
    takenAt,
    live: request.at === null,
    generator: { name: 'Kubedrift', version: sources.version },
    context: { name: context.name, ...(context.server ? { server: context.server } : {}), demo: context.demo, ...(view ? { view } : {}) },
    scope: request.scope,
    objects,
    events,
    kinds,
    history,
    graph,
    diff: sources.diff && request.scope.type !== 'selection' ? await sources.diff({ namespace }) : null,
  };
  return { file, notes };
}
