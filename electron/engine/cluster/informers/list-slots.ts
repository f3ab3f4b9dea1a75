/**
 * A bound on the initial lists of a kind read namespace by namespace (namespaced.ts). Fifty
 * namespaces of fourteen kinds are 700 lists; started at once they all share the server and the
 * connection, so every one of them, the first namespace's pods included, ends near the end of
 * the whole sync, and a real kube-apiserver's priority and fairness (APF) queues or refuses
 * (429) what one user sends beyond its share of concurrent requests. Here a few lists run at a
 * time, each started as soon as another ends, and the most wanted kinds first (workloads before
 * Events and metadata-only kinds). A slot is held from the reflector's start until it first
 * leaves "syncing": it is live (listed and watching) or it failed, so one namespace's failure
 * frees its slot for the others instead of holding it while it backs off.
 */
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { KindKey } from '../../../../shared/cluster.ts';

/**
 * Lists (of a kind in a namespace) in flight at once: enough to keep the server producing pages
 * while this process decodes others (each list also reads up to three pages ahead, pager.ts),
 * far below kube-apiserver's default 400 read-only requests in flight.
 */
export const NAMESPACE_LISTS_AT_ONCE = 8;

/** A queued or running list's turn; `release` frees (or gives up) its slot, once. */
export interface ListTurn {
  release(): void;
}

/** Kinds the first screens are made of: listed before the rest (Events, metadata-only and custom kinds). */
const FIRST: ReadonlySet<string> = new Set(Object.values(BUILTIN_KEYS).filter((key) => key !== BUILTIN_KEYS.Event));

/** A kind's place in the queue: lower first. */
export function listPriority(kind: KindKey): number {
  return FIRST.has(kind) ? 0 : 1;
}

interface Waiting {
  priority: number;
  start: () => void;
  turn: ListTurn;
}

/** At most `limit` turns running; waiting ones start by priority, then in the order asked. */
export class ListSlots {
  private readonly limit: number;
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(limit = NAMESPACE_LISTS_AT_ONCE) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrent lists must be a positive integer, got ${limit}`);
    this.limit = limit;
  }

  /** Lists running now. */
  get active(): number {
    return this.running;
  }

  /** Lists waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Calls `start` now if a slot is free, else when one is; the turn's `release` must follow its end. */
  request(priority: number, start: () => void): ListTurn {
    let state: 'waiting' | 'running' | 'done' = 'waiting';
    const turn: ListTurn = {
      release: () => {
        if (state === 'waiting') {
          const index = this.waiting.findIndex((w) => w.turn === turn);
          if (index >= 0) this.waiting.splice(index, 1);
        } else if (state === 'running') {
          this.running -= 1;
          this.next();
        }
        state = 'done';
      },
    };
    const entry: Waiting = {
      priority,
      turn,
      start: () => {
        state = 'running';
        start();
      },
    };
    // After the last waiting turn of the same or a higher priority (lower number).
    const at = this.waiting.findIndex((w) => w.priority > priority);
    if (at < 0) this.waiting.push(entry);
    else this.waiting.splice(at, 0, entry);
    this.next();
    return turn;
  }

  private next(): void {
    while (this.running < this.limit) {
      const entry = this.waiting.shift();
      if (!entry) return;
      this.running += 1;
      try {
        entry.start();
      } catch {
        // A start that throws ended its turn at once; the slot goes to the next.
        entry.turn.release();
      }
    }
  }
}
