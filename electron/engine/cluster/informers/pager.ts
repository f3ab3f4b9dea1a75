/**
 * A paged LIST read a few pages ahead. client-go's pager asks for page N+1 after it has parsed
 * page N, so the server idles while the client parses and the client idles while the server
 * serialises. Here page N+1 is asked for as soon as page N's continue token is known, which is
 * early: the token is in the list's metadata, written before the items (see `getList`), and
 * page N+2 as soon as page N+1's head names it, up to `readAhead` pages beyond the one the
 * reader waits for. The server then produces the next pages while this process still reads and
 * parses the current one; on a busy machine one page ahead was not enough: the server waited
 * for the reader's turn while a core idled (first sync of 50,000 pods at ~1.75 of 2 cores busy;
 * ~1.9 with three pages ahead, −280 ms median). The pages waiting are bounded (about 1 MB each
 * at 250 pods). If a whole page ends up carrying another token than its head did (it never
 * should), the pages asked for early are dropped and the right one asked for; nothing is ever
 * read from a page that was not asked for with the token the previous page ended with. A page
 * is decoded as soon as its body is in, so decoding one page overlaps with reading the next.
 */
import { getListBody, type ListMeta, type Transport } from './http.ts';
import type { DecodedPage } from './list-decode.ts';

/** One page of a list, as the reflector reads it. */
export type ListPage = DecodedPage;

/** How many pages are asked for ahead of the one the reader waits for, by default. */
export const READ_AHEAD_PAGES = 3;

/** What a pager needs: where to list and how to ask. */
export interface PagerOptions {
  transport: Transport;
  /** The collection path, without a query. */
  path: string;
  /** Aborts every request of the pager. */
  signal: AbortSignal;
  /** Every chunk of every page (the watchdog's sign of life). */
  onData: () => void;
  /** Turns a page's body into its slim objects (see list-decoder.ts). */
  decode: (body: Buffer) => Promise<ListPage>;
  /** Pages asked for ahead of the one read (READ_AHEAD_PAGES by default). */
  readAhead?: number;
  /** The Accept header (metadata-only kinds ask for a PartialObjectMetadataList); JSON by default. */
  accept?: string;
}

interface PageRequest {
  /** The continue token asked with; '' for the first page. */
  token: string;
  page: Promise<ListPage>;
  /** The page's metadata from its head: undefined until known, null when it had none early. */
  head: ListMeta | null | undefined;
  abort(): void;
}

/** Reads a list page by page; `first` starts over, `next` continues where the last page ended. */
export class Pager {
  private readonly o: PagerOptions;
  private readonly depth: number;
  /** The page the reader waits for (or reads). */
  private current: PageRequest | undefined;
  /** The pages after it, asked for early, in order. */
  private ahead: PageRequest[] = [];
  /** The page size of the list being read; undefined for an unpaged list (nothing read ahead). */
  private limit: number | undefined;

  constructor(options: PagerOptions) {
    this.o = options;
    this.depth = Math.max(0, options.readAhead ?? READ_AHEAD_PAGES);
  }

  /** The first page: `limit` items, or the whole list when `limit` is undefined. */
  first(limit: number | undefined): Promise<ListPage> {
    this.cancel();
    this.limit = limit;
    return this.follow(this.request('', limit));
  }

  /** The page after the one that ended with `token`; already on its way when its head said so. */
  next(token: string, limit: number | undefined): Promise<ListPage> {
    if (limit !== this.limit) this.cancel();
    this.limit = limit;
    const early = this.ahead.shift();
    if (early?.token === token) return this.follow(early);
    early?.abort();
    this.cancel();
    return this.follow(this.request(token, limit));
  }

  /** Drops the pages read ahead, if any (the list failed or starts over). */
  cancel(): void {
    for (const request of this.ahead) request.abort();
    this.ahead = [];
  }

  /** Makes `request` the current page and asks for the ones after it as their heads come in. */
  private follow(request: PageRequest): Promise<ListPage> {
    this.current = request;
    this.extend();
    return request.page;
  }

  /** Asks for the page after the last one asked for while fewer than `depth` are ahead and its token is known. */
  private extend(): void {
    while (this.limit !== undefined && this.ahead.length < this.depth && !this.o.signal.aborted) {
      const last = this.ahead.at(-1) ?? this.current;
      const token = last?.head?.continue;
      if (!token) return;
      this.ahead.push(this.request(token, this.limit));
    }
  }

  private request(token: string, limit: number | undefined): PageRequest {
    const controller = new AbortController();
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (token) query.set('continue', token);
    const signal = AbortSignal.any([this.o.signal, controller.signal]);
    const request: Omit<PageRequest, 'page'> = { token, head: undefined, abort: () => controller.abort() };
    // Called once, and lets go of the pager then: the response it is handed to may outlive the
    // list, and must not keep the pager's pages (~1 MB of a last pod page's JSON). No closure
    // made here names `this`, which would keep the pager in every closure's shared context.
    let pending: { request: Omit<PageRequest, 'page'>; pager: Pager } | undefined = { request, pager: this };
    const onHead = (metadata: ListMeta | undefined): void => {
      if (!pending) return;
      const { pager } = pending;
      pending.request.head = metadata ?? null;
      // The last page asked for names its successor: ask for it if there is room ahead.
      if (pending.request === (pager.ahead.at(-1) ?? pager.current)) pager.extend();
      pending = undefined;
    };
    const { decode } = this.o;
    const page = getListBody(this.o.transport, `${this.o.path}?${query}`, { signal, onData: this.o.onData, onHead, ...(this.o.accept ? { accept: this.o.accept } : {}) }).then((body) => {
      signal.throwIfAborted();
      return decode(body);
    });
    // A page read ahead in vain is never awaited: its failure is nobody's.
    page.catch(() => undefined);
    return Object.assign(request, { page });
  }
}
