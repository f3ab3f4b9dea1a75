/**
 * ServiceAccount tokens as the TokenRequest API issues them: signed JWTs naming the account
 * (`sub: system:serviceaccount:<ns>:<name>`, the `kubernetes.io` claim with its uid), the
 * audiences and an expiry. Signed with HMAC-SHA256 and a key made per server, so a token works
 * only against the server that issued it; kube-apiserver signs with its service-account key.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The audience and issuer kube-apiserver uses by default (kubeadm, kind). */
export const DEFAULT_AUDIENCE = 'https://kubernetes.default.svc.cluster.local';

/** What a verified token says. */
export interface ServiceAccountClaims {
  namespace: string;
  name: string;
  uid: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
}

/** Why a token was not accepted; `foreign` when it is not one of this issuer's tokens at all. */
export type TokenCheck = { ok: true; claims: ServiceAccountClaims } | { ok: false; why: 'foreign' | 'invalid' | 'expired' };

export interface IssueOptions {
  namespace: string;
  name: string;
  uid: string;
  audiences: string[];
  expirationSeconds: number;
}

const base64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

function decodeJson(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export class ServiceAccountTokens {
  private readonly key: Buffer;
  private readonly kid: string;
  private readonly now: () => number;

  constructor(options: { now: () => number; key?: Buffer }) {
    this.key = options.key ?? randomBytes(32);
    this.kid = createHmac('sha256', this.key).update('kid').digest('base64url').slice(0, 43);
    this.now = options.now;
  }

  /** A signed token and its expiry (ms since the epoch). */
  issue(options: IssueOptions): { token: string; expiresAtMs: number } {
    const iat = Math.floor(this.now() / 1000);
    const exp = iat + options.expirationSeconds;
    const header = { alg: 'HS256', kid: this.kid };
    const payload = {
      aud: options.audiences,
      exp,
      iat,
      iss: DEFAULT_AUDIENCE,
      'kubernetes.io': { namespace: options.namespace, serviceaccount: { name: options.name, uid: options.uid } },
      nbf: iat,
      sub: `system:serviceaccount:${options.namespace}:${options.name}`,
    };
    const signingInput = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
    return { token: `${signingInput}.${this.sign(signingInput)}`, expiresAtMs: exp * 1000 };
  }

  /** Checks a bearer token: one of ours, untampered and not expired. */
  verify(token: string): TokenCheck {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, why: 'foreign' };
    const [headerPart = '', payloadPart = '', signature = ''] = parts;
    const header = decodeJson(headerPart);
    if (!header || header['kid'] !== this.kid) return { ok: false, why: 'foreign' };
    const expected = Buffer.from(this.sign(`${headerPart}.${payloadPart}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, why: 'invalid' };
    const payload = decodeJson(payloadPart);
    const k8s = payload?.['kubernetes.io'] as { namespace?: string; serviceaccount?: { name?: string; uid?: string } } | undefined;
    const exp = payload?.['exp'];
    if (typeof exp !== 'number' || !k8s?.namespace || !k8s.serviceaccount?.name) return { ok: false, why: 'invalid' };
    if (this.now() >= exp * 1000) return { ok: false, why: 'expired' };
    return { ok: true, claims: { namespace: k8s.namespace, name: k8s.serviceaccount.name, uid: k8s.serviceaccount.uid ?? '', exp } };
  }

  private sign(input: string): string {
    return createHmac('sha256', this.key).update(input).digest('base64url');
  }
}
