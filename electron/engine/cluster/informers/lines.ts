/**
 * Newline-delimited JSON as it arrives in chunks: each complete line, decoded from the bytes on
 * its own, so it is a string of its own (a slice of a decoded chunk would keep the whole chunk
 * alive for as long as the line waits to be applied: watch-intake.ts and the watch reader's
 * queue keep lines, one per object, while the cache catches up). Bare "\n" lines are
 * kube-apiserver's keep-alives and are skipped. Loads nothing but Node's Buffer (the watch
 * reader's worker uses it).
 */

/** A keep-alive line; fails at the first character of a JSON line, so it costs nothing per event. */
const BLANK = /^\s*$/;
const NEWLINE = 0x0a;

export class LineSplitter {
  /** The start of a line whose newline has not arrived yet, in arrival order. */
  private partial: Buffer[] = [];

  /**
   * Calls `onLine` for each complete, non-blank line the chunk ends; stops early once `onLine`
   * returns false (the rest of the chunk is dropped).
   */
  push(chunk: Buffer | string, onLine: (line: string) => boolean | void): void {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    let newline = bytes.indexOf(NEWLINE);
    while (newline >= 0) {
      let line: string;
      if (this.partial.length > 0) {
        this.partial.push(bytes.subarray(start, newline));
        line = Buffer.concat(this.partial).toString('utf8');
        this.partial = [];
      } else {
        line = bytes.toString('utf8', start, newline);
      }
      start = newline + 1;
      if (!BLANK.test(line) && onLine(line) === false) return;
      newline = bytes.indexOf(NEWLINE, start);
    }
    // Copied: the rest of a large chunk need not stay alive for a line's first bytes.
    if (start < bytes.length) this.partial.push(Buffer.from(bytes.subarray(start)));
  }
}
