/** status.conditions read defensively from slim objects (the tables' hover, the graph's side panel). */

export interface ConditionView {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  /** ms since the epoch, NaN when absent. */
  lastTransition: number;
}

interface RawCondition {
  type?: unknown;
  status?: unknown;
  reason?: unknown;
  message?: unknown;
  lastTransitionTime?: unknown;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The object's status.conditions, in the order the controller wrote them. */
export function readConditions(status: { conditions?: unknown } | undefined): ConditionView[] {
  const raw = status?.conditions;
  if (!Array.isArray(raw)) return [];
  const out: ConditionView[] = [];
  for (const entry of raw as RawCondition[]) {
    const type = text(entry?.type);
    if (!type) continue;
    const view: ConditionView = {
      type,
      status: text(entry.status) ?? 'Unknown',
      lastTransition: typeof entry.lastTransitionTime === 'string' ? Date.parse(entry.lastTransitionTime) : Number.NaN,
    };
    const reason = text(entry.reason);
    const message = text(entry.message);
    if (reason) view.reason = reason;
    if (message) view.message = message;
    out.push(view);
  }
  return out;
}

/** The last condition of a type (controllers keep one per type; the last one wins if not). */
export function findCondition(conditions: readonly ConditionView[], type: string): ConditionView | undefined {
  for (let i = conditions.length - 1; i >= 0; i -= 1) if (conditions[i]?.type === type) return conditions[i];
  return undefined;
}

/** "Progressing=False: ProgressDeadlineExceeded — ReplicaSet "web-5d" has timed out progressing." */
export function describeCondition(condition: ConditionView): string {
  const head = `${condition.type}=${condition.status}${condition.reason ? `: ${condition.reason}` : ''}`;
  return condition.message ? `${head} — ${condition.message}` : head;
}
