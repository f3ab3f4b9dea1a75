/**
 * A pod list page's text without its pods' `metadata.managedFields`, cut from the body's bytes
 * before they are decoded and parsed. The slim pod never keeps them (slim.ts), yet they are a
 * fifth to a third of a pod's JSON and the costliest part to parse: hundreds of one-off keys
 * (`f:metadata`, `k:{"type":"Ready"}`). Cut as bytes, they are neither decoded to a string nor
 * parsed: the list worker's work on a page (decode, parse, slim, stringify) took 0.83-0.90 of
 * its time on the simulator's pods, thread CPU. Cut from the decoded string instead, the walk
 * cost what the parse saved (0.98-0.99). The page's slim objects are the same (list-decode.ts).
 *
 * The member is found by its bytes, `"managedFields":[`, and taken to be one only where its quote
 * follows `{` or `,` directly. In valid JSON such a quote is never inside a string (a string's own
 * quotes are escaped) and never closes one (a closing quote is followed by `:`, `,`, `}`, `]` or
 * space), so it opens a key: a `managedFields` member whose value is an array. In a Pod that can
 * only be its metadata's (no other part of the Pod schema has such a field, and labels' and
 * annotations' values are strings), which is why only pod pages are cut (`cutsManagedFields`);
 * a custom resource may have a field of that name anywhere. The array's end is found by walking
 * its brackets and strings (the bytes of a several-byte UTF-8 character are never a quote, a
 * bracket or a backslash, and every cut is next to a quote or a comma, so no character is split).
 * Text laid out otherwise (spaces around the colon, a pretty-printed list) is left whole and
 * parsed as it is: slower, the same objects.
 *
 * A watch event's object is cut by watch-decode.ts instead: it is already a string by then (the
 * line was read as text), and there the grammar walk finds only `metadata.managedFields`, so it
 * is safe for every kind, not pods alone.
 */
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { ObjectSource } from './slim.ts';

const KEY = Buffer.from('"managedFields":[');
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/** Whether a page of `source`'s objects is cut before its parse: pods read whole. */
export function cutsManagedFields(source: ObjectSource): boolean {
  return source.kind === BUILTIN_KEYS.Pod && !source.metadataOnly;
}

/** The index past the array opening at `open`, or -1 when it does not end. */
function arrayEnd(bytes: Uint8Array, open: number): number {
  const length = bytes.length;
  let depth = 0;
  for (let at = open; at < length; at += 1) {
    const code = bytes[at];
    if (code === QUOTE) {
      for (at += 1; at < length; at += 1) {
        const inString = bytes[at];
        if (inString === BACKSLASH) at += 1;
        else if (inString === QUOTE) break;
      }
    } else if (code === OPEN_BRACKET || code === OPEN_BRACE) depth += 1;
    else if (code === CLOSE_BRACKET || code === CLOSE_BRACE) {
      depth -= 1;
      if (depth === 0) return at + 1;
    }
  }
  return -1;
}

/**
 * `body` decoded without any `managedFields` member whose value is an array (see above for why
 * each one found is a member); decoded whole when it has none or an array does not end.
 */
export function textWithoutManagedFields(body: Buffer): string {
  let at = body.indexOf(KEY);
  if (at < 0) return body.toString('utf8');
  const kept: string[] = [];
  let from = 0;
  while (at >= 0) {
    const before = body[at - 1];
    if (before !== COMMA && before !== OPEN_BRACE) {
      at = body.indexOf(KEY, at + 1);
      continue;
    }
    const end = arrayEnd(body, at + KEY.length - 1);
    if (end < 0) return body.toString('utf8');
    if (before === COMMA) {
      // `,"managedFields":[...]`: the comma before it goes with it.
      kept.push(body.toString('utf8', from, at - 1));
      from = end;
    } else {
      // The object's first member: the comma after it goes with it.
      kept.push(body.toString('utf8', from, at));
      from = body[end] === COMMA ? end + 1 : end;
    }
    at = body.indexOf(KEY, from);
  }
  kept.push(body.toString('utf8', from));
  return kept.join('');
}

/** A list page's body as the text to parse: a pod page's without its managedFields, any other whole. */
export function pageBodyText(body: Buffer, source: ObjectSource): string {
  return cutsManagedFields(source) ? textWithoutManagedFields(body) : body.toString('utf8');
}
