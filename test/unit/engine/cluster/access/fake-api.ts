/**
 * A counting fake of the review APIs for the access checks: a user allowed to list and watch
 * some kinds in some namespaces (changeable mid-test), with an adjustable rules review, real
 * Kubernetes JSON shapes, and a record of every request and of the most requests in flight.
 */
import type { AccessApi, AccessApiResponse } from '../../../../../electron/engine/cluster/access/api.ts';
import type { AccessKind } from '../../../../../electron/engine/cluster/access/probe.ts';

export const KINDS: AccessKind[] = [
  { key: 'pods', ref: { group: '', plural: 'pods', kind: 'Pod', namespaced: true } },
  { key: 'deployments.apps', ref: { group: 'apps', plural: 'deployments', kind: 'Deployment', namespaced: true } },
  { key: 'nodes', ref: { group: '', plural: 'nodes', kind: 'Node', namespaced: false } },
];

function forbidden(message: string): AccessApiResponse {
  return { status: 403, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'Forbidden', details: {}, code: 403 } };
}

export class FakeAccessApi implements AccessApi {
  readonly server = 'https://fake.example:6443';
  /** Namespace -> kind keys the user may list and watch there. */
  allowed = new Map<string, Set<string>>();
  /** The rules review claims more than is allowed (an SSRR that disagrees with the authorizer). */
  rulesClaimEverything = false;
  /** The rules review says it is incomplete and lists nothing. */
  rulesIncomplete = false;
  /** Namespaces whose rules review answers 500. */
  failRules = new Set<string>();
  delayMs = 2;
  inFlight = 0;
  maxInFlight = 0;
  readonly requests: string[] = [];

  allow(namespace: string, kinds: string[]): void {
    this.allowed.set(namespace, new Set(kinds));
  }

  async request(method: 'GET' | 'POST', path: string, body?: { json: unknown }): Promise<AccessApiResponse> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      return this.answer(method, path, (body?.json ?? {}) as { spec?: Record<string, unknown> });
    } finally {
      this.inFlight -= 1;
    }
  }

  private answer(method: string, path: string, json: { spec?: Record<string, unknown> }): AccessApiResponse {
    const spec = json.spec ?? {};
    if (method === 'POST' && path.endsWith('/selfsubjectaccessreviews')) {
      const a = spec.resourceAttributes as { verb: string; group: string; resource: string; namespace?: string };
      const key = a.group ? `${a.resource}.${a.group}` : a.resource;
      this.requests.push(`SSAR ${a.verb} ${key} ${a.namespace ?? '*'}`);
      const allowed = a.namespace !== undefined && (this.allowed.get(a.namespace)?.has(key) ?? false);
      return { status: 201, body: { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status: { allowed } } };
    }
    if (method === 'POST' && path.endsWith('/selfsubjectrulesreviews')) {
      const namespace = spec.namespace as string;
      this.requests.push(`SSRR ${namespace}`);
      if (this.failRules.has(namespace)) {
        return { status: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Internal error occurred: etcdserver: request timed out', reason: 'InternalError', code: 500 } };
      }
      const keys = this.rulesClaimEverything ? KINDS.map((k) => k.key) : this.rulesIncomplete ? [] : [...(this.allowed.get(namespace) ?? [])];
      const resourceRules = keys.map((key) => {
        const [resource, ...group] = key.split('.');
        return { verbs: ['get', 'list', 'watch'], apiGroups: [group.join('.')], resources: [resource] };
      });
      const status = { resourceRules, nonResourceRules: [], incomplete: this.rulesIncomplete, ...(this.rulesIncomplete ? { evaluationError: 'webhook authorizer does not list rules' } : {}) };
      return { status: 201, body: { kind: 'SelfSubjectRulesReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null }, spec, status } };
    }
    if (method === 'POST' && path.endsWith('/selfsubjectreviews')) {
      this.requests.push('whoami');
      return { status: 201, body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: { username: 'dev', groups: ['system:authenticated'] } } } };
    }
    this.requests.push(`GET ${path}`);
    if (path === '/api/v1/namespaces') return forbidden('namespaces is forbidden: User "dev" cannot list resource "namespaces" in API group "" at the cluster scope');
    if (path.startsWith('/apis/rbac.authorization.k8s.io/v1/rolebindings')) {
      return forbidden('rolebindings.rbac.authorization.k8s.io is forbidden: User "dev" cannot list resource "rolebindings" in API group "rbac.authorization.k8s.io" at the cluster scope');
    }
    const name = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(path)?.[1];
    if (name) return forbidden(`namespaces "${name}" is forbidden: User "dev" cannot get resource "namespaces" in API group "" in the namespace "${name}"`);
    return { status: 404, body: { kind: 'Status', apiVersion: 'v1', status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', code: 404 } };
  }
}
