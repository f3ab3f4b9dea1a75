/**
 * A paged LIST read one page ahead. client-go's pager asks for page N+1 after it has parsed
 * page N, so the server idles while the client parses and the client idles while the server
 * serialises. Here page N+1 is asked for as soon as page N's continue token is known, which is
 * early: the token is in the list's metadata, written before the items (see `getList`). The
 * server then produces the next page while this process still reads and parses the current
 * one. If the whole page ends up carrying another token than its head did (it never should),
 * the early request is dropped and the right one made; nothing is ever read from a page that
 * was not asked for with the token the previous page ended with. A page is decoded as soon as
 * its body is in, so decoding one page overlaps with reading the next.
 */
import { getListBody, type ListMeta, type Transport } from './http.ts';
import type { DecodedPage } from './list-decode.ts';

/** One page of a list, as the reflector reads it. */
export type ListPage = DecodedPage;

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
}

interface PageRequest {
  /** The continue token asked with; '' for the first page. */
  token: string;
  page: Promise<ListPage>;
  /** The page's metadata from its head, or undefined when it had none early. */
  head: Promise<ListMeta | undefined>;
  abort(): void;
}

/** Reads a list page by page; `first` starts over, `next` continues where the last page ended. */
export class Pager {
  private readonly o: PagerOptions;
  /** The page the reader waits for (or reads). */
  private current: PageRequest | undefined;
  /** The page after it, asked for early. */
  private ahead: PageRequest | undefined;

  constructor(options: PagerOptions) {
    this.o = options;
  }

  /** The first page: `limit` items, or the whole list when `limit` is undefined. */
  first(limit: number | undefined): Promise<ListPage> {
    this.cancel();
    return this.follow(this.request('', limit), limit);
  }

  /** The page after the one that ended with `token`; already on its way when its head said so. */
  next(token: string, limit: number | undefined): Promise<ListPage> {
    const early = this.ahead;
    this.ahead = undefined;
    if (early?.token === token) return this.follow(early, limit);
    early?.abort();
    return this.follow(this.request(token, limit), limit);
  }

  /** Drops the page read ahead, if any (the list failed or starts over). */
  cancel(): void {
    this.ahead?.abort();
    this.ahead = undefined;
  }

  /** Makes `request` the current page and asks for the one after it once its head is in. */
  private follow(request: PageRequest, limit: number | undefined): Promise<ListPage> {
    this.current = request;
    if (limit !== undefined) {
      void request.head.then((metadata) => {
        if (this.current !== request || this.ahead || !metadata?.continue || this.o.signal.aborted) return;
        this.ahead = this.request(metadata.continue, limit);
      });
    }
    return request.page;
  }

  private request(token: string, limit: number | undefined): PageRequest {
    const controller = new AbortController();
    const query = new URLSearchParams();
    if (limit !== undefined) query.set('limit', String(limit));
    if (token) query.set('continue', token);
    let onHead: (metadata: ListMeta | undefined) => void = () => undefined;
    const head = new Promise<ListMeta | undefined>((resolve) => (onHead = resolve));
    const signal = AbortSignal.any([this.o.signal, controller.signal]);
    const page = getListBody(this.o.transport, `${this.o.path}?${query}`, { signal, onData: this.o.onData, onHead }).then((body) => {
      signal.throwIfAborted();
      return this.o.decode(body);
    });
    // A page read ahead in vain is never awaited: its failure is nobody's.
    page.catch(() => undefined);
    return { token, page, head, abort: () => controller.abort() };
  }
}
