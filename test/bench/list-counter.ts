/**
 * Counts, at the simulated API server, the requests that read a whole resource again: a list
 * (GET of the collection, `verb: list`; a paged list counts once, by its first page) or a WatchList watch
 * (`sendInitialEvents=true`). After an informer's first sync, each of them is a relist: what an
 * overloaded client does after a 410 or a broken watch, and what must never happen while it
 * keeps up (overload.ts: `overload_relists`, goal 0). An ordinary watch that resumes from a
 * resourceVersion is not a relist and is not counted.
 *
 * The server's request path calls `AccessControl.authorize` once per request, before anything
 * else, with the full URL (query included) and answers with the request's attributes (verb,
 * group, resource), which the fault switches' path-only matchers do not see. The counter wraps
 * that one method of the bench's own server instance, observing and changing nothing.
 */
import type { AccessControl } from '../../electron/engine/simcluster/rbac/access-control.ts';

/** Relists named on stderr per count. */
const LOGGED_RELISTS = 5;

export class ListCounter {
  private resource: string | undefined;
  private lists = 0;

  constructor(access: AccessControl) {
    const authorize = access.authorize.bind(access);
    access.authorize = (user, method, url) => {
      const attributes = authorize(user, method, url);
      if (this.resource !== undefined && attributes.resourceRequest && attributes.apiGroup === '' && attributes.resource === this.resource && !attributes.subresource && !attributes.name) {
        // A paged list is one relist: its later pages (with a continue token) are not counted.
        // Nor is a list of one object (`limit=1`, no continue): the engine's probe of the server's
        // newest resourceVersion while a watch is busy (server-progress.ts), not a read of all.
        const probe = url.searchParams.get('limit') === '1' && !url.searchParams.get('continue');
        const relist = (attributes.verb === 'list' && !url.searchParams.get('continue') && !probe) || (attributes.verb === 'watch' && url.searchParams.get('sendInitialEvents') === 'true');
        if (relist) {
          this.lists += 1;
          // The first few are named on stderr, so a run says which requests they were.
          if (this.lists <= LOGGED_RELISTS) console.error(`[bench] relist of ${this.resource} at the simulator: ${method} ${url.pathname}${url.search}`);
        }
      }
      return attributes;
    };
  }

  /** Counts from zero, from now on, the requests that read all of `resource` (core group plural). */
  count(resource: string): void {
    this.resource = resource;
    this.lists = 0;
  }

  /** What was counted; counting stops here (a later scenario's first lists are not relists). */
  counted(): number {
    this.resource = undefined;
    return this.lists;
  }
}
