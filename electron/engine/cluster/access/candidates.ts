/**
 * Where a restricted user's namespaces come from, when a cluster-wide list is forbidden: the
 * namespace list (if the user may list namespaces), the kubeconfig context's namespace, the
 * namespaces the user added for this context, and the namespaces of RoleBindings the user can
 * read that name the user or one of its groups. Each source is tried on its own; one that is
 * forbidden or fails is recorded as a review and the others still count.
 *
 * RoleBindings are read cluster-wide only: a RoleBinding always lives in the namespace it grants,
 * so reading them namespace by namespace could only find namespaces already known.
 */
import type { AccessReview, NamespaceSource } from '../../../../shared/access.ts';
import { AccessApiError, getJson, type AccessApi, type Identity } from './api.ts';

/** What the candidate search starts from. */
export interface CandidateInputs {
  api: AccessApi;
  /** The kubeconfig context's namespace, if it names one. */
  contextNamespace?: string | undefined;
  /** Namespaces the user added by hand for this context. */
  userNamespaces: readonly string[];
  /** The user as the server sees it; unknown: every readable RoleBinding counts. */
  identity: Identity | undefined;
  record: (review: AccessReview) => void;
}

/** Candidate namespaces, each with every source that named it, in first-seen order. */
export type Candidates = Map<string, NamespaceSource[]>;

const ROLE_BINDINGS_PATH = '/apis/rbac.authorization.k8s.io/v1/rolebindings';

function add(candidates: Candidates, name: string, source: NamespaceSource): void {
  const sources = candidates.get(name);
  if (!sources) candidates.set(name, [source]);
  else if (!sources.includes(source)) sources.push(source);
}

interface ListItem {
  metadata?: { name?: unknown; namespace?: unknown };
  subjects?: Array<{ kind?: unknown; name?: unknown; namespace?: unknown }>;
}

function itemsOf(body: unknown): ListItem[] {
  const items = (body as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? (items as ListItem[]) : [];
}

/** Whether a RoleBinding's subjects name this user, one of its groups, or its ServiceAccount. */
export function bindsIdentity(subjects: ListItem['subjects'], identity: Identity): boolean {
  return (subjects ?? []).some((s) => {
    if (s.kind === 'User') return s.name === identity.username;
    if (s.kind === 'Group') return typeof s.name === 'string' && identity.groups.includes(s.name);
    if (s.kind === 'ServiceAccount') return identity.username === `system:serviceaccount:${String(s.namespace)}:${String(s.name)}`;
    return false;
  });
}

/** Lists a collection; a 403 or other API failure is a review, and yields nothing. */
async function tryList(inputs: CandidateInputs, path: string, question: string): Promise<ListItem[] | undefined> {
  try {
    const items = itemsOf(await getJson(inputs.api, path));
    inputs.record({ review: 'list', namespace: null, question, allowed: true, message: `${items.length} found` });
    return items;
  } catch (error) {
    if (!(error instanceof AccessApiError) || error.status === 401) throw error;
    inputs.record({ review: 'list', namespace: null, question, allowed: false, message: error.message });
    return undefined;
  }
}

/** Collects the candidate namespaces from every source; rejects only when the server cannot be asked at all. */
export async function gatherCandidates(inputs: CandidateInputs): Promise<Candidates> {
  const candidates: Candidates = new Map();
  const namespaces = await tryList(inputs, '/api/v1/namespaces', 'list namespaces');
  for (const item of namespaces ?? []) if (typeof item.metadata?.name === 'string') add(candidates, item.metadata.name, 'namespace-list');
  if (inputs.contextNamespace) add(candidates, inputs.contextNamespace, 'context');
  for (const name of inputs.userNamespaces) add(candidates, name, 'user');
  const bindings = await tryList(inputs, ROLE_BINDINGS_PATH, 'list rolebindings.rbac.authorization.k8s.io');
  for (const item of bindings ?? []) {
    const namespace = item.metadata?.namespace;
    if (typeof namespace !== 'string') continue;
    if (inputs.identity && !bindsIdentity(item.subjects, inputs.identity)) continue;
    add(candidates, namespace, 'role-bindings');
  }
  return candidates;
}
