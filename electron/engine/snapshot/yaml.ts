/**
 * The YAML bundle: a snapshot's objects as multi-document YAML that `kubectl apply -f` takes.
 * By default it holds manifests, not records: status and server-set metadata (uid,
 * resourceVersion, timestamps, owner references, allocated cluster IPs) are removed, and objects
 * a controller creates (ReplicaSets of a Deployment, its Pods, Jobs of a CronJob), Nodes,
 * Events and the built-in Namespaces are left out, since applying them would fight the controllers,
 * and so are objects of kinds read as metadata only (nothing of them to apply). "Keep status" keeps
 * every object as it was, for the record. Built from slim objects, so the header says what
 * slimming left out; Secrets' data never gets here (see redact.ts).
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { SnapshotFile } from '../../../shared/contracts/snapshot.ts';
import { snapshotKindId } from '../../../shared/contracts/snapshot-kinds.ts';
import { formatSnapshotTime } from './file.ts';
import { toYaml } from './yaml-emit.ts';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

const SERVER_SET_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'deletionTimestamp', 'ownerReferences', 'managedFields', 'selfLink'];
/** Service fields the API server allocates; a copy applied elsewhere must get its own. */
const SERVER_SET_SERVICE_SPEC = ['clusterIP', 'clusterIPs', 'healthCheckNodePort'];
const NEVER_APPLIED_KINDS: ReadonlySet<string> = new Set(['Node', 'Event']);
/** Namespaces every cluster has; applying them changes nothing but draws kubectl warnings. */
const BUILT_IN_NAMESPACES: ReadonlySet<string> = new Set(['default', 'kube-system', 'kube-public', 'kube-node-lease']);

export interface YamlOptions {
  keepStatus?: boolean | undefined;
}

/** A container's env as slimming leaves it: the ConfigMaps and Secrets it names, without variable names. */
const isSlimEnv = (key: string, value: unknown): boolean => key === 'env' && Array.isArray(value) && value.some((variable) => !isObject(variable) || typeof variable['name'] !== 'string');

/**
 * Drops what slimming leaves that is not a valid manifest: `{}` markers (a probe's presence,
 * affinity) and env entries kept only as references (the graph's; a variable needs its name).
 */
function dropEmptyMarkers(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmptyMarkers);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if ((key === 'readinessProbe' || key === 'affinity') && isObject(child) && Object.keys(child).length === 0) continue;
    if (isSlimEnv(key, child)) continue;
    out[key] = dropEmptyMarkers(child);
  }
  return out;
}

function isControlled(object: SlimObject): boolean {
  return (object.metadata.ownerReferences ?? []).some((owner) => owner.controller === true);
}

/** One object as a manifest kubectl can apply. */
export function toManifest(object: SlimObject): Json {
  const { kind, apiVersion, metadata, status: _status, ...rest } = object as SlimObject & { status?: unknown };
  const meta: Json = { ...metadata };
  for (const field of SERVER_SET_METADATA) delete meta[field];
  const body = dropEmptyMarkers(rest) as Json;
  if (kind === 'Service' && isObject(body['spec'])) {
    const spec = { ...body['spec'] };
    for (const field of SERVER_SET_SERVICE_SPEC) delete spec[field];
    body['spec'] = spec;
  }
  return { apiVersion, kind, metadata: meta, ...body };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The custom kinds among the kept objects, by key: applying them needs their CRDs installed first. */
function customKinds(file: SnapshotFile, kept: readonly SlimObject[]): string[] {
  const custom = new Map(file.kinds.filter((entry) => entry.custom).map((entry) => [snapshotKindId(entry.apiVersion, entry.kind), entry.key]));
  return [...new Set(kept.map((object) => custom.get(snapshotKindId(object.apiVersion, object.kind))).filter((key): key is string => key !== undefined))].sort();
}

function header(file: SnapshotFile, kept: readonly SlimObject[], left: Map<string, number>, keepStatus: boolean): string {
  const lines = [
    `Kubedrift ${file.generator.version} YAML bundle of "${file.context.name}" at ${formatSnapshotTime(file.takenAt)} (${file.live ? 'live' : 'a past state'}).`,
    `${plural(kept.length, 'object')}${keepStatus ? ', with status and server-set fields, as a record' : ' as manifests: status and server-set fields removed'}.`,
    'Rebuilt from Kubedrift\'s slim objects: env, volumes, commands and probe details are not included. Secret values never are.',
  ];
  if (left.size > 0) {
    const parts = [...left].map(([what, count]) => `${count} ${what}`);
    lines.push(`Left out: ${parts.join(', ')} (choose "keep status" to include them).`);
  }
  const custom = customKinds(file, kept);
  if (custom.length > 0) {
    lines.push(`Custom resources of ${custom.join(', ')}: install their CustomResourceDefinitions (their operators) before applying; Kubedrift reads CRDs as metadata only.`);
  }
  return lines.map((line) => `# ${line}`).join('\n');
}

/** The bundle's text. */
export function snapshotYaml(file: SnapshotFile, options: YamlOptions = {}): string {
  const keepStatus = options.keepStatus === true;
  const docs: string[] = [];
  const kept: SlimObject[] = [];
  const left = new Map<string, number>();
  const leaveOut = (what: string) => left.set(what, (left.get(what) ?? 0) + 1);
  const objects = keepStatus ? [...file.objects, ...file.events] : file.objects;
  if (!keepStatus && file.events.length > 0) left.set('Events', file.events.length);
  // Namespaces first so a plain `kubectl apply -f` creates them before what lives in them.
  const ordered = [...objects].sort((a, b) => Number(b.kind === 'Namespace') - Number(a.kind === 'Namespace'));
  // Kinds read as metadata only (Secrets, ConfigMaps, RBAC, CRDs) have no body to apply: as a
  // manifest, a ConfigMap would come back empty and a CRD without its schema.
  const metadataOnly = new Set(file.kinds.filter((entry) => entry.metadataOnly).map((entry) => snapshotKindId(entry.apiVersion, entry.kind)));
  for (const object of ordered) {
    if (!keepStatus && metadataOnly.has(snapshotKindId(object.apiVersion, object.kind))) {
      leaveOut(`${object.kind}s read as metadata only`);
      continue;
    }
    if (!keepStatus && NEVER_APPLIED_KINDS.has(object.kind)) {
      leaveOut(`${object.kind}s`);
      continue;
    }
    if (!keepStatus && object.kind === 'Namespace' && BUILT_IN_NAMESPACES.has(object.metadata.name)) {
      leaveOut('built-in Namespaces');
      continue;
    }
    if (!keepStatus && isControlled(object)) {
      leaveOut(`controller-owned ${object.kind}s`);
      continue;
    }
    docs.push(toYaml(keepStatus ? (object as Record<string, unknown>) : toManifest(object)));
    kept.push(object);
  }
  return `${header(file, kept, left, keepStatus)}\n${docs.map((doc) => `---\n${doc}`).join('')}`;
}
