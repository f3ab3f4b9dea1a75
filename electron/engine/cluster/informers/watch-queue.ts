/**
 * The watch reader's queue (watch-reader-worker.ts): lines read off a watch socket and not yet
 * handed to the engine's thread. It reads as fast as the socket delivers, whatever the engine is
 * doing, so while the engine is busy (a long task, a major GC, a backlog it is applying) lines
 * wait here, coalesced per object as the engine's own buffer does (coalesce.ts): a change of an
 * object that already waits replaces that line in place. What waits is bounded by the number of
 * objects, not of events, and the server never sees a slow reader. It coalesces only while the
 * engine is behind (the worker says so with each line): lines that merely arrive together, as an
 * object's spec change and its controller's status write often do, all reach the engine, which
 * must see each state (a reconcile's lag is the time between two of them, events/reconciles.ts).
 *
 * Lines that are not a change of one object (an ERROR, a line the scan cannot read) keep their
 * place: changes are coalesced only with changes after the last of them. A BOOKMARK only moves
 * the version: it is handed on as a line when nothing waits, else dropped (the version it
 * carried travels with the next batch).
 *
 * Each batch taken carries `resumeFrom`: the version a new watch may resume from once the engine
 * has the batch, such that every change after it is either handed on already or will be sent
 * again. Since a coalesced line moves a later version into an earlier place, that is the version
 * read just before the first line still waiting arrived, or the last version read when none waits.
 */
import { scanWatchLine } from './watch-line.ts';

/** One waiting line: where it arrived, and what had been read just before. */
interface Entry {
  line: string;
  uid: string | undefined;
  /** The last version read before this entry first arrived. */
  before: string | undefined;
  /** When its first state was read (the queue's clock). */
  readAt: number;
}

/** A batch handed to the engine. */
export interface QueueBatch {
  lines: string[];
  /** The version a new watch resumes from once these lines are taken in; undefined before any version was read. */
  resumeFrom: string | undefined;
  /** When the oldest of these lines was read (the queue's clock). */
  oldestReadAt: number | undefined;
}

export class WatchQueue {
  private entries: Entry[] = [];
  private head = 0;
  /** Changes waiting since the last line that is not one, by uid. */
  private readonly byUid = new Map<string, Entry>();
  private chars = 0;
  private lastVersion: string | undefined;
  /** Lines read, and changes that replaced a waiting one. */
  readonly counts = { lines: 0, coalesced: 0 };

  private readonly now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.now = now;
  }

  /** Lines waiting. */
  get size(): number {
    return this.entries.length - this.head;
  }

  /** Characters of the lines waiting. */
  get waitingChars(): number {
    return this.chars;
  }

  /** The last version read (a change's or a bookmark's). */
  get version(): string | undefined {
    return this.lastVersion;
  }

  /**
   * One line off the socket. With `coalesce` (the engine is behind), a change of an object that
   * waits replaces its newest waiting line; without, every change is kept, in order.
   */
  push(line: string, coalesce = true): void {
    this.counts.lines += 1;
    const head = scanWatchLine(line);
    const version = head?.resourceVersion;
    if (head && head.uid && (head.type === 'ADDED' || head.type === 'MODIFIED' || head.type === 'DELETED')) {
      const waiting = coalesce ? this.byUid.get(head.uid) : undefined;
      if (waiting) {
        this.chars += line.length - waiting.line.length;
        waiting.line = line;
        this.counts.coalesced += 1;
      } else {
        const entry: Entry = { line, uid: head.uid, before: this.lastVersion, readAt: this.now() };
        this.entries.push(entry);
        this.byUid.set(head.uid, entry);
        this.chars += line.length;
      }
    } else if (head?.type === 'BOOKMARK' && this.size > 0) {
      // Its version is all it says: it moves `version`, which the batch that empties the queue carries.
    } else {
      this.entries.push({ line, uid: undefined, before: this.lastVersion, readAt: this.now() });
      this.chars += line.length;
      // Nothing after this line may be moved before it.
      this.byUid.clear();
    }
    if (version) this.lastVersion = version;
  }

  /** Takes the oldest waiting lines, up to `maxLines` and about `maxChars` (at least one). */
  take(maxLines: number, maxChars = Number.POSITIVE_INFINITY): QueueBatch {
    const lines: string[] = [];
    let chars = 0;
    const oldestReadAt = this.entries[this.head]?.readAt;
    while (this.head < this.entries.length && lines.length < maxLines && (lines.length === 0 || chars < maxChars)) {
      const entry = this.entries[this.head] as Entry;
      this.entries[this.head] = undefined as unknown as Entry;
      this.head += 1;
      if (entry.uid !== undefined && this.byUid.get(entry.uid) === entry) this.byUid.delete(entry.uid);
      lines.push(entry.line);
      chars += entry.line.length;
    }
    this.chars -= chars;
    if (this.head === this.entries.length) {
      this.entries = [];
      this.head = 0;
    } else if (this.head > 4096 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
    const next = this.entries[this.head];
    return { lines, resumeFrom: next ? next.before : this.lastVersion, oldestReadAt };
  }

  /** Drops every waiting line. */
  clear(): void {
    this.entries = [];
    this.head = 0;
    this.byUid.clear();
    this.chars = 0;
  }
}
