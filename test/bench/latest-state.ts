/**
 * Latency of the latest state, the measure that fits a pipeline allowed to drop intermediate
 * states (issue #21): for each write, how long until the engine's cache held that state or a
 * newer one of the same object. A write whose state was coalesced away counts as done when the
 * newer state that replaced it was applied, so shedding is not punished and falling behind is.
 */

/** Every cache apply of the measured objects: per uid, resourceVersion and time, in apply order. */
export class AppliedStates {
  private readonly byUid = new Map<string, number[]>();
  applied = 0;

  /** Notes that the cache now holds `uid` at `resourceVersion` (at `at`, ms since the epoch). */
  note(uid: string, resourceVersion: number, at: number): void {
    let list = this.byUid.get(uid);
    if (!list) this.byUid.set(uid, (list = []));
    list.push(resourceVersion, at);
    this.applied += 1;
  }

  /** Forgets everything noted (between phases). */
  clear(): void {
    this.byUid.clear();
    this.applied = 0;
  }

  /**
   * Per write (write i modified `order[i % order.length]`; `writes` is rv, time, rv, time...),
   * ms until a state at least as new was applied; `missing` counts writes no such state followed.
   * `lastAppliedAt` is when the last of those states was applied.
   */
  latencies(writes: readonly number[], order: readonly string[]): { latencies: number[]; missing: number; lastAppliedAt: number } {
    const cursor = new Map<string, number>();
    const latencies: number[] = [];
    let missing = 0;
    let lastAppliedAt = 0;
    for (let i = 0; i < writes.length / 2; i += 1) {
      const uid = order[i % order.length] as string;
      const rv = writes[2 * i] as number;
      const list = this.byUid.get(uid) ?? [];
      // Writes come in rv order and each uid's applies too: one cursor per uid walks them once.
      let at = cursor.get(uid) ?? 0;
      while (at < list.length && (list[at] as number) < rv) at += 2;
      cursor.set(uid, at);
      if (at >= list.length) {
        missing += 1;
        continue;
      }
      const appliedAt = list[at + 1] as number;
      latencies.push(appliedAt - (writes[2 * i + 1] as number));
      lastAppliedAt = Math.max(lastAppliedAt, appliedAt);
    }
    return { latencies, missing, lastAppliedAt };
  }
}
