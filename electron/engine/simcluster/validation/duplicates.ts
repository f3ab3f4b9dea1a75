/**
 * Repeated keys in a JSON document, which JSON.parse silently resolves (the last one wins) but
 * kube-apiserver's strict decoder reports: `duplicate field "spec.replicas"`. One pass over
 * the text, with every key's path in the strict decoder's form (`a.b[0].c`) and its place in
 * the document, so duplicate and unknown fields can be reported in the decoder's order.
 */

/** A key seen again in the same object. */
export interface DuplicateKey {
  /** `spec.replicas`, `metadata.labels.app`. */
  path: string;
  /** 1-based line of the repeated key (YAML decoders name it). */
  line: number;
  /** The key as written. */
  key: string;
  /** Its place among all keys of the document. */
  order: number;
}

/** What a scan found. */
export interface KeyScan {
  duplicates: DuplicateKey[];
  /** The place of each path's first key in the document, for ordering other findings. */
  firstSeen: ReadonlyMap<string, number>;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NEWLINE = 0x0a;

class Scanner {
  private i = 0;
  private line = 1;
  private order = 0;
  readonly duplicates: DuplicateKey[] = [];
  readonly firstSeen = new Map<string, number>();
  private readonly text: string;

  constructor(text: string) {
    this.text = text;
  }

  skipSpace(): void {
    const { text } = this;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === NEWLINE) this.line += 1;
      else if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return;
      this.i += 1;
    }
  }

  private string(): string {
    const { text } = this;
    const start = this.i;
    let escaped = false;
    this.i += 1;
    while (this.i < text.length) {
      const c = text.charCodeAt(this.i);
      if (c === BACKSLASH) {
        escaped = true;
        this.i += 2;
      } else if (c === QUOTE) break;
      else this.i += 1;
    }
    this.i += 1;
    const raw = text.slice(start, this.i);
    return escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  }

  value(path: string): void {
    this.skipSpace();
    const c = this.text[this.i];
    if (c === '{') this.object(path);
    else if (c === '[') this.array(path);
    else if (c === '"') this.string();
    else while (this.i < this.text.length && !',]} \t\r\n'.includes(this.text[this.i] ?? '')) this.i += 1;
  }

  private object(path: string): void {
    this.i += 1;
    const seen = new Set<string>();
    for (;;) {
      this.skipSpace();
      if (this.text[this.i] === '}' || this.i >= this.text.length) break;
      const line = this.line;
      const key = this.string();
      const keyPath = path === '' ? key : `${path}.${key}`;
      this.order += 1;
      if (seen.has(key)) this.duplicates.push({ path: keyPath, line, key, order: this.order });
      else {
        seen.add(key);
        if (!this.firstSeen.has(keyPath)) this.firstSeen.set(keyPath, this.order);
      }
      this.skipSpace();
      this.i += 1; // ':'
      this.value(keyPath);
      this.skipSpace();
      if (this.text[this.i] === ',') this.i += 1;
    }
    this.i += 1;
  }

  private array(path: string): void {
    this.i += 1;
    for (let index = 0; ; index += 1) {
      this.skipSpace();
      if (this.text[this.i] === ']' || this.i >= this.text.length) break;
      this.value(`${path}[${index}]`);
      this.skipSpace();
      if (this.text[this.i] === ',') this.i += 1;
    }
    this.i += 1;
  }
}

/**
 * Scans a JSON document (already known to parse) for repeated keys. Keys repeated inside an
 * array item are reported under the item's index: `spec.template.spec.containers[0].image`.
 */
export function scanJsonKeys(text: string): KeyScan {
  const scanner = new Scanner(text);
  scanner.value('');
  return { duplicates: scanner.duplicates, firstSeen: scanner.firstSeen };
}
