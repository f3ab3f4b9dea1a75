/**
 * One diff run, shared by the app and the `kubedrift diff` command: load the manifests, resolve
 * each kind through discovery (namespaced kinds get the context's namespace) and, for custom
 * kinds, their CRD's list schema; refuse duplicates, then fetch live and predicted states a few
 * objects at a time. What is kept is already normalised and masked; how it compares (ignore
 * rules, field owners) is decided later, so a new ignore rule re-evaluates a run without asking
 * the cluster again.
 */
import type { DiffNotice, DiffSource } from '../../../shared/contracts/diff.ts';
import { createApiClient, type ApiClient } from './cluster/client.ts';
import { createDiscovery, type ResourceInfo } from './cluster/discovery.ts';
import { fetchStates, type Fetched } from './cluster/fetch.ts';
import { listHpas } from './cluster/hpas.ts';
import { predictClientSide } from './cluster/approximate.ts';
import { createSchemaCache, createSchemaSource, type SchemaCache, type SchemaSource } from './cluster/crd-schema.ts';
import { alignOrder } from './fields/align.ts';
import type { ListSchema } from './fields/list-schema.ts';
import type { HpaIndex } from './fields/owners.ts';
import { loadManifests } from './load/index.ts';
import { isObject, type JsonObject, type Manifest } from './load/types.ts';
import { managedFieldsOf, maskSecrets, normalise, type ManagedFieldsEntry } from './normalise.ts';

const CONCURRENCY = 16;

/** One object of a run, everything in normal form with Secret values masked. */
export interface ComparedObject {
  id: string;
  apiVersion: string;
  kind: string;
  group: string;
  namespace: string | undefined;
  name: string;
  source: DiffSource;
  error?: string;
  live?: JsonObject;
  predicted?: JsonObject;
  managedFields: ManagedFieldsEntry[];
  approximate?: string;
  /** Why a Missing object could not be dry-run (its namespace or CRD is created by the same files). */
  note?: string;
  /** The list semantics of a custom kind, from its CRD's schema (undefined: built-in merge keys). */
  lists?: ListSchema;
}

export interface DiffRunData {
  id: string;
  context: string;
  startedAt: number;
  durationMs: number;
  objects: ComparedObject[];
  notices: DiffNotice[];
  hpas: HpaIndex;
}

export type RunPhase = 'loading' | 'discovery' | 'comparing';

export interface RunOptions {
  paths: readonly string[];
  /** A single-context kubeconfig object (client-node shape). */
  config: object;
  context: string;
  /** The namespace for objects that name none (the context's namespace, else `default`). */
  namespace?: string | undefined;
  kubectl?: string | null;
  now?: () => number;
  onProgress?: (phase: RunPhase, done: number, total: number) => void;
  /** CRD list schemas kept between runs (per context and CRD resourceVersion); a fresh one by default. */
  schemaCache?: SchemaCache;
}

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

function identityOf(manifest: Manifest): { apiVersion: string; kind: string; namespace: string | undefined; name: string } {
  const metadata = manifest.object['metadata'] as JsonObject;
  return {
    apiVersion: String(manifest.object['apiVersion']),
    kind: String(manifest.object['kind']),
    namespace: typeof metadata['namespace'] === 'string' && metadata['namespace'] ? metadata['namespace'] : undefined,
    name: String(metadata['name']),
  };
}

interface Resolved {
  base: Omit<ComparedObject, 'managedFields'>;
  manifest?: JsonObject;
  resource?: ResourceInfo;
  /** A custom resource whose CRD is not served yet but is defined in the files: shown as written. */
  unserved?: { manifest: JsonObject; note: string };
}

/** Applies the namespace default (namespaced kinds) or drops the namespace (cluster-scoped ones). */
function placed(manifest: JsonObject, resource: Pick<ResourceInfo, 'namespaced'>, namespace: string): JsonObject {
  const metadata = { ...(manifest['metadata'] as JsonObject) };
  if (resource.namespaced) metadata['namespace'] = typeof metadata['namespace'] === 'string' && metadata['namespace'] ? metadata['namespace'] : namespace;
  else delete metadata['namespace'];
  return { ...manifest, metadata };
}

/** A CRD in the files: which apiVersion and kind it serves, whether namespaced, and where it is. */
interface FileCrd {
  namespaced: boolean;
  source: DiffSource;
}

/** The custom kinds the files' own CustomResourceDefinitions define, by `apiVersion/kind`. */
function crdsInFiles(manifests: readonly Manifest[]): Map<string, FileCrd> {
  const out = new Map<string, FileCrd>();
  for (const { object, source } of manifests) {
    if (object['apiVersion'] !== 'apiextensions.k8s.io/v1' || object['kind'] !== 'CustomResourceDefinition' || !isObject(object['spec'])) continue;
    const spec = object['spec'];
    const kind = isObject(spec['names']) ? spec['names']['kind'] : undefined;
    for (const version of Array.isArray(spec['versions']) ? spec['versions'] : []) {
      if (isObject(version) && version['served'] !== false) out.set(`${String(spec['group'])}/${String(version['name'])}/${String(kind)}`, { namespaced: spec['scope'] !== 'Cluster', source });
    }
  }
  return out;
}

async function resolveAll(client: ApiClient, schemas: SchemaSource, manifests: readonly Manifest[], namespace: string): Promise<Resolved[]> {
  const discovery = createDiscovery(client);
  const fileCrds = crdsInFiles(manifests);
  return Promise.all(
    manifests.map(async (manifest): Promise<Resolved> => {
      const who = identityOf(manifest);
      const group = groupOf(who.apiVersion);
      const lookup = await discovery.lookup(who.apiVersion, who.kind);
      const id = `${group}/${who.kind}/${who.namespace ?? ''}/${who.name}`;
      if ('problem' in lookup) {
        const crd = lookup.customKindAbsent ? fileCrds.get(`${who.apiVersion}/${who.kind}`) : undefined;
        if (!crd) return { base: { id, ...who, group, source: manifest.source, error: lookup.problem } };
        const object = placed(manifest.object, crd, namespace);
        const ns = crd.namespaced ? ((object['metadata'] as JsonObject)['namespace'] as string) : undefined;
        const note = `No CustomResourceDefinition serves ${who.apiVersion} ${who.kind} in this cluster yet (it is created by ${crd.source.file}:${crd.source.line}), so the server could not dry-run this object: shown as written, without server defaults.`;
        return { base: { id: `${group}/${who.kind}/${ns ?? ''}/${who.name}`, ...who, namespace: ns, group, source: manifest.source }, unserved: { manifest: object, note } };
      }
      const object = placed(manifest.object, lookup.resource, namespace);
      const ns = lookup.resource.namespaced ? ((object['metadata'] as JsonObject)['namespace'] as string) : undefined;
      const lists = await schemas.schemaFor(lookup.resource);
      return { base: { id: `${group}/${who.kind}/${ns ?? ''}/${who.name}`, ...who, namespace: ns, group, source: manifest.source, ...(lists ? { lists } : {}) }, manifest: object, resource: lookup.resource };
    }),
  );
}

/** Every occurrence of an object defined more than once becomes an Error naming the others. */
function markDuplicates(resolved: Resolved[]): void {
  const byId = new Map<string, Resolved[]>();
  for (const entry of resolved) if (!entry.base.error) byId.set(entry.base.id, [...(byId.get(entry.base.id) ?? []), entry]);
  for (const [id, entries] of byId) {
    if (entries.length < 2) continue;
    entries.forEach((entry, i) => {
      const others = entries.filter((other) => other !== entry).map((other) => `${other.base.source.file}:${other.base.source.line}`);
      entry.base = { ...entry.base, id: `${id}#${i + 1}`, error: `${entry.base.kind} "${entry.base.name}"${entry.base.namespace ? ` in namespace "${entry.base.namespace}"` : ''} is defined more than once: also at ${others.join(', ')}. Keep one definition.` };
      delete entry.manifest;
      delete entry.unserved;
    });
  }
}

function compared(base: Resolved['base'], fetched: Fetched, manifest: JsonObject, namespaces: ReadonlyMap<string, DiffSource>): ComparedObject {
  if (fetched.type === 'error') {
    const creator = fetched.namespaceMissing ? namespaces.get(fetched.namespaceMissing) : undefined;
    if (!creator) return { ...base, managedFields: [], error: fetched.message };
    const predicted = normalise(predictClientSide(undefined, manifest));
    maskSecrets(undefined, predicted);
    return { ...base, managedFields: [], predicted, note: `Namespace "${fetched.namespaceMissing}" does not exist yet (it is created by ${creator.file}:${creator.line}), so the server could not dry-run this object: shown as written, without server defaults.` };
  }
  const live = fetched.live ? normalise(fetched.live) : undefined;
  const predicted = live ? alignOrder(live, normalise(fetched.predicted), base.lists) : normalise(fetched.predicted);
  maskSecrets(live, predicted);
  return { ...base, managedFields: managedFieldsOf(fetched.live), predicted, ...(live ? { live } : {}), ...(fetched.approximate ? { approximate: fetched.approximate } : {}) };
}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Runs a diff. Rejects only when the cluster cannot be reached at all; everything else is a row. */
export async function runDiff(options: RunOptions): Promise<DiffRunData> {
  const now = options.now ?? Date.now;
  const startedAt = now();
  const progress = options.onProgress ?? (() => undefined);
  progress('loading', 0, 0);
  const loaded = await loadManifests(options.paths, options.kubectl === undefined ? {} : { kubectl: options.kubectl });
  const client = await createApiClient(options.config);
  try {
    progress('discovery', 0, loaded.manifests.length);
    const schemas = createSchemaSource(client, { context: options.context, cache: options.schemaCache ?? createSchemaCache() });
    const resolved = await resolveAll(client, schemas, loaded.manifests, options.namespace ?? client.namespace ?? 'default');
    markDuplicates(resolved);
    const schemaNotices = [...schemas.problems()].map(([kind, message]): DiffNotice => {
      const first = resolved.find((r) => `${r.base.apiVersion}/${r.base.kind}` === kind);
      return { level: 'warning', path: first?.base.source.file ?? '', message };
    });
    const namespaces = new Map(resolved.filter((r) => r.base.kind === 'Namespace' && r.manifest).map((r) => [r.base.name, r.base.source]));
    const objects: ComparedObject[] = loaded.errors.map((bad, i) => ({
      id: `error:${bad.source.file}:${bad.source.line}:${i}`,
      apiVersion: bad.apiVersion ?? '',
      kind: bad.kind ?? '',
      group: groupOf(bad.apiVersion ?? ''),
      namespace: bad.namespace,
      name: bad.name ?? '',
      source: bad.source,
      error: bad.message,
      managedFields: [],
    }));
    const results: ComparedObject[] = new Array<ComparedObject>(resolved.length);
    let done = 0;
    progress('comparing', 0, resolved.length);
    await pool([...resolved.keys()], CONCURRENCY, async (i) => {
      const entry = resolved[i] as Resolved;
      if (entry.unserved) results[i] = { ...entry.base, managedFields: [], predicted: normalise(predictClientSide(undefined, entry.unserved.manifest)), note: entry.unserved.note };
      else if (!entry.manifest || !entry.resource) results[i] = { ...entry.base, managedFields: [] };
      else {
        const fetched = await fetchStates(client, entry.resource, entry.manifest, entry.base.lists).catch((error: unknown): Fetched => ({ type: 'error', message: `request failed: ${(error as Error).message}` }));
        results[i] = compared(entry.base, fetched, entry.manifest, namespaces);
      }
      progress('comparing', ++done, resolved.length);
    });
    objects.push(...results);
    const replicaTargets = objects.filter((o) => o.live && isObject(o.live['spec']) && 'replicas' in o.live['spec']);
    const hpas = replicaTargets.length ? await listHpas(client, [...new Set(replicaTargets.map((o) => o.namespace ?? 'default'))]) : new Map();
    return { id: `${startedAt.toString(36)}-${Math.random().toString(36).slice(2, 8)}`, context: options.context, startedAt, durationMs: now() - startedAt, objects, notices: [...loaded.notices, ...schemaNotices], hpas };
  } finally {
    client.close();
  }
}
