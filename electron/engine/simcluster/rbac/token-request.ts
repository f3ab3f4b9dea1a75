/**
 * The TokenRequest API (`POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token`, what
 * `kubectl create token NAME` sends): a signed token for an existing ServiceAccount, valid for
 * `spec.expirationSeconds` (default one hour, at least ten minutes) and the requested audiences.
 */
import { invalid, notFound } from '../errors.ts';
import type { Reply } from '../server/context.ts';
import type { ObjectStore } from '../store.ts';
import { parseReviewBody } from './reviews.ts';
import { DEFAULT_AUDIENCE, type ServiceAccountTokens } from './service-account-tokens.ts';

const DEFAULT_EXPIRATION_SECONDS = 3600;
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;

interface TokenRequestSpec {
  audiences?: string[] | null;
  expirationSeconds?: number | null;
  boundObjectRef?: unknown;
}

const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Issues a token for ServiceAccount `name` in `namespace`. */
export function createToken(options: { store: ObjectStore; tokens: ServiceAccountTokens; namespace: string; name: string; body: Buffer }): Reply {
  const { store, namespace, name } = options;
  const body = parseReviewBody(options.body);
  const spec = (body.spec ?? {}) as TokenRequestSpec;
  const expirationSeconds = spec.expirationSeconds ?? DEFAULT_EXPIRATION_SECONDS;
  const fail = (message: string) => invalid('TokenRequest', 'authentication.k8s.io', name, [{ field: 'spec.expirationSeconds', message: `Invalid value: ${expirationSeconds}: ${message}` }]);
  if (!Number.isInteger(expirationSeconds)) throw fail('must be a whole number of seconds');
  if (expirationSeconds < MIN_EXPIRATION_SECONDS) throw fail('may not specify a duration less than 10 minutes');
  if (expirationSeconds > MAX_EXPIRATION_SECONDS) throw fail('may not specify a duration larger than 2^32 seconds');
  const type = store.types.byGVR('', 'v1', 'serviceaccounts');
  const account = type ? store.find(type, namespace, name) : undefined;
  if (!account) throw notFound('serviceaccounts', '', name);
  const audiences = spec.audiences && spec.audiences.length > 0 ? spec.audiences : [DEFAULT_AUDIENCE];
  const issued = options.tokens.issue({ namespace, name, uid: account.metadata.uid, audiences, expirationSeconds });
  return {
    code: 201,
    body: {
      kind: 'TokenRequest',
      apiVersion: 'authentication.k8s.io/v1',
      metadata: { name, namespace, creationTimestamp: null },
      spec: { audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
      status: { token: issued.token, expirationTimestamp: timestamp(issued.expiresAtMs) },
    },
  };
}
