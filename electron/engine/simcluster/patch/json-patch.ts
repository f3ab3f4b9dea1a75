/**
 * JSON patch (RFC 6902, `Content-Type: application/json-patch+json`) with the semantics and
 * messages of the library kube-apiserver uses (evanphx/json-patch v4): JSON pointers with `~0`
 * and `~1` escapes, `-` to append to an array, and v4's leniencies (`replace` of a missing
 * object member adds it, a missing `value` means `null`, negative array indexes count from
 * the end).
 */
import { ApiError, badRequest } from '../errors.ts';
import { clone, deepEqual, goJsonType, isObject, type JsonObject } from './json.ts';

type Container = JsonObject | unknown[];

/** A failed operation; becomes kube-apiserver's 422 with the library's message as the cause. */
class PatchFailure extends Error {}

const MISSING = 'missing value';
const INVALID_INDEX = 'invalid index referenced';

function decodeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** Go's strconv.Atoi, including its error text. */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new PatchFailure(`strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  return Number(text);
}

/** An index into an array of `length` items; v4 counts negative indexes from the end. */
function arrayIndex(key: string, length: number): number {
  const index = atoi(key);
  if (index >= length || index < -length) throw new PatchFailure(`Unable to access invalid index: ${index}: ${INVALID_INDEX}`);
  return index < 0 ? index + length : index;
}

function stringField(op: JsonObject, name: 'path' | 'from'): string {
  const value = op[name];
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) throw new PatchFailure(`operation missing ${name} field: ${MISSING}`);
  throw new PatchFailure(`json: cannot unmarshal ${goJsonType(value)} into Go value of type string`);
}

/** Reads a field, rewording a failure as the library does (`<what>: <cause>`, or a fixed cause). */
function field(op: JsonObject, name: 'path' | 'from', what: string, keepCause: boolean): string {
  try {
    return stringField(op, name);
  } catch (error) {
    throw new PatchFailure(`${what}: ${keepCause && error instanceof Error ? error.message : MISSING}`);
  }
}

/** The container holding the last token of `path`, and that token; `undefined` when a step is missing. */
function findObject(doc: unknown, path: string): { parent: Container; key: string } | undefined {
  const tokens = path.split('/');
  if (tokens.length < 2) return undefined;
  let current: unknown = doc;
  for (const token of tokens.slice(1, -1).map(decodeToken)) {
    let next: unknown;
    if (Array.isArray(current)) {
      try {
        next = current[arrayIndex(token, current.length)];
      } catch {
        return undefined;
      }
    } else if (isObject(current)) {
      next = current[token];
    }
    if (!Array.isArray(next) && !isObject(next)) return undefined;
    current = next;
  }
  return Array.isArray(current) || isObject(current) ? { parent: current, key: decodeToken(tokens.at(-1) ?? '') } : undefined;
}

function get(parent: Container, key: string): unknown {
  if (!Array.isArray(parent)) return parent[key];
  return parent[arrayIndex(key, parent.length)];
}

function add(parent: Container, key: string, value: unknown): void {
  if (!Array.isArray(parent)) {
    parent[key] = value;
    return;
  }
  if (key === '-') {
    parent.push(value);
    return;
  }
  try {
    atoi(key);
  } catch (error) {
    throw new PatchFailure(`value was not a proper array index: '${key}': ${(error as Error).message}`);
  }
  parent.splice(arrayIndex(key, parent.length + 1), 0, value);
}

function remove(parent: Container, key: string): void {
  if (!Array.isArray(parent)) {
    if (!(key in parent)) throw new PatchFailure(`Unable to remove nonexistent key: ${key}: ${MISSING}`);
    delete parent[key];
    return;
  }
  parent.splice(arrayIndex(key, parent.length), 1);
}

/** Runs `step`, prefixing any failure with `context` as errors.Wrapf does. */
function wrap<T>(context: string, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (error instanceof PatchFailure) throw new PatchFailure(`${context}: ${error.message}`);
    throw error;
  }
}

function locate(doc: unknown, path: string, message: string): { parent: Container; key: string } {
  const found = findObject(doc, path);
  if (!found) throw new PatchFailure(`${message}: ${MISSING}`);
  return found;
}

/** Applies one operation to `doc` (a private copy) and returns the document, which `replace ""` may swap. */
function applyOperation(doc: unknown, op: JsonObject): unknown {
  const kind = typeof op.op === 'string' ? op.op : 'unknown';
  const value = op.value === undefined ? null : op.value;
  switch (kind) {
    case 'add': {
      const path = field(op, 'path', 'add operation failed to decode path', false);
      const { parent, key } = locate(doc, path, `add operation does not apply: doc is missing path: "${path}"`);
      wrap(`error in add for path: '${path}'`, () => add(parent, key, clone(value)));
      return doc;
    }
    case 'remove': {
      const path = field(op, 'path', 'remove operation failed to decode path', false);
      const { parent, key } = locate(doc, path, `remove operation does not apply: doc is missing path: "${path}"`);
      wrap(`error in remove for path: '${path}'`, () => remove(parent, key));
      return doc;
    }
    case 'replace': {
      const path = field(op, 'path', 'replace operation failed to decode path', true);
      // v4 swaps the whole document for an object or array and silently ignores anything else.
      if (path === '') return Array.isArray(value) || isObject(value) ? clone(value) : doc;
      const { parent, key } = locate(doc, path, `replace operation does not apply: doc is missing path: ${path}`);
      if (!Array.isArray(parent)) {
        parent[key] = clone(value);
        return doc;
      }
      try {
        get(parent, key);
      } catch {
        throw new PatchFailure(`replace operation does not apply: doc is missing key: ${path}: ${MISSING}`);
      }
      parent[arrayIndex(key, parent.length)] = clone(value);
      return doc;
    }
    case 'move': {
      const from = field(op, 'from', 'move operation failed to decode from', true);
      const source = locate(doc, from, `move operation does not apply: doc is missing from path: ${from}`);
      const moved = wrap(`error in move for path: '${source.key}'`, () => get(source.parent, source.key));
      wrap(`error in move for path: '${source.key}'`, () => remove(source.parent, source.key));
      const path = field(op, 'path', 'move operation failed to decode path', true);
      const target = locate(doc, path, `move operation does not apply: doc is missing destination path: ${path}`);
      wrap(`error in move for path: '${path}'`, () => add(target.parent, target.key, moved));
      return doc;
    }
    case 'copy': {
      const from = field(op, 'from', 'copy operation failed to decode from', true);
      const source = locate(doc, from, `copy operation does not apply: doc is missing from path: ${from}`);
      const copied = wrap(`error in copy for from: '${from}'`, () => get(source.parent, source.key));
      const path = field(op, 'path', 'copy operation failed to decode path', false);
      const target = locate(doc, path, `copy operation does not apply: doc is missing destination path: ${path}`);
      wrap('error while adding value during copy', () => add(target.parent, target.key, clone(copied ?? null)));
      return doc;
    }
    case 'test': {
      const path = field(op, 'path', 'test operation failed to decode path', true);
      const failed = new PatchFailure(`testing value ${path} failed: test failed`);
      if (path === '') {
        if (!deepEqual(doc, value)) throw failed;
        return doc;
      }
      const { parent, key } = locate(doc, path, `test operation does not apply: is missing path: ${path}`);
      const actual = wrap(`error in test for path: '${path}'`, () => get(parent, key));
      if (!deepEqual(actual ?? null, value)) throw failed;
      return doc;
    }
    default:
      throw new PatchFailure(`Unexpected kind: ${kind}`);
  }
}

/**
 * Applies a decoded JSON patch document to `target` and returns the result; inputs are not
 * mutated and a failing patch changes nothing. A document that is not a list of operation
 * objects is a 400 BadRequest; a failing operation (including a failed `test`) is kube-apiserver's
 * 422 Invalid "the server rejected our request due to an error in our request", with the
 * library's message (`testing value /spec/replicas failed: test failed`) as the cause.
 */
export function applyJsonPatch(target: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw badRequest(`json: cannot unmarshal ${goJsonType(operations)} into Go value of type jsonpatch.Patch`);
  const invalid = operations.find((op) => !isObject(op));
  if (invalid !== undefined) throw badRequest(`json: cannot unmarshal ${goJsonType(invalid)} into Go value of type jsonpatch.Operation`);
  let doc = clone(target);
  try {
    for (const op of operations as JsonObject[]) doc = applyOperation(doc, op);
  } catch (error) {
    if (!(error instanceof PatchFailure)) throw error;
    throw new ApiError(422, 'Invalid', 'the server rejected our request due to an error in our request', { causes: [{ message: error.message }] });
  }
  return doc;
}
