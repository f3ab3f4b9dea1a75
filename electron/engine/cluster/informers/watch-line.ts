/**
 * What a watch reader needs of one event line without parsing it: the event's type, and its
 * object's `metadata.uid` and `metadata.resourceVersion`. Parsing a ~5 KB pod takes tens of
 * microseconds; at tens of thousands of events a second that alone is more than a core, and most
 * of those events are coalesced away before they are applied (coalesce.ts). So the reader only
 * scans each line for these three fields, the buffer keeps the line, and the line is parsed when
 * (and only if) it is applied.
 *
 * The scan follows JSON's grammar (strings with escapes, nested objects and arrays), so a `uid`
 * in an ownerReference, a label or an annotation is never mistaken for the object's own; it looks
 * only at the top level of the event, of `object` and of `object.metadata`, and stops as soon as
 * it has what it needs (kube-apiserver writes `type` first and `metadata` before `spec`). A line
 * it cannot read this way gets `undefined`, and the caller parses it whole.
 */

/** The head of one watch event line. */
export interface WatchLineHead {
  type: string;
  /** `object.metadata.uid`, when the object has one (a BOOKMARK or an ERROR has none). */
  uid?: string;
  /** `object.metadata.resourceVersion`, when present. */
  resourceVersion?: string;
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 13 || code === 9;
}

/** The index of the first non-space character from `i`. */
export function skipSpace(s: string, i: number): number {
  while (i < s.length && isSpace(s.charCodeAt(i))) i += 1;
  return i;
}

/** From an opening quote: the index after its closing quote, or -1. */
export function stringEnd(s: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const quote = s.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    for (let b = quote - 1; s.charCodeAt(b) === BACKSLASH; b -= 1) backslashes += 1;
    if (backslashes % 2 === 0) return quote + 1;
    from = quote + 1;
  }
}

/** The value of the string from `start` (its opening quote) to `end` (after its closing quote). */
export function stringValue(s: string, start: number, end: number): string {
  const raw = s.slice(start + 1, end - 1);
  return raw.includes('\\') ? (JSON.parse(s.slice(start, end)) as string) : raw;
}

/** From the first character of any value: the index after it, or -1. */
export function valueEnd(s: string, i: number): number {
  const first = s.charCodeAt(i);
  if (first === QUOTE) return stringEnd(s, i);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    // A number, true, false or null: up to the next delimiter.
    let j = i;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || isSpace(c)) break;
      j += 1;
    }
    return j > i ? j : -1;
  }
  let depth = 0;
  for (let j = i; j < s.length; j += 1) {
    const c = s.charCodeAt(j);
    if (c === QUOTE) {
      j = stringEnd(s, j) - 1;
      if (j < 0) return -1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth += 1;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}

/**
 * Walks the members of the object opening at `i` (its `{`). `visit` gets each key and the index
 * of its value; it returns the index after the value it consumed itself, -1 to let the walk skip
 * the value, or -2 to stop the walk. Returns false when the text is not a well-formed object.
 */
function members(s: string, i: number, visit: (key: string, at: number) => number): boolean {
  if (s.charCodeAt(i) !== OPEN_BRACE) return false;
  let at = skipSpace(s, i + 1);
  if (s.charCodeAt(at) === CLOSE_BRACE) return true;
  for (;;) {
    if (s.charCodeAt(at) !== QUOTE) return false;
    const keyEnd = stringEnd(s, at);
    if (keyEnd < 0) return false;
    const key = stringValue(s, at, keyEnd);
    at = skipSpace(s, keyEnd);
    if (s.charCodeAt(at) !== COLON) return false;
    at = skipSpace(s, at + 1);
    const visited = visit(key, at);
    if (visited === -2) return true;
    const end = visited >= 0 ? visited : valueEnd(s, at);
    if (end < 0) return false;
    at = skipSpace(s, end);
    const next = s.charCodeAt(at);
    if (next === CLOSE_BRACE) return true;
    if (next !== COMMA) return false;
    at = skipSpace(s, at + 1);
  }
}

/** A string member's value at `at`, or undefined when the value there is not a string. */
function stringAt(s: string, at: number): { value: string; end: number } | undefined {
  if (s.charCodeAt(at) !== QUOTE) return undefined;
  const end = stringEnd(s, at);
  return end < 0 ? undefined : { value: stringValue(s, at, end), end };
}

/** Reads `metadata.uid` and `metadata.resourceVersion` of the object opening at `i` into `head`. */
function readObject(s: string, i: number, head: WatchLineHead): boolean {
  let metadataOk = true;
  const ok = members(s, i, (key, at) => {
    if (key !== 'metadata') return -1;
    metadataOk = members(s, at, (field, valueAt) => {
      if (field !== 'uid' && field !== 'resourceVersion') return -1;
      const read = stringAt(s, valueAt);
      if (!read) return -1;
      head[field] = read.value;
      return head.uid !== undefined && head.resourceVersion !== undefined ? -2 : read.end;
    });
    // The object's metadata is all this reads: the rest of the object is left unscanned.
    return -2;
  });
  return ok && metadataOk;
}

/**
 * The type, uid and resourceVersion of one watch event line (`{"type":...,"object":{...}}`),
 * or undefined when the line is not an event object this scan can read (parse it instead).
 */
export function scanWatchLine(line: string): WatchLineHead | undefined {
  const head: WatchLineHead = { type: '' };
  let objectOk = true;
  let sawObject = false;
  const ok = members(line, skipSpace(line, 0), (key, at) => {
    if (key === 'type') {
      const read = stringAt(line, at);
      if (!read) return -1;
      head.type = read.value;
      return read.end;
    }
    if (key !== 'object') return -1;
    sawObject = true;
    objectOk = readObject(line, at, head);
    // Once the object's metadata is read, nothing after it matters (type comes first).
    return head.type !== '' ? -2 : -1;
  });
  if (!ok || !objectOk || !sawObject || head.type === '') return undefined;
  return head;
}
