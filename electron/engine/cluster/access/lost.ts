/**
 * Why a namespace that was watched is not any more. A check that finds nothing allowed where
 * the previous check watched kinds (a RoleBinding revoked) asks the server once for one of those
 * kinds, a list with limit=1, so the notice can carry the server's own 403 message: a
 * SelfSubjectAccessReview that RBAC denies has no reason to quote.
 */
import type { AccessReview, NamespaceAccess } from '../../../../shared/access.ts';
import { AccessApiError, getJson, type AccessApi } from './api.ts';
import type { AccessKind } from './probe.ts';

const PODS = 'pods';

/** The list path of a core kind (always v1) in a namespace; other groups would need a version the check does not carry. */
function corePath(kind: AccessKind, namespace: string): string | undefined {
  return kind.ref.group === '' ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/${kind.ref.plural}?limit=1` : undefined;
}

/**
 * The `list` reviews of the namespaces lost since `before`: watched then, `none` now. A request
 * that fails for another reason than an answer (the network) is left out: it must not fail the
 * check that found the change.
 */
export async function explainLost(api: AccessApi, kinds: readonly AccessKind[], before: readonly NamespaceAccess[], after: readonly NamespaceAccess[]): Promise<AccessReview[]> {
  const byKey = new Map(kinds.map((k) => [k.key, k]));
  const watched = new Map(before.filter((c) => c.state === 'watched').map((c) => [c.name, c.kinds]));
  const lost = after.filter((c) => c.state === 'none' && watched.has(c.name));
  const reviews = await Promise.all(
    lost.map(async ({ name }): Promise<AccessReview | undefined> => {
      // Pods first: the kind every user knows, and the one a 403 in kubectl is usually about.
      const keys = [...(watched.get(name) ?? [])].sort((a, b) => Number(b === PODS) - Number(a === PODS));
      const kind = keys.map((key) => byKey.get(key)).find((k): k is AccessKind => k !== undefined && corePath(k, name) !== undefined);
      const path = kind && corePath(kind, name);
      if (!kind || !path) return undefined;
      const question = `list ${kind.key}`;
      try {
        await getJson(api, path);
        return { review: 'list', namespace: name, question, allowed: true, message: 'the server lists them although the reviews deny it' };
      } catch (error) {
        if (!(error instanceof AccessApiError) || error.status === 401) return undefined;
        return { review: 'list', namespace: name, question, allowed: false, message: error.message };
      }
    }),
  );
  return reviews.filter((r): r is AccessReview => r !== undefined);
}
