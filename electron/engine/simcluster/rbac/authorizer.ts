/**
 * The authorizer in front of every handler, as kube-apiserver's chain runs it: members of
 * `system:masters` may do anything (the privileged-group authorizer), configured read-only
 * users may get, list and watch anything (an ABAC-style policy line), and everyone else gets
 * what RBAC's Roles, ClusterRoles and bindings in the store grant. `rulesFor` is the same walk
 * for SelfSubjectRulesReview.
 */
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import { ruleAllows } from './rule-match.ts';
import { MASTERS_GROUP, RBAC_GROUP, serviceAccountUser, type Identity, type PolicyRule, type RequestAttributes, type RoleRef, type Subject } from './types.ts';

/** An authorizer's answer; `reason` is what SubjectAccessReview status.reason and a 403's suffix say. */
export interface Decision {
  allowed: boolean;
  reason: string;
}

/** What a user may do in one namespace (or cluster-wide with ''), and what could not be resolved. */
export interface UserRules {
  rules: PolicyRule[];
  /** Resolution errors (a binding naming a missing role), as RBAC reports them. */
  errors: string[];
}

export interface AuthorizerOptions {
  /** Users that may read everything and change nothing (the simulator's read-only token). */
  readOnlyUsers?: readonly string[];
}

const READ_ONLY_VERBS = ['get', 'list', 'watch'];
const READ_ONLY_RULES: PolicyRule[] = [
  { verbs: READ_ONLY_VERBS, apiGroups: ['*'], resources: ['*'] },
  { verbs: ['get'], nonResourceURLs: ['*'] },
];

interface Binding extends KubeObject {
  roleRef?: RoleRef;
  subjects?: Subject[];
}

type Visitor = (source: string | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

function describeSubject(subject: Subject, bindingNamespace: string): string {
  if (subject.kind === 'ServiceAccount') return `${subject.kind} "${subject.name}/${subject.namespace || bindingNamespace}"`;
  return `${subject.kind} "${subject.name}"`;
}

/** The first subject of a binding that names this user (RBAC's appliesTo). */
function appliesTo(user: Identity, subjects: readonly Subject[] | undefined, namespace: string): Subject | undefined {
  return (subjects ?? []).find((subject) => {
    switch (subject.kind) {
      case 'User':
        return subject.name === user.name;
      case 'Group':
        return user.groups.includes(subject.name);
      case 'ServiceAccount': {
        const saNamespace = subject.namespace || namespace;
        return saNamespace !== '' && serviceAccountUser(saNamespace, subject.name) === user.name;
      }
      default:
        return false;
    }
  });
}

export class Authorizer {
  private readonly readOnly: Set<string>;
  private readonly store: ObjectStore;

  constructor(store: ObjectStore, options: AuthorizerOptions = {}) {
    this.store = store;
    this.readOnly = new Set(options.readOnlyUsers ?? []);
  }

  /** Allowed or not, and why (empty when RBAC has nothing to say). */
  authorize(attributes: RequestAttributes): Decision {
    if (attributes.user.groups.includes(MASTERS_GROUP)) return { allowed: true, reason: '' };
    if (this.readOnly.has(attributes.user.name) && READ_ONLY_RULES.some((rule) => ruleAllows(rule, attributes))) return { allowed: true, reason: '' };
    let allowedBy: string | undefined;
    const errors: string[] = [];
    this.visit(attributes.user, attributes.namespace, (source, rule, error) => {
      if (error) errors.push(error);
      if (rule && ruleAllows(rule, attributes)) {
        allowedBy = source;
        return false;
      }
      return true;
    });
    if (allowedBy !== undefined) return { allowed: true, reason: `RBAC: allowed by ${allowedBy}` };
    return { allowed: false, reason: errors.length === 0 ? '' : `RBAC: ${errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`}` };
  }

  /**
   * Every rule that applies to the user in `namespace` ('' for cluster-wide bindings only). As
   * upstream, the privileged-group authorizer lists no rules: system:masters shows what its
   * cluster-admin binding grants.
   */
  rulesFor(user: Identity, namespace: string): UserRules {
    const rules: PolicyRule[] = this.readOnly.has(user.name) ? structuredClone(READ_ONLY_RULES) : [];
    const errors: string[] = [];
    this.visit(user, namespace, (_source, rule, error) => {
      if (error) errors.push(error);
      if (rule) rules.push(structuredClone(rule));
      return true;
    });
    return { rules, errors };
  }

  private type(plural: string) {
    const type = this.store.types.byGVR(RBAC_GROUP, 'v1', plural);
    if (!type) throw new Error(`the simulated cluster does not serve ${plural}.${RBAC_GROUP}`);
    return type;
  }

  private roleRules(ref: RoleRef | undefined, bindingNamespace: string): { rules: PolicyRule[] } | { error: string } {
    const kind = ref?.kind ?? '';
    const name = ref?.name ?? '';
    if (kind === 'Role') {
      const role = this.store.find(this.type('roles'), bindingNamespace, name);
      return role ? { rules: (role['rules'] as PolicyRule[] | undefined) ?? [] } : { error: `role.${RBAC_GROUP} "${name}" not found` };
    }
    if (kind === 'ClusterRole') {
      const role = this.store.find(this.type('clusterroles'), undefined, name);
      return role ? { rules: (role['rules'] as PolicyRule[] | undefined) ?? [] } : { error: `clusterrole.${RBAC_GROUP} "${name}" not found` };
    }
    return { error: `unsupported role reference kind: "${kind}"` };
  }

  /** RBAC's VisitRulesFor: cluster role bindings first, then the namespace's role bindings; stops when `visitor` says so. */
  private visit(user: Identity, namespace: string, visitor: Visitor): void {
    const scopes: Array<{ bindings: Binding[]; namespace: string; describe: (binding: Binding, subject: Subject) => string }> = [
      {
        bindings: this.store.all(this.type('clusterrolebindings')) as Binding[],
        namespace: '',
        describe: (b, s) => `ClusterRoleBinding "${b.metadata.name}" of ${b.roleRef?.kind ?? ''} "${b.roleRef?.name ?? ''}" to ${describeSubject(s, '')}`,
      },
    ];
    if (namespace) {
      scopes.push({
        bindings: this.store.all(this.type('rolebindings'), namespace) as Binding[],
        namespace,
        describe: (b, s) => `RoleBinding "${b.metadata.name}/${namespace}" of ${b.roleRef?.kind ?? ''} "${b.roleRef?.name ?? ''}" to ${describeSubject(s, namespace)}`,
      });
    }
    for (const scope of scopes) {
      for (const binding of scope.bindings) {
        const subject = appliesTo(user, binding.subjects, scope.namespace);
        if (!subject) continue;
        const resolved = this.roleRules(binding.roleRef, scope.namespace);
        if ('error' in resolved) {
          if (!visitor(undefined, undefined, resolved.error)) return;
          continue;
        }
        const source = scope.describe(binding, subject);
        for (const rule of resolved.rules) if (!visitor(source, rule, undefined)) return;
      }
    }
  }
}
