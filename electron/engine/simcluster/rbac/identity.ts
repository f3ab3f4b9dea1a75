/**
 * Who sent a request, from the credentials kube-apiserver's authenticators accept, in their
 * order: a client certificate signed by the cluster CA (CN = user, O = groups), then a bearer
 * token (a ServiceAccount token from the TokenRequest API, a token of the static token table, or
 * one of the simulator's two legacy tokens). Every authenticated user is in
 * `system:authenticated`. Without credentials a request is anonymous where the server requires
 * tokens, and the cluster admin where it does not (the simulator's open default).
 */
import { unauthorized } from '../errors.ts';
import type { ObjectStore } from '../store.ts';
import type { ServiceAccountTokens } from './service-account-tokens.ts';
import { ANONYMOUS_USER, AUTHENTICATED_GROUP, MASTERS_GROUP, UNAUTHENTICATED_GROUP, serviceAccountGroups, serviceAccountUser, type Identity } from './types.ts';

/** The user behind the read-write token (and every request of an open server). */
export const ADMIN_USER = 'admin';
/** The user behind the read-only token. */
export const READ_ONLY_USER = 'readonly';

/** The cluster admin: a member of system:masters, as kubeadm's admin.conf user is. */
export const ADMIN_IDENTITY: Identity = { name: ADMIN_USER, groups: [MASTERS_GROUP, AUTHENTICATED_GROUP] };

/** A row of the static token table (kube-apiserver's --token-auth-file). */
export interface TokenUser {
  name: string;
  uid?: string;
  groups?: string[];
}

/** The simulator's legacy tokens: a read-write one (the admin) and a read-only one. */
export interface LegacyTokens {
  readWrite?: string;
  readOnly?: string;
}

/** The subject of a client certificate the TLS layer verified against the cluster CA. */
export interface PeerCertificate {
  commonName: string;
  organizations: string[];
}

export interface AuthenticatorOptions {
  store: ObjectStore;
  serviceAccountTokens: ServiceAccountTokens;
  legacy?: LegacyTokens;
  /** token → user. */
  tokenTable?: ReadonlyMap<string, TokenUser>;
}

/** What a request presents. */
export interface Credentials {
  authorization?: string | undefined;
  certificate?: PeerCertificate | undefined;
  /** /version and the health checks: open to anonymous users. */
  publicPath: boolean;
}

function withAuthenticated(groups: readonly string[]): string[] {
  return groups.includes(AUTHENTICATED_GROUP) ? [...groups] : [...groups, AUTHENTICATED_GROUP];
}

export class Authenticator {
  private readonly options: AuthenticatorOptions;

  constructor(options: AuthenticatorOptions) {
    this.options = options;
  }

  /** True when the server asks for credentials (legacy tokens configured). */
  private get requiresCredentials(): boolean {
    return Boolean(this.options.legacy?.readWrite || this.options.legacy?.readOnly);
  }

  /** The identity of a request; throws the 401 Status when its credentials are not accepted. */
  authenticate(credentials: Credentials): Identity {
    if (credentials.certificate?.commonName) {
      return { name: credentials.certificate.commonName, groups: withAuthenticated(credentials.certificate.organizations) };
    }
    const token = /^Bearer\s+(\S+)\s*$/i.exec(credentials.authorization ?? '')?.[1];
    if (token) return this.fromToken(token);
    if (this.requiresCredentials) {
      if (credentials.publicPath) return { name: ANONYMOUS_USER, groups: [UNAUTHENTICATED_GROUP] };
      throw unauthorized();
    }
    return ADMIN_IDENTITY;
  }

  private fromToken(token: string): Identity {
    const checked = this.options.serviceAccountTokens.verify(token);
    if (checked.ok) {
      const { namespace, name, uid } = checked.claims;
      const type = this.options.store.types.byGVR('', 'v1', 'serviceaccounts');
      const account = type ? this.options.store.find(type, namespace, name) : undefined;
      // A token outlives neither its ServiceAccount nor a new account of the same name.
      if (!account || (uid && account.metadata.uid !== uid)) throw unauthorized();
      return { name: serviceAccountUser(namespace, name), uid: account.metadata.uid, groups: serviceAccountGroups(namespace) };
    }
    if (checked.why !== 'foreign') throw unauthorized();
    const user = this.options.tokenTable?.get(token);
    if (user) return { name: user.name, ...(user.uid ? { uid: user.uid } : {}), groups: withAuthenticated(user.groups ?? []) };
    const legacy = this.options.legacy;
    if (legacy?.readWrite && token === legacy.readWrite) return ADMIN_IDENTITY;
    if (legacy?.readOnly && token === legacy.readOnly) return { name: READ_ONLY_USER, groups: [AUTHENTICATED_GROUP] };
    if (this.requiresCredentials) throw unauthorized();
    return ADMIN_IDENTITY;
  }
}
