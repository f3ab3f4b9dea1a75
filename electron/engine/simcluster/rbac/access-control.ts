/**
 * Access control for the simulated API server, in kube-apiserver's order: authenticate (client
 * certificate, ServiceAccount token, token table, legacy tokens), authorize every request (the
 * privileged group, read-only users, RBAC) with the real 403 on a denial, then serve the access
 * APIs themselves (TokenRequest, the access and rules reviews, SelfSubjectReview).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { Reply } from '../server/context.ts';
import type { ObjectStore } from '../store.ts';
import { Authorizer } from './authorizer.ts';
import { forbiddenError } from './forbidden.ts';
import { Authenticator, READ_ONLY_USER, type LegacyTokens, type PeerCertificate, type TokenUser } from './identity.ts';
import { impersonate } from './impersonation.ts';
import { requestAttributes } from './request-attributes.ts';
import { parseReviewBody, selfSubjectAccessReview, selfSubjectRulesReview, selfSubjectReview, subjectAccessReview } from './reviews.ts';
import { ServiceAccountTokens } from './service-account-tokens.ts';
import { createToken } from './token-request.ts';
import type { Identity, RequestAttributes } from './types.ts';

export interface AccessControlOptions {
  store: ObjectStore;
  now: () => number;
  legacy?: LegacyTokens;
}

/** The verified client certificate's subject, when the client sent one the CA signed. */
function peerCertificate(req: IncomingMessage): PeerCertificate | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.authorized || typeof socket.getPeerCertificate !== 'function') return undefined;
  const subject = socket.getPeerCertificate().subject as Record<string, string | string[] | undefined> | undefined;
  const cn = subject?.['CN'];
  const o = subject?.['O'];
  if (typeof cn !== 'string' || cn === '') return undefined;
  return { commonName: cn, organizations: o === undefined ? [] : Array.isArray(o) ? o : [o] };
}

export class AccessControl {
  readonly authorizer: Authorizer;
  readonly serviceAccountTokens: ServiceAccountTokens;
  private readonly authenticator: Authenticator;
  private readonly tokenTable = new Map<string, TokenUser>();
  private readonly store: ObjectStore;

  constructor(options: AccessControlOptions) {
    this.store = options.store;
    this.serviceAccountTokens = new ServiceAccountTokens({ now: options.now });
    this.authorizer = new Authorizer(options.store, { readOnlyUsers: options.legacy?.readOnly ? [READ_ONLY_USER] : [] });
    this.authenticator = new Authenticator({
      store: options.store,
      serviceAccountTokens: this.serviceAccountTokens,
      tokenTable: this.tokenTable,
      ...(options.legacy ? { legacy: options.legacy } : {}),
    });
  }

  /** Adds a row to the static token table: `token` authenticates as `user`. */
  addTokenUser(token: string, user: TokenUser): void {
    this.tokenTable.set(token, { ...user });
  }

  /** The identity a request acts as; throws 401 when its credentials are refused, 403 when it may not impersonate. */
  identify(req: IncomingMessage, publicPath: boolean): Identity {
    const requester = this.authenticator.authenticate({ authorization: req.headers.authorization, certificate: peerCertificate(req), publicPath });
    return impersonate(this.authorizer, requester, req.headers);
  }

  /** Authorizes a request before anything else looks at it; throws the 403 Status when denied. */
  authorize(user: Identity, method: string, url: URL): RequestAttributes {
    const attributes = requestAttributes(user, method, url.pathname, url.searchParams);
    const decision = this.authorizer.authorize(attributes);
    if (!decision.allowed) throw forbiddenError(attributes, decision.reason);
    return attributes;
  }

  /** Serves the request when it is for one of the access APIs; undefined for everything else. */
  serve(user: Identity, attributes: RequestAttributes, body: Buffer): Reply | undefined {
    if (!attributes.resourceRequest || attributes.verb !== 'create' || attributes.apiVersion !== 'v1') return undefined;
    const { apiGroup, resource, subresource, name, namespace } = attributes;
    if (apiGroup === '' && resource === 'serviceaccounts' && subresource === 'token' && name && namespace) {
      return createToken({ store: this.store, tokens: this.serviceAccountTokens, namespace, name, body });
    }
    if (name || subresource) return undefined;
    if (apiGroup === 'authorization.k8s.io') {
      if (resource === 'selfsubjectaccessreviews') return selfSubjectAccessReview(this.authorizer, user, parseReviewBody(body));
      if (resource === 'selfsubjectrulesreviews') return selfSubjectRulesReview(this.authorizer, user, parseReviewBody(body));
      if (resource === 'subjectaccessreviews') return subjectAccessReview(this.authorizer, parseReviewBody(body));
    }
    if (apiGroup === 'authentication.k8s.io' && resource === 'selfsubjectreviews') return selfSubjectReview(user, parseReviewBody(body));
    return undefined;
  }
}
