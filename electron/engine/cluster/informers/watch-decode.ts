/**
 * Decoding the objects of watch events: each is one object's JSON (the `object` of its event
 * line), parsed and slimmed as a list page's items are (list-decode.ts), in the list worker for
 * a batch, on the engine's thread for a change applied as it arrives.
 *
 * Before the parse, the object's `metadata.managedFields` is cut out of its text. The slim object
 * never keeps it (slim.ts), yet it is a fifth to a third of a pod's JSON and the costliest part to
 * parse: hundreds of one-off keys (`f:metadata`, `f:labels`, `k:{"type":"Ready"}`, ...). The walk
 * to it costs most of what it saves on a string: on the simulator's pods (managedFields ~880 of
 * ~4,000 bytes) a parse took 24.6 µs, the cut and the shorter parse 22.9 (medians of 7
 * interleaved rounds, 2026-11-28; real pods with larger managedFields were not measured). The
 * cut is found by walking the JSON's grammar (watch-line.ts), never by searching for the key's
 * text, so a label or an annotation called `managedFields` is left alone; text the walk cannot
 * read is parsed whole. A list page is cut as bytes before it is decoded (list-managed-fields.ts):
 * there the search is cheaper than the walk, but safe for pods only.
 */
import type { DecodedPage, PageText } from './list-decode.ts';
import { decodeItems, itemsText } from './list-decode.ts';
import type { ObjectSource } from './slim.ts';
import { skipSpace, stringEnd, stringValue, valueEnd } from './watch-line.ts';

const QUOTE = 34;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const COMMA = 44;
const COLON = 58;

/** Where a member of an object is: its key's first quote, its value's first character, and the end of the member before it (-1: it is the first). */
interface Member {
  keyAt: number;
  valueAt: number;
  previousEnd: number;
}

/**
 * The member `wanted` of the object opening at `open`: null when it has none, undefined when
 * the text is not an object this walk can read. Members before it are skipped by the grammar.
 */
function findMember(s: string, open: number, wanted: string): Member | null | undefined {
  if (s.charCodeAt(open) !== OPEN_BRACE) return undefined;
  let at = skipSpace(s, open + 1);
  if (s.charCodeAt(at) === CLOSE_BRACE) return null;
  let previousEnd = -1;
  for (;;) {
    if (s.charCodeAt(at) !== QUOTE) return undefined;
    const keyAt = at;
    const keyEnd = stringEnd(s, at);
    if (keyEnd < 0) return undefined;
    at = skipSpace(s, keyEnd);
    if (s.charCodeAt(at) !== COLON) return undefined;
    const valueAt = skipSpace(s, at + 1);
    if (stringValue(s, keyAt, keyEnd) === wanted) return { keyAt, valueAt, previousEnd };
    const end = valueEnd(s, valueAt);
    if (end < 0) return undefined;
    previousEnd = end;
    at = skipSpace(s, end);
    const next = s.charCodeAt(at);
    if (next === CLOSE_BRACE) return null;
    if (next !== COMMA) return undefined;
    at = skipSpace(s, at + 1);
  }
}

/**
 * An object's JSON without its `metadata.managedFields` member (the rest byte for byte), or the
 * text as it is when it has none or the walk cannot read it.
 */
export function withoutManagedFields(text: string): string {
  const metadata = findMember(text, skipSpace(text, 0), 'metadata');
  if (!metadata) return text;
  const fields = findMember(text, metadata.valueAt, 'managedFields');
  if (!fields) return text;
  const end = valueEnd(text, fields.valueAt);
  if (end < 0) return text;
  // From the end of the member before (its comma with it), or, for the first, through the comma after.
  if (fields.previousEnd >= 0) return text.slice(0, fields.previousEnd) + text.slice(end);
  let after = skipSpace(text, end);
  if (text.charCodeAt(after) === COMMA) after = skipSpace(text, after + 1);
  return text.slice(0, fields.keyAt) + text.slice(after);
}

/** One watch event's object, parsed from its JSON (without its managedFields). */
export function parseEventObject(text: string): unknown {
  return JSON.parse(withoutManagedFields(text)) as unknown;
}

/** The worker's half for watch events: their objects' JSON to slim objects' JSON, as `pageText` for a list. */
export function eventObjectsText(objects: readonly string[], source: ObjectSource): PageText {
  return itemsText(objects.map(parseEventObject), source);
}

/** Both halves on the calling thread (a small batch, or no worker), as `decodeInline` for a list. */
export function decodeEventObjects(objects: readonly string[], source: ObjectSource): DecodedPage {
  return decodeItems(objects.map(parseEventObject), source);
}
