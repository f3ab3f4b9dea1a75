/**
 * Per-kind health as the status bar shows it. A change of state or message is reported at
 * once; count changes (sync progress, objects added and deleted while live) are throttled to
 * one report per interval, trailing, so a 50,000-pod list or a busy watch cannot flood it.
 */
import type { KindKey, KindHealth, KindHealthState } from '../../../../shared/cluster.ts';
import type { Clock } from './timing.ts';

/** Shortest interval between two reports caused only by count changes. */
export const HEALTH_THROTTLE_MS = 250;

/** Options of `HealthBoard`. */
export interface HealthBoardOptions {
  kinds: readonly KindKey[];
  clock: Clock;
  onHealth: (kinds: KindHealth[]) => void;
  throttleMs?: number;
}

/** The health of every watched kind, and who hears about it. */
export class HealthBoard {
  private readonly entries = new Map<KindKey, KindHealth>();
  private readonly clock: Clock;
  private readonly onHealth: (kinds: KindHealth[]) => void;
  private readonly throttleMs: number;
  private timer: unknown;
  private disposed = false;

  constructor(options: HealthBoardOptions) {
    this.clock = options.clock;
    this.onHealth = options.onHealth;
    this.throttleMs = options.throttleMs ?? HEALTH_THROTTLE_MS;
    const now = this.clock.now();
    for (const kind of options.kinds) this.entries.set(kind, { kind, state: 'syncing', count: 0, since: now });
  }

  /**
   * Puts a kind in a state. `since` moves only when the state changes: a kind retrying for a
   * minute stays "reconnecting since" the first failure while its message follows the last one.
   */
  set(kind: KindKey, state: KindHealthState, details: { count: number; message?: string }): void {
    const previous = this.entries.get(kind);
    if (!previous) return;
    const next: KindHealth = {
      kind,
      state,
      count: details.count,
      since: previous.state === state ? previous.since : this.clock.now(),
      ...(details.message !== undefined ? { message: details.message } : {}),
      // Lag is a live kind's; a kind that left live (reconnecting, forbidden) is not "catching up".
      ...(state === 'live' && previous.lagMs !== undefined ? { lagMs: previous.lagMs } : {}),
    };
    this.entries.set(kind, next);
    if (previous.state !== state || previous.message !== next.message) this.flush();
    else if (previous.count !== next.count) this.schedule();
  }

  /**
   * Marks a kind as behind (its watch events wait to be applied) or, with undefined, caught up.
   * Reported at once when the lag's whole seconds change, so "behind by N s" counts as it goes.
   */
  setLag(kind: KindKey, lag: { lagMs: number } | undefined): void {
    const previous = this.entries.get(kind);
    if (!previous) return;
    const lagMs = lag === undefined ? undefined : Math.round(lag.lagMs / 1000) * 1000;
    if (previous.lagMs === lagMs) return;
    const { lagMs: _old, ...rest } = previous;
    this.entries.set(kind, lagMs === undefined ? rest : { ...rest, lagMs });
    this.flush();
  }

  /** Starts reporting a kind (a kind discovery added while the watcher runs), as syncing. */
  add(kind: KindKey): void {
    if (this.entries.has(kind) || this.disposed) return;
    this.entries.set(kind, { kind, state: 'syncing', count: 0, since: this.clock.now() });
    this.flush();
  }

  /** Stops reporting a kind (removed from the cluster, or excluded). */
  remove(kind: KindKey): void {
    if (!this.entries.delete(kind) || this.disposed) return;
    this.flush();
  }

  /** Updates a kind's count without changing its state (throttled report). */
  count(kind: KindKey, count: number): void {
    const previous = this.entries.get(kind);
    if (!previous || previous.count === count) return;
    this.entries.set(kind, { ...previous, count });
    this.schedule();
  }

  list(): KindHealth[] {
    return [...this.entries.values()].map((entry) => ({ ...entry }));
  }

  /** Cancels a pending report; nothing is reported afterwards. */
  dispose(): void {
    this.disposed = true;
    this.cancel();
  }

  private schedule(): void {
    if (this.timer !== undefined || this.disposed) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.throttleMs);
  }

  private cancel(): void {
    if (this.timer === undefined) return;
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private flush(): void {
    // A pending count report is contained in this one.
    this.cancel();
    if (!this.disposed) this.onHealth(this.list());
  }
}
