/**
 * Reads scenario files: a multi-document YAML file whose first document is the `Scenario`
 * header and whose other documents are plain Kubernetes manifests created at start. Every
 * problem is reported as `file:line: path: reason`, with the line of the offending node.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isMap, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import type { ResourceType } from '../resources.ts';
import type { IncomingObject } from '../types.ts';
import { kindLookup, type KindLookup } from './custom-kinds.ts';
import { ACTION_KEYS, actionSchemas, entryTimingSchema, headerSchema, type ActionKey, type HistorySpec, type KubeletTimings, type ScenarioNode, type TimelineAction } from './schema.ts';

/** An initial manifest of a scenario, with the served type it is stored as. */
export interface ScenarioObject {
  type: ResourceType;
  manifest: IncomingObject;
  /** Line of the manifest's document, for errors raised when it is created. */
  line: number;
}

/** One timeline entry: when, how often, and what. */
export interface TimelineEntry {
  /** First run, from the scenario's start (simulated time, before speed is applied). */
  atMs: number;
  /** Repeat period, for `every` entries. */
  everyMs?: number;
  note?: string;
  line: number;
  action: TimelineAction;
}

/** A validated scenario file. */
export interface Scenario {
  name: string;
  description: string;
  /** Where the scenario came from (a path, or `<inline>`). */
  file: string;
  speed: number;
  kubernetesVersion: string | undefined;
  kubelet: KubeletTimings;
  nodes: ScenarioNode[];
  namespaces: string[];
  /** Demo operators to run (`certificates`, `databases`). */
  operators: Array<'certificates' | 'databases'>;
  objects: ScenarioObject[];
  timeline: TimelineEntry[];
  /** `spec.history`: seed the cluster as one that has run this long. */
  history?: HistorySpec;
}

/** A scenario that cannot be used, located to a line and a field path. */
export class ScenarioError extends Error {
  readonly file: string;
  readonly line: number | undefined;
  readonly path: string;
  readonly reason: string;

  constructor(location: { file: string; line?: number; path?: string }, reason: string) {
    const where = location.line === undefined ? location.file : `${location.file}:${location.line}`;
    super(`${where}: ${location.path ? `${location.path}: ` : ''}${reason}`);
    this.name = 'ScenarioError';
    this.file = location.file;
    this.line = location.line;
    this.path = location.path ?? '';
    this.reason = reason;
  }
}

/** Scenarios shipped next to this module, loadable by name. */
export const BUILT_IN_SCENARIOS = ['demo', 'minimal'] as const;

type PathPart = string | number;

function formatPath(path: readonly PathPart[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

class DocumentLocator {
  private readonly doc: Document;
  private readonly lines: LineCounter;

  constructor(doc: Document, lines: LineCounter) {
    this.doc = doc;
    this.lines = lines;
  }

  /** The line of the deepest node along `path` that exists. */
  lineOf(path: readonly PathPart[]): number {
    let node: unknown = this.doc.contents;
    let found = node as Node | null;
    for (const part of path) {
      if (isMap(node)) node = node.get(part, true);
      else if (isSeq(node) && typeof part === 'number') node = node.get(part, true);
      else break;
      if (!node) break;
      found = node as Node;
    }
    const offset = found?.range?.[0] ?? this.doc.range?.[0] ?? 0;
    return this.lines.linePos(offset).line;
  }
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, at: { file: string; locator: DocumentLocator; path: PathPart[] }): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const issuePath = [...at.path, ...((issue?.path ?? []) as PathPart[])];
  let reason = issue?.message ?? 'invalid value';
  if (issue?.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    issuePath.push(key);
    reason = `unknown field "${key}"`;
  }
  throw new ScenarioError({ file: at.file, line: at.locator.lineOf(issuePath), path: formatPath(issuePath) }, reason);
}

function parseTimelineEntry(entry: Record<string, unknown>, index: number, file: string, locator: DocumentLocator, lookup: KindLookup): TimelineEntry {
  const path: PathPart[] = ['spec', 'timeline', index];
  const actionKeys = Object.keys(entry).filter((k): k is ActionKey => (ACTION_KEYS as string[]).includes(k));
  const timing: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) if (!(ACTION_KEYS as string[]).includes(key)) timing[key] = value;
  const line = locator.lineOf(path);
  if (actionKeys.length !== 1) {
    const unknown = Object.keys(timing).find((k) => !['at', 'every', 'note'].includes(k));
    const reason = unknown
      ? `unknown field "${unknown}" (an entry has at, every, note and one action: ${ACTION_KEYS.join(', ')})`
      : actionKeys.length === 0
        ? `no action (one of ${ACTION_KEYS.join(', ')})`
        : `more than one action (${actionKeys.join(', ')}); use one entry per action`;
    throw new ScenarioError({ file, line: locator.lineOf(unknown ? [...path, unknown] : path), path: formatPath(unknown ? [...path, unknown] : path) }, reason);
  }
  const key = actionKeys[0] as ActionKey;
  const { at, every, note } = parseWith(entryTimingSchema, timing, { file, locator, path });
  if (at === undefined && every === undefined) throw new ScenarioError({ file, line, path: formatPath(path) }, 'needs "at" (when to run) or "every" (how often)');
  if (every !== undefined && every <= 0) throw new ScenarioError({ file, line: locator.lineOf([...path, 'every']), path: formatPath([...path, 'every']) }, 'must be longer than 0s');
  const payload = parseWith(actionSchemas[key], entry[key], { file, locator, path: [...path, key] });
  let action: TimelineAction;
  if (key === 'apply') {
    const { apiVersion, kind } = payload as { apiVersion: string; kind: string };
    if (!lookup(apiVersion, kind)) {
      throw new ScenarioError({ file, line: locator.lineOf([...path, key, 'kind']), path: formatPath([...path, key, 'kind']) }, `${apiVersion} ${kind} is not a kind the simulated cluster serves`);
    }
    action = { type: 'apply', manifest: payload as unknown as IncomingObject };
  } else if (key === 'nodeNotReady' || key === 'nodeReady') {
    action = { type: key, node: payload as string };
  } else {
    action = { type: key, ...(payload as object) } as TimelineAction;
  }
  return { atMs: at ?? every ?? 0, ...(every !== undefined ? { everyMs: every } : {}), ...(note ? { note } : {}), line, action };
}

function parseManifest(doc: Document, index: number, file: string, lines: LineCounter, declared: Set<string>, lookup: KindLookup): ScenarioObject {
  const locator = new DocumentLocator(doc, lines);
  const line = locator.lineOf([]);
  const value = doc.toJS() as unknown;
  const fail = (path: PathPart[], reason: string) => new ScenarioError({ file, line: locator.lineOf(path), path: `document ${index + 1}${path.length ? ` ${formatPath(path)}` : ''}` }, reason);
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw fail([], 'a manifest must be a mapping with apiVersion, kind and metadata');
  const manifest = value as Record<string, unknown>;
  if (typeof manifest['apiVersion'] !== 'string') throw fail(['apiVersion'], 'Required value: apiVersion');
  if (typeof manifest['kind'] !== 'string') throw fail(['kind'], 'Required value: kind');
  const type = lookup(manifest['apiVersion'], manifest['kind']);
  if (!type) throw fail(['kind'], `${manifest['apiVersion']} ${manifest['kind']} is not a kind the simulated cluster serves`);
  const metadata = manifest['metadata'] as Record<string, unknown> | undefined;
  if (!metadata || typeof metadata['name'] !== 'string' || metadata['name'] === '') throw fail(['metadata', 'name'], 'Required value: metadata.name');
  if (type.namespaced) {
    const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default';
    if (namespace !== 'default' && !declared.has(namespace)) {
      throw fail(['metadata', 'namespace'], `namespace "${namespace}" is neither in spec.namespaces nor created by a Namespace manifest`);
    }
    return { type, manifest: { ...manifest, metadata: { ...metadata, namespace } } as IncomingObject, line };
  }
  return { type, manifest: manifest as IncomingObject, line };
}

/** Parses scenario text; `file` only labels error messages. Throws ScenarioError. */
export function parseScenario(text: string, file = '<inline>'): Scenario {
  const lines = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lines, prettyErrors: false });
  if (!Array.isArray(docs)) throw new ScenarioError({ file }, 'the file is empty; the first document must be the Scenario header');
  for (const doc of docs) {
    const error = doc.errors[0];
    if (error) throw new ScenarioError({ file, line: lines.linePos(error.pos[0]).line }, `YAML: ${error.message.split('\n')[0]}`);
  }
  const [headerDoc, ...manifestDocs] = docs;
  if (!headerDoc) throw new ScenarioError({ file }, 'the file is empty; the first document must be the Scenario header');
  const locator = new DocumentLocator(headerDoc, lines);
  const header = parseWith(headerSchema, headerDoc.toJS(), { file, locator, path: [] });
  const declared = new Set(header.spec.namespaces);
  for (const doc of manifestDocs) {
    const js = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (js?.kind === 'Namespace' && typeof js.metadata?.name === 'string') declared.add(js.metadata.name);
  }
  const lookup = kindLookup(manifestDocs.map((doc) => doc.toJS() as unknown));
  const objects: ScenarioObject[] = [];
  manifestDocs.forEach((doc, i) => {
    if (doc.contents === null) return;
    objects.push(parseManifest(doc, i + 1, file, lines, declared, lookup));
  });
  const timeline = header.spec.timeline.map((entry, i) => parseTimelineEntry(entry, i, file, locator, lookup));
  const nodeNames = new Set<string>();
  header.spec.nodes.forEach((node, i) => {
    if (nodeNames.has(node.name)) throw new ScenarioError({ file, line: locator.lineOf(['spec', 'nodes', i, 'name']), path: `spec.nodes[${i}].name` }, `duplicate node "${node.name}"`);
    nodeNames.add(node.name);
  });
  timeline.forEach((entry, i) => {
    if ((entry.action.type === 'nodeNotReady' || entry.action.type === 'nodeReady') && !nodeNames.has(entry.action.node)) {
      const path: PathPart[] = ['spec', 'timeline', i, entry.action.type];
      throw new ScenarioError({ file, line: locator.lineOf(path), path: formatPath(path) }, `no node named "${entry.action.node}" in spec.nodes`);
    }
  });
  return {
    name: header.metadata.name,
    description: header.metadata.description,
    file,
    speed: header.spec.speed,
    kubernetesVersion: header.spec.kubernetesVersion,
    kubelet: header.spec.kubelet,
    nodes: header.spec.nodes,
    namespaces: header.spec.namespaces,
    operators: header.spec.operators,
    objects,
    timeline,
    ...(header.spec.history ? { history: header.spec.history } : {}),
  };
}

/** Where a built-in scenario's file lives (next to this module). */
export function builtInScenarioPath(name: (typeof BUILT_IN_SCENARIOS)[number]): string {
  return fileURLToPath(new URL(`./${name}.yaml`, import.meta.url));
}

/** Loads a built-in scenario by name (`demo`, `minimal`) or a scenario file by path. */
export function loadScenario(nameOrPath: string): Scenario {
  const builtIn = (BUILT_IN_SCENARIOS as readonly string[]).includes(nameOrPath);
  const file = builtIn ? builtInScenarioPath(nameOrPath as (typeof BUILT_IN_SCENARIOS)[number]) : nameOrPath;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = builtIn || nameOrPath.includes('/') || nameOrPath.endsWith('.yaml') ? '' : ` (built-in scenarios: ${BUILT_IN_SCENARIOS.join(', ')})`;
    throw new ScenarioError({ file }, `${code === 'ENOENT' ? 'no such file' : `cannot read: ${(error as Error).message}`}${hint}`);
  }
  return parseScenario(text, file);
}
