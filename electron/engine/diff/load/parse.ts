/**
 * Manifest text to objects: multi-document YAML (or JSON), `List` kinds expanded, each object
 * checked for what a diff needs (apiVersion, kind, metadata.name). A bad document becomes a
 * precise message with its file and line; the good documents beside it still load.
 */
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { isObject, type BadDocument, type JsonObject, type Manifest } from './types.ts';

export interface Parsed {
  manifests: Manifest[];
  errors: BadDocument[];
}

/** `apps/v1` style identity of a document, for error rows; only the string fields. */
function identity(value: JsonObject): Omit<BadDocument, 'source' | 'message'> {
  const metadata = isObject(value['metadata']) ? value['metadata'] : {};
  const pick = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const out: Omit<BadDocument, 'source' | 'message'> = {};
  const apiVersion = pick(value['apiVersion']);
  const kind = pick(value['kind']);
  const namespace = pick(metadata['namespace']);
  const name = pick(metadata['name']);
  if (apiVersion) out.apiVersion = apiVersion;
  if (kind) out.kind = kind;
  if (namespace) out.namespace = namespace;
  if (name) out.name = name;
  return out;
}

/** Why an object cannot be diffed, or undefined when it can. */
export function objectProblem(value: unknown): string | undefined {
  if (!isObject(value)) return `a document must be a mapping (a Kubernetes object), got ${Array.isArray(value) ? 'a list' : typeof value}`;
  const apiVersion = value['apiVersion'];
  const kind = value['kind'];
  if (apiVersion === undefined && kind === undefined) return 'the document has neither apiVersion nor kind, so it is not a Kubernetes object';
  if (typeof apiVersion !== 'string' || apiVersion === '') return `the ${typeof kind === 'string' ? kind : 'document'} has no apiVersion`;
  if (typeof kind !== 'string' || kind === '') return `the document (apiVersion ${apiVersion}) has no kind`;
  const metadata = value['metadata'];
  if (metadata !== undefined && !isObject(metadata)) return `${kind}: metadata must be a mapping`;
  const name = isObject(metadata) ? metadata['name'] : undefined;
  if (name === undefined || name === '') {
    if (isObject(metadata) && typeof metadata['generateName'] === 'string') {
      return `${kind} uses metadata.generateName ("${metadata['generateName']}"): the server picks its name at creation, so there is no live object to compare it with`;
    }
    return `${kind} has no metadata.name`;
  }
  if (typeof name !== 'string') return `${kind}: metadata.name must be a string, got ${typeof name}`;
  if (isObject(metadata) && metadata['namespace'] !== undefined && typeof metadata['namespace'] !== 'string') return `${kind} "${name}": metadata.namespace must be a string`;
  return undefined;
}

/** `List` (v1) and typed lists (`DeploymentList`) carry their objects in `items`. */
function isList(value: JsonObject): boolean {
  return typeof value['kind'] === 'string' && value['kind'].endsWith('List') && Array.isArray(value['items']);
}

function addObject(out: Parsed, value: unknown, file: string, line: number): void {
  const problem = objectProblem(value);
  if (problem) out.errors.push({ source: { file, line }, message: problem, ...(isObject(value) ? identity(value) : {}) });
  else out.manifests.push({ object: value as JsonObject, source: { file, line } });
}

function lineOf(counter: LineCounter, offset: number | undefined): number {
  return offset === undefined ? 1 : counter.linePos(offset).line;
}

/** The line of each element of a document's `items`, from the YAML syntax tree. */
function itemLines(doc: Document, counter: LineCounter, fallback: number): number[] {
  const items = doc.get('items', true) as { items?: Array<{ range?: [number, number, number] | null }> } | undefined;
  return (items?.items ?? []).map((node) => (node.range ? lineOf(counter, node.range[0]) : fallback));
}

function addDocumentValue(out: Parsed, doc: Document, value: unknown, file: string, counter: LineCounter): void {
  const line = lineOf(counter, doc.contents?.range?.[0]);
  if (isObject(value) && isList(value)) {
    const lines = itemLines(doc, counter, line);
    (value['items'] as unknown[]).forEach((item, i) => addObject(out, item, file, lines[i] ?? line));
    return;
  }
  addObject(out, value, file, line);
}

/** A JSON syntax error with the line V8 reports (`... (line 3 column 5)`) or computes from the position. */
function jsonError(text: string, error: Error, file: string): BadDocument {
  const lineMatch = /\(line (\d+) column (\d+)\)/.exec(error.message);
  const positionMatch = /at position (\d+)/.exec(error.message);
  const line = lineMatch ? Number(lineMatch[1]) : positionMatch ? text.slice(0, Number(positionMatch[1])).split('\n').length : 1;
  const message = error.message.replace(/\s*\(line \d+ column \d+\)/, '').replace(/ in JSON at position \d+/, '');
  return { source: { file, line }, message: `invalid JSON: ${message}` };
}

/** Parses one file's text. `json` files are checked as JSON first, for JSON's own messages. */
export function parseManifestText(text: string, file: string, options: { json?: boolean } = {}): Parsed {
  const out: Parsed = { manifests: [], errors: [] };
  if (options.json) {
    try {
      JSON.parse(text);
    } catch (error) {
      out.errors.push(jsonError(text, error as Error, file));
      return out;
    }
  }
  const counter = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    const firstError = doc.errors[0];
    if (firstError) {
      const line = firstError.linePos?.[0]?.line ?? lineOf(counter, firstError.pos[0]);
      out.errors.push({ source: { file, line }, message: `invalid YAML: ${firstError.message.split('\n')[0]}` });
      continue;
    }
    if (doc.contents === null) continue;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      out.errors.push({ source: { file, line: lineOf(counter, doc.contents.range?.[0]) }, message: `invalid YAML: ${(error as Error).message}` });
      continue;
    }
    if (value === null || value === undefined) continue;
    addDocumentValue(out, doc, value, file, counter);
  }
  return out;
}
