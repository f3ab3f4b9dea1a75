/**
 * What the Graph screen shows, from its location parameters: `?namespace=shop`, `?namespace=`
 * (every namespace), `?focus=<uid>`; without a namespace, the one people most likely want — the
 * context's own namespace when it has workloads, else the namespace with the most workloads.
 */
import type { ViewParams } from '../../stores/navigation.ts';
import type { GraphScope } from '../../stores/graph.ts';

/** The namespace shown when the location names none. */
export function defaultNamespace(workloadsPerNamespace: ReadonlyMap<string, number>, contextNamespace: string | undefined): string | null {
  if (contextNamespace && (workloadsPerNamespace.get(contextNamespace) ?? 0) > 0) return contextNamespace;
  let best: string | null = null;
  let most = 0;
  for (const [namespace, count] of [...workloadsPerNamespace].sort(([a], [b]) => a.localeCompare(b))) {
    if (count > most) {
      best = namespace;
      most = count;
    }
  }
  return best ?? contextNamespace ?? null;
}

/** The scope the parameters ask for; `fallback` stands in for a missing namespace. */
export function scopeFromParams(params: ViewParams, fallback: string | null): GraphScope {
  const focus = params['focus'] || null;
  const namespace = params['namespace'];
  return { namespace: namespace === undefined ? fallback : namespace === '' ? null : namespace, focus };
}

/** The parameters of a scope (inverse of scopeFromParams). */
export function paramsOf(scope: GraphScope): Record<string, string> {
  return { namespace: scope.namespace ?? '', ...(scope.focus ? { focus: scope.focus } : {}) };
}
