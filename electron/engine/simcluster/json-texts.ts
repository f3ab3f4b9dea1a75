/**
 * The JSON of the store's current objects, for the server to send instead of serialising the
 * same immutable object again for every list and every watch (a 50,000-pod list is ~200 MB of
 * JSON, which a first sync of the app made the simulator write at 1.1-1.4 CPU-s, on the same two
 * cores as the app it serves).
 *
 * Texts are made in the store's idle moments: once no write has come for `idleMs`, the current
 * objects not serialised yet are, `perTurn` at a time, each turn yielding to the event loop; a
 * write stops it until the store is idle again. Writes themselves serialise nothing, so churn
 * costs what it did, and under churn the objects a watch sends are serialised as they are sent,
 * the newest once for all watches (kept one at a time: keeping every sent version until it is
 * replaced made churn at 20,000 writes/s promote ~100 MB/s of soon-dead text). A text goes when
 * its object is replaced or deleted, so this holds at most one per stored object (~4.5 KB per
 * pod) and none for the versions the change log keeps.
 *
 * A text is kept as its UTF-8 bytes, as kube-apiserver's watch cache keeps an object's encoded
 * form: a list page is then its items' bytes copied once into the body (`bytes`), where joining
 * the texts and encoding the joined page cost the simulator ~2 copies and a UTF-8 scan of every
 * list's 200 MB (~0.9 CPU-s a 50,000-pod list on a loaded 2-core machine, beside the engine
 * that reads it). A watch event's text (`get`) is decoded from them.
 */

/** How long the store goes without writes before it serialises its objects. */
export const IDLE_MS = 250;
/** Objects serialised per event-loop turn while idle (~2-5 ms of pods). */
export const PER_TURN = 250;

export interface JsonTextsOptions {
  idleMs?: number;
  perTurn?: number;
  /** A monotonic clock in ms (performance.now by default). */
  clock?: () => number;
}

export class JsonTexts<T extends object> {
  private readonly texts = new Map<T, Buffer>();
  /** The last object serialised on demand: a watch event's object, sent to every watch. */
  private latest: { object: T; text: string } | undefined;
  /** Current objects without a text yet, oldest write first. */
  private readonly unmade = new Set<T>();
  private readonly idleMs: number;
  private readonly perTurn: number;
  private readonly clock: () => number;
  private lastWriteAt = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private turn: ReturnType<typeof setTimeout> | undefined;

  constructor(options: JsonTextsOptions = {}) {
    this.idleMs = options.idleMs ?? IDLE_MS;
    this.perTurn = options.perTurn ?? PER_TURN;
    this.clock = options.clock ?? (() => performance.now());
  }

  /**
   * `JSON.stringify(object)`: its text if made, else serialised now. Made while the store is
   * idle (a list before the idle serialising reached it), the text is kept, so it is not made
   * twice; under churn only the newest is (`latest`).
   */
  get(object: T): string {
    const known = this.texts.get(object);
    if (known !== undefined) return known.toString('utf8');
    if (this.latest?.object === object) return this.latest.text;
    const text = JSON.stringify(object);
    if (this.clock() - this.lastWriteAt >= this.idleMs && this.unmade.delete(object)) this.texts.set(object, Buffer.from(text, 'utf8'));
    else if (!this.closed) this.latest = { object, text };
    return text;
  }

  /** `get(object)` as UTF-8 bytes: the kept ones (not to be written to), or encoded now. */
  bytes(object: T): Buffer {
    const known = this.texts.get(object);
    if (known !== undefined) return known;
    if (this.latest?.object === object) return Buffer.from(this.latest.text, 'utf8');
    const bytes = Buffer.from(JSON.stringify(object), 'utf8');
    if (this.clock() - this.lastWriteAt >= this.idleMs && this.unmade.delete(object)) this.texts.set(object, bytes);
    return bytes;
  }

  /** A write: `object` is current (undefined after a delete), `replaced` no longer is. */
  written(object: T | undefined, replaced: T | undefined): void {
    if (this.closed) return;
    if (replaced) {
      this.texts.delete(replaced);
      this.unmade.delete(replaced);
    }
    if (object) this.unmade.add(object);
    this.lastWriteAt = this.clock();
    if (this.turn) {
      clearTimeout(this.turn);
      this.turn = undefined;
    }
    this.timer ??= this.schedule(this.idleMs);
  }

  /**
   * The store is done with: no more serialising while idle, no texts kept (asked for, a text is
   * made then and not kept). A stopped 50,000-pod simulator's idle turns otherwise went on for
   * ~2 s, holding its ~330 MB of objects and spending CPU on texts nobody would read.
   */
  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    clearTimeout(this.turn);
    this.timer = undefined;
    this.turn = undefined;
    this.texts.clear();
    this.unmade.clear();
    this.latest = undefined;
  }

  /** How many current objects have their text (tests, diagnostics). */
  made(): number {
    return this.texts.size;
  }

  /** How many current objects wait for their text. */
  backlog(): number {
    return this.unmade.size;
  }

  private schedule(ms: number, run = () => this.idle()): ReturnType<typeof setTimeout> {
    const timer = setTimeout(run, ms);
    timer.unref();
    return timer;
  }

  /** The timer fired: serialise if no write came for idleMs, else wait out the rest. */
  private idle(): void {
    this.timer = undefined;
    const quietFor = this.clock() - this.lastWriteAt;
    if (quietFor < this.idleMs) {
      this.timer = this.schedule(this.idleMs - quietFor);
      return;
    }
    this.serialiseSome();
  }

  private serialiseSome(): void {
    this.turn = undefined;
    let left = this.perTurn;
    for (const object of this.unmade) {
      if (left-- === 0) break;
      this.unmade.delete(object);
      this.texts.set(object, Buffer.from(JSON.stringify(object), 'utf8'));
    }
    // A timer, not an immediate: an unref'd immediate does not wake a loop waiting for I/O.
    if (this.unmade.size > 0) this.turn = this.schedule(0, () => this.serialiseSome());
  }
}
