/**
 * Notices of namespaces the user could read and no longer can (a RoleBinding revoked): "You can
 * no longer read platform: pods is forbidden: …". A notice stays until dismissed or until the
 * namespace is readable again, and a new context (or epoch) starts without any: a notice is
 * about a change the user saw, never about the state the app opened in.
 */
import type { ClusterAccess } from '../../shared/contracts/access.ts';

/** One lost namespace and why. */
export interface AccessNotice {
  namespace: string;
  text: string;
}

/** Why `namespace` is not readable any more: the server's 403 when the engine asked, else the check's words. */
function reasonFor(after: NonNullable<ClusterAccess['summary']>, namespace: string): string {
  const denied = after.reviews.find((r) => r.review === 'list' && r.namespace === namespace && !r.allowed && r.message);
  return denied?.message ?? after.checked.find((c) => c.name === namespace)?.message ?? 'your permissions there were withdrawn';
}

/**
 * The notices after `after` arrives, given the previous answer and notices: namespaces watched
 * in `before` that the engine still checks but watches no more get a notice; a namespace watched
 * again loses its notice; a namespace that is simply gone (deleted, or removed from the user's
 * own list) gets none.
 */
export function nextAccessNotices(notices: readonly AccessNotice[], before: ClusterAccess | null, after: ClusterAccess): AccessNotice[] {
  const summary = after.summary;
  if (!before || before.context !== after.context || before.epoch !== after.epoch) return [];
  if (!summary) return [...notices];
  const visible = new Set(summary.namespaces);
  const kept = notices.filter((n) => !visible.has(n.namespace));
  const lost = (before.summary?.namespaces ?? []).filter((ns) => !visible.has(ns) && summary.checked.some((c) => c.name === ns && c.state !== 'watched'));
  const fresh = lost.filter((ns) => !kept.some((n) => n.namespace === ns)).map((namespace) => ({ namespace, text: `You can no longer read ${namespace}: ${reasonFor(summary, namespace)}` }));
  return [...kept, ...fresh];
}
