/**
 * The few API calls the access checks make: SelfSubjectAccessReview, SelfSubjectRulesReview,
 * SelfSubjectReview and plain GETs, over an injected request function (the diff's ApiClient fits,
 * and tests pass a fake), so the checks run the same against a real cluster, the simulator and
 * a counting fake.
 */

/** An API answer: the HTTP status and the parsed JSON body (a `Status` for failures). */
export interface AccessApiResponse {
  status: number;
  body: unknown;
}

/** What the access checks need from a connection to one API server. */
export interface AccessApi {
  /** The server URL, for messages. */
  readonly server: string;
  request(method: 'GET' | 'POST', path: string, body?: { json: unknown; contentType: string }): Promise<AccessApiResponse>;
}

/** A failed API call with the server's status and `Status` message. */
export class AccessApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = 'AccessApiError';
    this.status = status;
  }
}

/** The Status message of a failed answer, else the HTTP status. */
function messageOf(response: AccessApiResponse): string {
  const body = response.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' && body.message ? body.message : `HTTP ${response.status}`;
}

/** GETs a JSON document; non-2xx answers reject with AccessApiError. */
export async function getJson(api: AccessApi, path: string): Promise<unknown> {
  const response = await api.request('GET', path);
  if (response.status < 200 || response.status > 299) throw new AccessApiError(response.status, messageOf(response));
  return response.body;
}

async function create(api: AccessApi, path: string, json: unknown): Promise<unknown> {
  const response = await api.request('POST', path, { json, contentType: 'application/json' });
  if (response.status < 200 || response.status > 299) throw new AccessApiError(response.status, messageOf(response));
  return response.body;
}

/** One question for SelfSubjectAccessReview. */
export interface ResourceQuestion {
  verb: string;
  group: string;
  resource: string;
  /** Absent: the cluster scope (every namespace, for a namespaced kind). */
  namespace?: string;
}

/** A SelfSubjectAccessReview's answer. */
export interface AccessAnswer {
  allowed: boolean;
  /** The authorizer's reason, when it gave one. */
  reason?: string;
}

const AUTHORIZATION = 'authorization.k8s.io/v1';

/** Asks "may I <verb> <resource>" (in a namespace, or cluster-wide); exact, unlike the rules review. */
export async function accessReview(api: AccessApi, question: ResourceQuestion): Promise<AccessAnswer> {
  const body = await create(api, '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    apiVersion: AUTHORIZATION,
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: { verb: question.verb, group: question.group, resource: question.resource, ...(question.namespace !== undefined ? { namespace: question.namespace } : {}) } },
  });
  const status = (body as { status?: { allowed?: unknown; reason?: unknown } } | undefined)?.status;
  return { allowed: status?.allowed === true, ...(typeof status?.reason === 'string' && status.reason ? { reason: status.reason } : {}) };
}

/** A resource rule of a SelfSubjectRulesReview. */
export interface ResourceRule {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
}

/** A SelfSubjectRulesReview's answer for one namespace. */
export interface RulesAnswer {
  rules: ResourceRule[];
  /** The server says the list may miss rules (another authorizer, an evaluation error). */
  incomplete: boolean;
  evaluationError?: string;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Asks "what may I do in <namespace>"; meant for UIs, and may be incomplete (see RulesAnswer). */
export async function rulesReview(api: AccessApi, namespace: string): Promise<RulesAnswer> {
  const body = await create(api, '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { apiVersion: AUTHORIZATION, kind: 'SelfSubjectRulesReview', spec: { namespace } });
  const status = (body as { status?: { resourceRules?: unknown; incomplete?: unknown; evaluationError?: unknown } } | undefined)?.status ?? {};
  const rules = (Array.isArray(status.resourceRules) ? status.resourceRules : []).map((rule: { verbs?: unknown; apiGroups?: unknown; resources?: unknown; resourceNames?: unknown }) => ({
    verbs: strings(rule.verbs),
    apiGroups: strings(rule.apiGroups),
    resources: strings(rule.resources),
    resourceNames: strings(rule.resourceNames),
  }));
  const evaluationError = typeof status.evaluationError === 'string' && status.evaluationError ? status.evaluationError : undefined;
  return { rules, incomplete: status.incomplete === true || evaluationError !== undefined, ...(evaluationError !== undefined ? { evaluationError } : {}) };
}

/** The user as the server sees it. */
export interface Identity {
  username: string;
  groups: string[];
}

/**
 * Asks "who am I" (SelfSubjectReview, authentication.k8s.io/v1 since 1.28); undefined when the
 * server does not serve it, so callers fall back to not knowing.
 */
export async function whoAmI(api: AccessApi): Promise<Identity | undefined> {
  try {
    const body = await create(api, '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
    const info = (body as { status?: { userInfo?: { username?: unknown; groups?: unknown } } } | undefined)?.status?.userInfo;
    return typeof info?.username === 'string' ? { username: info.username, groups: strings(info.groups) } : undefined;
  } catch (error) {
    if (error instanceof AccessApiError && error.status !== 401) return undefined;
    throw error;
  }
}
