/**
 * Decoding a list page: its JSON parsed, every item slimmed. At 50,000 pods that is 200 MB of
 * JSON, most of it (managedFields, env, volumes, ...) parsed only to be dropped, and it is the
 * largest piece of work of a first sync. `pageText` is the part that runs in the list worker
 * (list-worker.ts): it hands back the slim objects as one JSON array and where each ends, so the
 * engine's thread parses 40 % of the bytes into compact objects and gets each object's JSON,
 * which the history recorder stores instead of serialising the object again. For a kind the
 * renderer receives in a form of its own (stream/view.ts: pods), the worker makes that form's JSON
 * too, for the frame stream. `decodeInline` is the same work on the calling thread, for small
 * pages and for when no worker can run.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { ListMeta } from './http.ts';
import { hasView, viewObject } from '../../stream/view.ts';
import { slimObject, type ObjectSource } from './slim.ts';

/** A decoded page: its metadata, its slim objects and, when known, each object's JSON. */
export interface DecodedPage {
  metadata?: ListMeta;
  objects: SlimObject[];
  /** `json[i]` is `JSON.stringify(objects[i])`, or undefined when it was not made. */
  json: ReadonlyArray<string | undefined>;
  /** `viewJson[i]` is `JSON.stringify(viewObject(objects[i], kind))` when made (kinds with a view). */
  viewJson?: readonly string[];
}

/** JSON texts as one JSON array and where each ends (exclusive; each starts one past the previous end). */
export interface JoinedJson {
  text: string;
  ends: number[];
}

/** What the worker sends back for one page: the slim objects, and their views for kinds that have one. */
export interface PageText extends JoinedJson {
  metadata?: ListMeta;
  views?: JoinedJson;
}

/** Whether a page's objects get their renderer's form too (kinds with a view, unless no renderer reads them). */
const wantsView = (source: ObjectSource): boolean => hasView(source.kind) && source.noView !== true;

interface RawList {
  metadata?: ListMeta;
  items?: unknown[];
}

function parseList(body: string): RawList {
  const list = JSON.parse(body) as unknown;
  if (typeof list !== 'object' || list === null || Array.isArray(list)) throw new Error('the list answer is not a JSON object');
  return list as RawList;
}

function join(texts: readonly string[]): JoinedJson {
  const ends: number[] = [];
  let at = 1;
  for (const text of texts) {
    at += text.length;
    ends.push(at);
    at += 1;
  }
  return { text: `[${texts.join(',')}]`, ends };
}

/** Each text of a joined array (slices, not copies). */
function split(joined: JoinedJson): string[] {
  const texts: string[] = [];
  let start = 1;
  for (const end of joined.ends) {
    texts.push(joined.text.slice(start, end));
    start = end + 1;
  }
  return texts;
}

/** The worker's half: a page's body to its slim objects' JSON (and their views'). */
export function pageText(body: string, source: ObjectSource): PageText {
  const list = parseList(body);
  return itemsText(list.items ?? [], source, list.metadata);
}

/** `pageText` of items already parsed (watch events' objects, watch-decode.ts). */
export function itemsText(items: readonly unknown[], source: ObjectSource, metadata?: ListMeta): PageText {
  const objects = items.map((raw) => slimObject(raw, source));
  const page: PageText = { ...(metadata ? { metadata } : {}), ...join(objects.map((object) => JSON.stringify(object))) };
  if (wantsView(source)) page.views = join(objects.map((object) => JSON.stringify(viewObject(object, source.kind))));
  return page;
}

/** The engine's half: the worker's answer to objects, each with its JSON. */
export function fromPageText(page: PageText): DecodedPage {
  const objects = JSON.parse(page.text) as SlimObject[];
  const views = page.views?.ends.length ?? objects.length;
  if (objects.length !== page.ends.length || views !== objects.length) {
    throw new Error(`the list worker sent ${objects.length} objects, ${page.ends.length} offsets and ${views} views`);
  }
  return { ...(page.metadata ? { metadata: page.metadata } : {}), objects, json: split(page), ...(page.views ? { viewJson: split(page.views) } : {}) };
}

/**
 * Both halves on the calling thread, without the round trip through text. Each object's JSON
 * (and its view's) is made here too: the history recorder and the frame stream would each make
 * it otherwise.
 */
export function decodeInline(body: string, source: ObjectSource): DecodedPage {
  const list = parseList(body);
  return decodeItems(list.items ?? [], source, list.metadata);
}

/** `decodeInline` of items already parsed (watch events' objects, watch-decode.ts). */
export function decodeItems(items: readonly unknown[], source: ObjectSource, metadata?: ListMeta): DecodedPage {
  const objects = items.map((raw) => slimObject(raw, source));
  const json = objects.map((object) => JSON.stringify(object));
  const views = wantsView(source) ? { viewJson: objects.map((object) => JSON.stringify(viewObject(object, source.kind))) } : {};
  return { ...(metadata ? { metadata } : {}), objects, json, ...views };
}
