/**
 * Decoding a list page: its JSON parsed, every item slimmed. At 50,000 pods that is 200 MB of
 * JSON, most of it (managedFields, env, volumes, ...) parsed only to be dropped, and it is the
 * largest piece of work of a first sync. `pageText` is the part that runs in the list worker
 * (list-worker.ts): it hands back the slim objects as one JSON array and where each ends, so the
 * engine's thread parses 40 % of the bytes into compact objects and gets each object's JSON,
 * which the frame stream sends instead of serialising the object again. `decodeInline` is the
 * same work on the calling thread, for small pages and for when no worker can run.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { ListMeta } from './http.ts';
import { slimObject, type ObjectSource } from './slim.ts';

/** A decoded page: its metadata, its slim objects and, when known, each object's JSON. */
export interface DecodedPage {
  metadata?: ListMeta;
  objects: SlimObject[];
  /** `json[i]` is `JSON.stringify(objects[i])`, or undefined when it was not made. */
  json: ReadonlyArray<string | undefined>;
}

/** What the worker sends back for one page. */
export interface PageText {
  metadata?: ListMeta;
  /** The slim objects as one JSON array. */
  text: string;
  /** Where each object's JSON ends in `text` (exclusive); each starts one past the previous end. */
  ends: number[];
}

interface RawList {
  metadata?: ListMeta;
  items?: unknown[];
}

function parseList(body: string): RawList {
  const list = JSON.parse(body) as unknown;
  if (typeof list !== 'object' || list === null || Array.isArray(list)) throw new Error('the list answer is not a JSON object');
  return list as RawList;
}

/** The worker's half: a page's body to its slim objects' JSON. */
export function pageText(body: string, source: ObjectSource): PageText {
  const list = parseList(body);
  const texts = (list.items ?? []).map((raw) => JSON.stringify(slimObject(raw, source)));
  const ends: number[] = [];
  let at = 1;
  for (const text of texts) {
    at += text.length;
    ends.push(at);
    at += 1;
  }
  return { ...(list.metadata ? { metadata: list.metadata } : {}), text: `[${texts.join(',')}]`, ends };
}

/** The engine's half: the worker's answer to objects, each with its JSON (slices, not copies). */
export function fromPageText(page: PageText): DecodedPage {
  const objects = JSON.parse(page.text) as SlimObject[];
  if (objects.length !== page.ends.length) throw new Error(`the list worker sent ${objects.length} objects and ${page.ends.length} offsets`);
  const json: string[] = [];
  let start = 1;
  for (const end of page.ends) {
    json.push(page.text.slice(start, end));
    start = end + 1;
  }
  return { ...(page.metadata ? { metadata: page.metadata } : {}), objects, json };
}

/**
 * Both halves on the calling thread, without the round trip through text. Each object's JSON is
 * made here too: the frame stream and the history recorder would each make it otherwise.
 */
export function decodeInline(body: string, source: ObjectSource): DecodedPage {
  const list = parseList(body);
  const objects = (list.items ?? []).map((raw) => slimObject(raw, source));
  return { ...(list.metadata ? { metadata: list.metadata } : {}), objects, json: objects.map((object) => JSON.stringify(object)) };
}
