/**
 * The JSON watch lines (`{"type":"MODIFIED","object":{...}}\n`) of the newest changes, made once
 * and sent as they are to every watch, live or resumed. Without them the simulator serialised a
 * change again for every watch that resumed behind it: at 2 x its own capacity, a watch closed as
 * a slow consumer (16 MB behind, watch-stream.ts) came back and its backlog was serialised anew,
 * 4.8 of 39 CPU-s, while the writes it had to catch up with kept coming, until a re-watch got
 * 410 and the client relisted.
 *
 * Kept by the object version they carry (the store's objects are immutable, and each write makes
 * a new one), oldest dropped first once they hold more than `limitChars`. The default keeps four
 * times a watch's slow-consumer bound: a watch closed for that bound resumes within the lines
 * kept. kube-apiserver drops an event's cached serialisation once it is dispatched and encodes a
 * resumed watch's interval again; it does that on other cores than its writes, which the
 * simulator's one thread cannot.
 */

/** Watch lines kept, in characters (UTF-16 code units; pods are ASCII): 4 x 16 MB. */
export const WATCH_LINES_LIMIT_CHARS = 64 * 1024 * 1024;

export interface WatchLinesOptions {
  limitChars?: number;
}

export class WatchLines {
  private readonly lines = new Map<object, { type: string; line: string }>();
  private chars = 0;
  private readonly limitChars: number;
  private made = 0;
  private reused = 0;

  constructor(options: WatchLinesOptions = {}) {
    this.limitChars = options.limitChars ?? WATCH_LINES_LIMIT_CHARS;
  }

  /**
   * The line of `type` carrying `object`: kept from an earlier watch, or `${prefix}${text()}}\n`
   * made now (and kept, unless a line of another type of the same object is kept already: a
   * watch whose selector an object left sends it as DELETED, the others as MODIFIED).
   */
  line(type: string, object: object, text: () => string): string {
    const kept = this.lines.get(object);
    if (kept?.type === type) {
      this.reused += 1;
      return kept.line;
    }
    const line = `{"type":"${type}","object":${text()}}\n`;
    this.made += 1;
    if (kept === undefined && line.length <= this.limitChars) {
      this.lines.set(object, { type, line });
      this.chars += line.length;
      this.trim();
    }
    return line;
  }

  /** Lines made and lines sent again without being made (diagnostics, tests). */
  counts(): { made: number; reused: number; kept: number; chars: number } {
    return { made: this.made, reused: this.reused, kept: this.lines.size, chars: this.chars };
  }

  private trim(): void {
    for (const [object, kept] of this.lines) {
      if (this.chars <= this.limitChars) return;
      this.lines.delete(object);
      this.chars -= kept.line.length;
    }
  }
}
