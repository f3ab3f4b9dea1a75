/**
 * A reflector's intake of watch events: what happens to each line between the socket and the
 * cache. A line is scanned, not parsed (watch-line.ts): its resourceVersion is where a new watch
 * resumes, a bookmark only moves that, an ERROR fails the watch, and a change of an object waits
 * in the coalescing buffer (coalesce.ts) as its raw line, one per uid, to be parsed and applied
 * between reads. So reading keeps pace with the socket whatever the cache's listeners cost, a
 * pod that changed ten times while waiting is parsed once, and what waits is bounded by the
 * number of objects, not of events.
 *
 * The lag is how long the oldest change not applied yet has existed: since it was read off the
 * socket, or, where the server's progress is known (server-progress.ts), since the server had
 * reached its resourceVersion - so a backlog waiting before the socket (the server's buffer,
 * HTTP/2 flow control, the kernel) counts too. A change applied as it is read counts as well,
 * by its age when read. Past BEHIND_AFTER_MS it is published as the kind's `lagMs` ("behind by
 * N s, catching up" in the status bar) until the buffer is empty and reads are fresh again.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { KindKey } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import { BEHIND_AFTER_MS, CoalescingBuffer, DRAIN_SLICE_MS } from './coalesce.ts';
import type { HealthBoard } from './health.ts';
import type { DecodedPage } from './list-decode.ts';
import type { ListDecoder } from './list-decoder.ts';
import { statusError } from './http.ts';
import { slimObject, type ObjectSource } from './slim.ts';
import type { ServerProgress } from './server-progress.ts';
import type { Clock } from './timing.ts';
import { parseEventObject } from './watch-decode.ts';
import type { StreamEvent } from './watch-list.ts';
import { scanWatchLine } from './watch-line.ts';

/** Options of a WatchIntake. */
export interface WatchIntakeOptions {
  kind: KindKey;
  cache: ObjectCache;
  health: Pick<HealthBoard, 'count' | 'setLag'>;
  clock: Clock;
  log: (message: string) => void;
  /** How objects are slimmed: the reflector's current endpoint. */
  source: () => ObjectSource;
  /** A waiting change failed to apply: the watch it came from is to end with `error`. */
  onError: (error: unknown) => void;
  /** The buffer's slice (tests); coalesce.ts's DRAIN_SLICE_MS by default. */
  sliceMs?: number;
  /**
   * Decodes waiting changes a batch at a time, as list pages (in the list worker when the batch
   * is large): parsing and slimming leave the engine's thread. Without it, each is parsed here.
   */
  decoder?: ListDecoder;
  /** Changes a batch takes (coalesce.ts's DEFAULT_BATCH_SIZE by default). */
  batchSize?: number;
  /**
   * The server's progress (one per server): dates each change by when the server had reached
   * its version, so the lag includes the time before the socket. Without it, the read time.
   */
  progress?: Pick<ServerProgress, 'note' | 'reachedAt' | 'wanted'>;
  /** Where a progress probe lists one item: the reflector's current endpoint path. */
  probePath?: () => string;
}

/** Lines within one PROBE_INTERVAL_MS that make a watch busy enough to probe the server's progress. */
export const BUSY_LINES = 500;
/** A change's age when read counts toward the lag for this long after its read. */
export const READ_AGE_FRESH_MS = 1_000;
/** While the lag is reported from reads, it is re-evaluated at least this often. */
const LINE_REPORT_INTERVAL_MS = 250;

/** How kube-apiserver writes a change's line: the object comes last, so its JSON is a slice. */
const OBJECT_PREFIXES = new Map(['ADDED', 'MODIFIED'].map((type) => [type, `{"type":"${type}","object":`]));

/** The JSON of a change's object, sliced from its line in kube-apiserver's form; undefined for another form. */
function objectText(line: string, type: string): string | undefined {
  const prefix = OBJECT_PREFIXES.get(type);
  return prefix && line.startsWith(prefix) && line.endsWith('}') ? line.slice(prefix.length, -1) : undefined;
}

/** One waiting change: its type and uid, and either its raw line or an event already parsed. */
interface Waiting {
  type: string;
  uid: string;
  line?: string;
  event?: StreamEvent;
}

export class WatchIntake {
  private readonly o: WatchIntakeOptions;
  private readonly buffer: CoalescingBuffer<Waiting>;
  /** The kind reports "behind": its oldest waiting change is older than BEHIND_AFTER_MS. */
  private behind = false;
  /** Lines read (every event and bookmark) and lines parsed (applied changes, errors, odd lines). */
  readonly counts = { lines: 0, parsed: 0 };
  /** The last change read: when, and how old it was then (by the server's progress). */
  private lastRead: { at: number; ageMs: number } | undefined;
  /** Lines counted toward BUSY_LINES, since `busyFrom`. */
  private busyLines = 0;
  private busyFrom = Number.NEGATIVE_INFINITY;
  private lastReportAt = Number.NEGATIVE_INFINITY;
  /** Re-evaluates a reported lag once reads stop (so "behind" is withdrawn without a new line). */
  private recheck: unknown;

  constructor(options: WatchIntakeOptions) {
    this.o = options;
    this.buffer = new CoalescingBuffer<Waiting>({
      apply: (waiting) => this.apply(waiting),
      onError: (error) => options.onError(error),
      onProgress: (count, oldestAt) => this.reportLag(count, oldestAt),
      now: () => options.clock.now(),
      ...(options.sliceMs !== undefined ? { sliceMs: options.sliceMs } : {}),
      ...(options.decoder ? { applyBatch: (batch, current, after) => this.applyBatch(batch, options.decoder as ListDecoder, current, after) } : {}),
      ...(options.batchSize !== undefined ? { batchSize: options.batchSize } : {}),
    });
  }

  /** Changes not applied yet (one per uid waiting, and the batch being applied). */
  get waiting(): number {
    return this.buffer.pending;
  }

  /** Changes replaced by a newer one of the same object before they were applied. */
  get coalesced(): number {
    return this.buffer.coalesced;
  }

  /**
   * One line off the socket; returns its resourceVersion, where a new watch resumes (what waits
   * in the buffer is not asked for again). Throws the Status of an ERROR event. `heldMs`: how
   * long the line had waited since it was read (in the watch reader's worker), counted in its age.
   */
  line(line: string, heldMs = 0): string | undefined {
    this.counts.lines += 1;
    const head = scanWatchLine(line);
    if (!head || head.type === 'ERROR') return this.event(this.parse(line));
    if (head.type === 'BOOKMARK') {
      this.o.progress?.note(head.resourceVersion);
      return head.resourceVersion;
    }
    if (head.type !== 'ADDED' && head.type !== 'MODIFIED' && head.type !== 'DELETED') return undefined;
    if (head.uid) this.buffer.push(head.uid, { type: head.type, uid: head.uid, line }, this.existedSince(head.resourceVersion, heldMs));
    return head.resourceVersion;
  }

  /**
   * When the server had a change of `resourceVersion` at the latest (the clock's ms): the
   * server's progress says so, or it is when it was read. Notes its age and asks for a probe while busy.
   */
  private existedSince(resourceVersion: string | undefined, heldMs: number): number | undefined {
    const { progress, clock } = this.o;
    const now = clock.now();
    const readAt = now - heldMs;
    if (!progress) return heldMs > 0 ? readAt : undefined;
    const reached = progress.reachedAt(resourceVersion);
    progress.note(resourceVersion, readAt);
    const since = reached === undefined ? readAt : Math.min(readAt, reached);
    this.lastRead = { at: now, ageMs: now - since };
    this.busyLines += 1;
    if (this.busyLines >= BUSY_LINES) {
      if (now - this.busyFrom <= READ_AGE_FRESH_MS) progress.wanted(this.o.probePath?.() ?? '');
      this.busyLines = 0;
      this.busyFrom = now;
    }
    if (now - this.lastReportAt >= LINE_REPORT_INTERVAL_MS) this.reportLag(this.buffer.pending, this.buffer.oldestAt());
    return since;
  }

  /** One event already parsed (held while a WatchList's initial state was applied); as `line`. */
  event(event: StreamEvent): string | undefined {
    const version = event.object?.metadata?.resourceVersion;
    switch (event.type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED': {
        const uid = event.object?.metadata?.uid;
        if (uid) this.buffer.push(uid, { type: event.type, uid, event });
        return version;
      }
      case 'BOOKMARK':
        return version;
      case 'ERROR':
        throw statusError(event.object);
      default:
        return undefined;
    }
  }

  /** Drops every waiting change (a relist replaces what they would have said). */
  clear(): void {
    this.lastRead = undefined;
    this.buffer.clear();
    if (this.recheck !== undefined) this.o.clock.clearTimeout(this.recheck);
    this.recheck = undefined;
  }

  private parse(line: string): StreamEvent {
    this.counts.parsed += 1;
    return JSON.parse(line) as StreamEvent;
  }

  private apply(waiting: Waiting): void {
    const { kind, cache, health } = this.o;
    if (waiting.type === 'DELETED') {
      // A deletion needs no more than the uid the scan found: its line is never parsed.
      cache.delete(kind, waiting.uid);
    } else {
      const object = waiting.event ? waiting.event.object : this.parseObject(waiting.line as string, waiting.type);
      cache.upsert(kind, slimObject(object, this.o.source()));
    }
    health.count(kind, cache.size(kind));
  }

  /**
   * The object of a change's line: its JSON alone when the line is in kube-apiserver's form
   * (watch-decode.ts), else, or when that slice is not one JSON value, the whole line parsed.
   */
  private parseObject(line: string, type: string): unknown {
    const text = objectText(line, type);
    if (text !== undefined) {
      try {
        const object = parseEventObject(text);
        this.counts.parsed += 1;
        return object;
      } catch {
        // Not the form the slice assumed (a member after the object): the line as a whole says.
      }
    }
    return this.parse(line).object;
  }

  /**
   * Decodes a batch's objects as one list page, then applies the batch in order. A line not in
   * kube-apiserver's form, or an event already parsed, is applied from a parse of its own.
   */
  private async applyBatch(batch: readonly Waiting[], decoder: ListDecoder, current: () => boolean, after: Promise<void>): Promise<void> {
    const objects: string[] = [];
    const slot: number[] = [];
    for (const waiting of batch) {
      const text = waiting.line === undefined ? undefined : objectText(waiting.line, waiting.type);
      if (text !== undefined) {
        slot.push(objects.length);
        objects.push(text);
      } else slot.push(-1);
    }
    let page: DecodedPage | undefined;
    try {
      // The objects' texts go to the worker as they are where it takes them: no list body is built here.
      if (objects.length === 0) page = undefined;
      else if (decoder.decodeObjects) page = await decoder.decodeObjects(objects, this.o.source());
      else page = await decoder.decode(Buffer.from(`{"items":[${objects.join(',')}]}`), this.o.source());
    } catch (error) {
      // A worker that failed owes this batch: each change is parsed here instead, and a change
      // that cannot be read fails the watch as it would have one by one.
      this.o.log(`${this.o.kind}: a batch of watch events could not be decoded (${error instanceof Error ? error.message : String(error)}); applying it here`);
      page = undefined;
    }
    // Decoded while the batch before was applied; applied only after it.
    await after;
    if (!current()) return;
    const { kind, cache, health } = this.o;
    const sliceMs = this.o.sliceMs ?? DRAIN_SLICE_MS;
    let sliceEnd = performance.now() + sliceMs;
    for (let i = 0; i < batch.length; i += 1) {
      // Applied in slices, as one by one: the socket is read between them however slow the listeners.
      if (performance.now() >= sliceEnd) {
        this.reportLag(this.buffer.pending, this.buffer.oldestAt());
        await nextTurn();
        sliceEnd = performance.now() + sliceMs;
      }
      if (!current()) return;
      const waiting = batch[i] as Waiting;
      // Changed again while this batch was decoded: only its newer state is applied.
      if (this.buffer.has(waiting.uid)) {
        this.buffer.coalesced += 1;
        continue;
      }
      const at = slot[i] as number;
      const object = page && at >= 0 ? page.objects[at] : undefined;
      if (object) cache.upsert(kind, object, page?.json[at], page?.viewJson?.[at]);
      else this.apply(waiting);
    }
    health.count(kind, cache.size(kind));
  }

  /**
   * Says so while the oldest change not applied has existed longer than BEHIND_AFTER_MS, or the
   * changes being read were that old when read: never lags silently.
   */
  private reportLag(waiting: number, oldestAt: number | undefined): void {
    const { kind, health, clock } = this.o;
    const now = clock.now();
    this.lastReportAt = now;
    const read = this.lastRead;
    const readAgeMs = read && now - read.at < READ_AGE_FRESH_MS ? read.ageMs : 0;
    const lagMs = Math.max(oldestAt === undefined ? 0 : now - oldestAt, readAgeMs);
    if (lagMs > BEHIND_AFTER_MS) {
      health.setLag(kind, { lagMs });
      if (!this.behind) this.o.log(`${kind}: behind by ${Math.round(lagMs / 1000)} s, ${waiting} changes waiting; catching up`);
      this.behind = true;
      // Reads may stop once caught up: the lag is then withdrawn by this, not by a next line.
      if (this.o.progress && this.recheck === undefined) {
        this.recheck = clock.setTimeout(() => {
          this.recheck = undefined;
          this.reportLag(this.buffer.pending, this.buffer.oldestAt());
        }, READ_AGE_FRESH_MS);
      }
    } else if (this.behind) {
      this.behind = false;
      health.setLag(kind, undefined);
    }
  }
}
