/**
 * Status conditions as Kubernetes writes them: one entry per type, `lastTransitionTime` moving
 * only when the status flips, and an optional per-kind second timestamp (Deployments'
 * `lastUpdateTime`, Nodes' `lastHeartbeatTime`, Pods' and Jobs' `lastProbeTime`).
 */

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  type: string;
  status: ConditionStatus;
  lastUpdateTime?: string;
  lastHeartbeatTime?: string;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface SetConditionOptions {
  /**
   * The kind's second timestamp, set to `now` whenever the condition changes:
   * `lastUpdateTime` (Deployment), `lastHeartbeatTime` (Node). `lastProbeTime` is written as
   * `null`, as kubelet and the job controller do.
   */
  updateTimeField?: 'lastUpdateTime' | 'lastHeartbeatTime' | 'lastProbeTime';
}

/** RFC 3339 at second precision, the form metav1.Time serialises to. */
export function timestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The condition of `type` in `status.conditions`, if any. */
export function getCondition(status: unknown, type: string): Condition | undefined {
  const conditions = (status as { conditions?: Condition[] } | undefined)?.conditions;
  return conditions?.find((c) => c.type === type);
}

/**
 * Sets a condition on a mutable `status` object. Nothing changes when type, status, reason and
 * message are all the same (so reconciles stay idempotent); `lastTransitionTime` is kept while
 * the status stays the same. Returns whether anything changed.
 */
export function setCondition(
  status: Record<string, unknown>,
  type: string,
  conditionStatus: ConditionStatus,
  reason: string | undefined,
  message: string | undefined,
  now: number,
  options: SetConditionOptions = {},
): boolean {
  const conditions = Array.isArray(status['conditions']) ? (status['conditions'] as Condition[]) : [];
  const index = conditions.findIndex((c) => c.type === type);
  const current = index >= 0 ? conditions[index] : undefined;
  if (current && current.status === conditionStatus && current.reason === reason && current.message === message) return false;
  const at = timestamp(now);
  const next: Condition = { type, status: conditionStatus };
  if (options.updateTimeField === 'lastProbeTime') next.lastProbeTime = null;
  else if (options.updateTimeField) next[options.updateTimeField] = at;
  next.lastTransitionTime = current && current.status === conditionStatus && current.lastTransitionTime ? current.lastTransitionTime : at;
  if (reason) next.reason = reason;
  if (message) next.message = message;
  const updated = [...conditions];
  if (index >= 0) updated[index] = next;
  else updated.push(next);
  status['conditions'] = updated;
  return true;
}
