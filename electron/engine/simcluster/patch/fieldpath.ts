/**
 * Field sets as structured-merge-diff keeps them for server-side apply: a tree of path
 * elements, written in the FieldsV1 syntax of `metadata.managedFields` (`f:name`, `k:{"name":"c"}`,
 * `v:"value"`, `i:0`, and `.` when a node is owned itself as well as through its children).
 *
 * A path element is kept as its FieldsV1 token string, which is already canonical (key fields
 * sorted by name), so tokens double as map keys.
 */
import { isObject } from './json.ts';

/** A path: one token per element, e.g. `['f:spec', 'f:containers', 'k:{"name":"c"}', 'f:image']`. */
export type FieldPath = readonly string[];

export function fieldToken(name: string): string {
  return `f:${name}`;
}

/** `k:{...}` with the key fields sorted by name, as structured-merge-diff serialises them. */
export function keyToken(fields: ReadonlyArray<readonly [string, unknown]>): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `k:{${sorted.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`).join(',')}}`;
}

export function valueToken(value: unknown): string {
  return `v:${JSON.stringify(value)}`;
}

const TOKEN_KIND_ORDER: Record<string, number> = { f: 0, k: 1, v: 2, i: 3 };

/** structured-merge-diff's total order of values: numbers < strings < booleans < lists < maps < null. */
function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown): number =>
    typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : Array.isArray(v) ? 3 : isObject(v) ? 4 : 5;
  const [ra, rb] = [rank(a), rank(b)];
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;
}

function compareKeys(a: JsonFields, b: JsonFields): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const [left, right] = [a[i], b[i]];
    if (!left) return -1;
    if (!right) return 1;
    if (left[0] !== right[0]) return left[0] < right[0] ? -1 : 1;
    const byValue = compareValues(left[1], right[1]);
    if (byValue !== 0) return byValue;
  }
  return 0;
}

type JsonFields = Array<[string, unknown]>;

function keyFields(token: string): JsonFields {
  const parsed: unknown = JSON.parse(token.slice(2));
  return isObject(parsed) ? Object.entries(parsed) : [];
}

/** The order structured-merge-diff sorts path elements in: fields, then keys, values, indexes. */
export function compareTokens(a: string, b: string): number {
  const [ka, kb] = [TOKEN_KIND_ORDER[a[0] ?? ''] ?? 4, TOKEN_KIND_ORDER[b[0] ?? ''] ?? 4];
  if (ka !== kb) return ka - kb;
  switch (a[0]) {
    case 'k':
      return compareKeys(keyFields(a), keyFields(b));
    case 'v':
      return compareValues(JSON.parse(a.slice(2)), JSON.parse(b.slice(2)));
    case 'i':
      return Number(a.slice(2)) - Number(b.slice(2));
    default:
      return a < b ? -1 : a > b ? 1 : 0;
  }
}

/** A value as structured-merge-diff prints it in paths: strings quoted, the rest bare. */
function printValue(value: unknown): string {
  return typeof value === 'string' || isObject(value) || Array.isArray(value) ? JSON.stringify(value) : String(value);
}

/** The path as kube-apiserver prints it in conflicts: `.spec.containers[name="c"].image`. */
export function pathToString(path: FieldPath): string {
  return path
    .map((token) => {
      switch (token[0]) {
        case 'f':
          return `.${token.slice(2)}`;
        case 'k':
          return `[${keyFields(token)
            .map(([name, value]) => `${name}=${printValue(value)}`)
            .join(',')}]`;
        case 'v':
          return `[=${printValue(JSON.parse(token.slice(2)))}]`;
        default:
          return `[${token.slice(2)}]`;
      }
    })
    .join('');
}

/** A set of field paths. Operations return new sets; a set never holds empty children. */
export class FieldSet {
  readonly members = new Set<string>();
  readonly children = new Map<string, FieldSet>();

  static fromPaths(paths: Iterable<FieldPath>): FieldSet {
    const set = new FieldSet();
    for (const path of paths) set.insert(path);
    return set;
  }

  /** Parses a `fieldsV1` object; anything that is not an object yields an empty set. */
  static fromFieldsV1(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (!isObject(fields)) return set;
    for (const [token, value] of Object.entries(fields)) {
      if (token === '.') continue;
      const child = FieldSet.fromFieldsV1(value);
      if (!isObject(value) || Object.keys(value).length === 0 || '.' in value) set.members.add(token);
      if (!child.isEmpty()) set.children.set(token, child);
    }
    return set;
  }

  insert(path: FieldPath): void {
    const [head, ...rest] = path;
    if (head === undefined) return;
    if (rest.length === 0) {
      this.members.add(head);
      return;
    }
    let child = this.children.get(head);
    if (!child) {
      child = new FieldSet();
      this.children.set(head, child);
    }
    child.insert(rest);
  }

  has(path: FieldPath): boolean {
    const [head, ...rest] = path;
    if (head === undefined) return false;
    return rest.length === 0 ? this.members.has(head) : (this.children.get(head)?.has(rest) ?? false);
  }

  isEmpty(): boolean {
    return this.members.size === 0 && this.children.size === 0;
  }

  union(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const token of [...this.members, ...other.members]) out.members.add(token);
    for (const token of new Set([...this.children.keys(), ...other.children.keys()])) {
      const [mine, theirs] = [this.children.get(token), other.children.get(token)];
      const merged = mine && theirs ? mine.union(theirs) : (mine ?? theirs)?.copy();
      if (merged) out.setChild(token, merged);
    }
    return out;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const token of this.members) if (other.members.has(token)) out.members.add(token);
    for (const [token, mine] of this.children) {
      const theirs = other.children.get(token);
      if (theirs) out.setChild(token, mine.intersection(theirs));
    }
    return out;
  }

  /** Members of this set that are not members of `other`; children are compared member by member. */
  difference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const token of this.members) if (!other.members.has(token)) out.members.add(token);
    for (const [token, mine] of this.children) {
      const theirs = other.children.get(token);
      out.setChild(token, theirs ? mine.difference(theirs) : mine.copy());
    }
    return out;
  }

  /** Like {@link difference}, but a member of `other` also removes everything below it. */
  recursiveDifference(other: FieldSet): FieldSet {
    const out = new FieldSet();
    for (const token of this.members) if (!other.members.has(token)) out.members.add(token);
    for (const [token, mine] of this.children) {
      if (other.members.has(token)) continue;
      const theirs = other.children.get(token);
      out.setChild(token, theirs ? mine.recursiveDifference(theirs) : mine.copy());
    }
    return out;
  }

  /** Every member path, in structured-merge-diff's iteration order (members, then children). */
  paths(prefix: FieldPath = []): FieldPath[] {
    const out: FieldPath[] = [...this.members].sort(compareTokens).map((token) => [...prefix, token]);
    for (const token of [...this.children.keys()].sort(compareTokens)) {
      out.push(...(this.children.get(token)?.paths([...prefix, token]) ?? []));
    }
    return out;
  }

  /** The FieldsV1 object: tokens in sorted order, `.` first where a node is a member with children. */
  toFieldsV1(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const tokens = [...new Set([...this.members, ...this.children.keys()])].sort(compareTokens);
    for (const token of tokens) {
      const child = this.children.get(token);
      out[token] = child ? { ...(this.members.has(token) ? { '.': {} } : {}), ...child.toFieldsV1() } : {};
    }
    return out;
  }

  copy(): FieldSet {
    const out = new FieldSet();
    for (const token of this.members) out.members.add(token);
    for (const [token, child] of this.children) out.children.set(token, child.copy());
    return out;
  }

  private setChild(token: string, child: FieldSet): void {
    if (!child.isEmpty()) this.children.set(token, child);
  }
}
