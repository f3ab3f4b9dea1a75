/**
 * The create-only review APIs: SelfSubjectAccessReview ("may I?"), SubjectAccessReview ("may
 * they?"), SelfSubjectRulesReview ("what may I do in this namespace?") and SelfSubjectReview
 * ("who am I?"). Answered from the same authorizer that guards every request, never stored,
 * and echoed back with their status filled in, 201 Created, as kube-apiserver does.
 */
import { badRequest, invalid } from '../errors.ts';
import type { Reply } from '../server/context.ts';
import { decodeKubernetesProtobuf, isKubernetesProtobuf } from '../server/protobuf.ts';
import type { Authorizer } from './authorizer.ts';
import { nonResourceAttributes } from './request-attributes.ts';
import type { Identity, PolicyRule, RequestAttributes } from './types.ts';

const AUTHORIZATION = 'authorization.k8s.io';

interface ResourceAttributesSpec {
  namespace?: string;
  verb?: string;
  group?: string;
  version?: string;
  resource?: string;
  subresource?: string;
  name?: string;
}

interface AccessReviewSpec {
  resourceAttributes?: ResourceAttributesSpec | null;
  nonResourceAttributes?: { path?: string; verb?: string } | null;
  user?: string;
  groups?: string[];
  uid?: string;
  extra?: Record<string, string[]>;
}

type Body = Record<string, unknown> & { metadata?: Record<string, unknown>; spec?: unknown };

/** The request body: JSON, or the Kubernetes protobuf kubectl's typed clients send. */
export function parseReviewBody(raw: Buffer): Body {
  if (isKubernetesProtobuf(raw)) return decodeKubernetesProtobuf(raw) as Body;
  try {
    const value: unknown = JSON.parse(raw.toString('utf8') || '{}');
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Body;
  } catch (error) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(error as Error).message}`);
  }
  throw badRequest('the request body must be a JSON object');
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesOf(user: Identity, kind: string, spec: AccessReviewSpec): RequestAttributes {
  const resource = spec.resourceAttributes ?? undefined;
  const nonResource = spec.nonResourceAttributes ?? undefined;
  if (resource && nonResource) {
    throw invalid(kind, AUTHORIZATION, '', [{ field: 'spec.nonResourceAttributes', message: `Invalid value: ${JSON.stringify(nonResource)}: cannot be specified in combination with resourceAttributes` }]);
  }
  if (nonResource) return nonResourceAttributes(user, nonResource.verb ?? '', nonResource.path ?? '');
  if (!resource) {
    throw invalid(kind, AUTHORIZATION, '', [{ field: 'spec.resourceAttributes', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified' }]);
  }
  return {
    user,
    verb: resource.verb ?? '',
    resourceRequest: true,
    path: '',
    apiGroup: resource.group ?? '',
    apiVersion: resource.version ?? '',
    resource: resource.resource ?? '',
    subresource: resource.subresource ?? '',
    namespace: resource.namespace ?? '',
    name: resource.name ?? '',
  };
}

function echo(body: Body, kind: string, apiVersion: string, status: object): Reply {
  const { metadata, spec } = body;
  return { code: 201, body: { kind, apiVersion, metadata: { ...metadata, creationTimestamp: null }, spec: spec ?? {}, status } };
}

function accessStatus(authorizer: Authorizer, attributes: RequestAttributes): object {
  const decision = authorizer.authorize(attributes);
  return { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) };
}

/** POST selfsubjectaccessreviews: the requesting user's own question. */
export function selfSubjectAccessReview(authorizer: Authorizer, user: Identity, body: Body): Reply {
  const spec = (body.spec ?? {}) as AccessReviewSpec;
  const attributes = attributesOf(user, 'SelfSubjectAccessReview', spec);
  return echo(body, 'SelfSubjectAccessReview', `${AUTHORIZATION}/v1`, accessStatus(authorizer, attributes));
}

/** POST subjectaccessreviews: anyone's question, asked by someone allowed to ask it. */
export function subjectAccessReview(authorizer: Authorizer, body: Body): Reply {
  const spec = (body.spec ?? {}) as AccessReviewSpec;
  if (!spec.user && (spec.groups ?? []).length === 0) {
    throw invalid('SubjectAccessReview', AUTHORIZATION, '', [{ field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified' }]);
  }
  const subject: Identity = { name: spec.user ?? '', groups: spec.groups ?? [], ...(spec.uid ? { uid: spec.uid } : {}) };
  return echo(body, 'SubjectAccessReview', `${AUTHORIZATION}/v1`, accessStatus(authorizer, attributesOf(subject, 'SubjectAccessReview', spec)));
}

/** PolicyRules as SubjectRulesReviewStatus splits them (RBACAuthorizer.RulesFor). */
function splitRules(rules: readonly PolicyRule[]): { resourceRules: object[]; nonResourceRules: object[] } {
  const resourceRules: object[] = [];
  const nonResourceRules: object[] = [];
  for (const rule of rules) {
    if ((rule.resources ?? []).length > 0) {
      resourceRules.push({
        verbs: rule.verbs,
        ...(rule.apiGroups?.length ? { apiGroups: rule.apiGroups } : {}),
        resources: rule.resources,
        ...(rule.resourceNames?.length ? { resourceNames: rule.resourceNames } : {}),
      });
    }
    if ((rule.nonResourceURLs ?? []).length > 0) nonResourceRules.push({ verbs: rule.verbs, nonResourceURLs: rule.nonResourceURLs });
  }
  return { resourceRules, nonResourceRules };
}

/** POST selfsubjectrulesreviews: everything the user may do in `spec.namespace`. */
export function selfSubjectRulesReview(authorizer: Authorizer, user: Identity, body: Body): Reply {
  const namespace = (body.spec as { namespace?: string } | undefined)?.namespace ?? '';
  if (!namespace) throw badRequest('no namespace on request');
  const { rules, errors } = authorizer.rulesFor(user, namespace);
  const evaluationError = errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
  return echo(body, 'SelfSubjectRulesReview', `${AUTHORIZATION}/v1`, { ...splitRules(rules), incomplete: false, ...(evaluationError ? { evaluationError } : {}) });
}

/** POST selfsubjectreviews (`kubectl auth whoami`): the user as the server sees it. */
export function selfSubjectReview(user: Identity, body: Body): Reply {
  const userInfo = { username: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) };
  return { code: 201, body: { kind: 'SelfSubjectReview', apiVersion: 'authentication.k8s.io/v1', metadata: { ...body.metadata, creationTimestamp: null }, status: { userInfo } } };
}
