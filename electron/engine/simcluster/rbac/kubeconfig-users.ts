/**
 * Kubeconfigs for preset users: a context per user (`<context>-<user>`) next to the admin's, on
 * the same cluster entry, with the user's client certificate (TLS) or bearer token.
 */
import type { KubeconfigDocument } from '../server/kubeconfig.ts';
import type { UserCredentials } from './preset-users.ts';

/** A kubeconfig `users[].user` entry. */
export type KubeconfigUser = { token: string } | { 'client-certificate-data': string; 'client-key-data': string };

/** The user's kubeconfig credentials: the certificate when there is one and `prefer` allows it. */
export function kubeconfigUser(credentials: UserCredentials, prefer: 'certificate' | 'token'): KubeconfigUser {
  if (prefer === 'certificate' && credentials.certificate) {
    return {
      'client-certificate-data': Buffer.from(credentials.certificate.certPem).toString('base64'),
      'client-key-data': Buffer.from(credentials.certificate.keyPem).toString('base64'),
    };
  }
  return { token: credentials.token };
}

/** The context's `namespace` field, when the preset names one. */
const namespaceOf = (credentials: UserCredentials): { namespace?: string } => (credentials.user.contextNamespace ? { namespace: credentials.user.contextNamespace } : {});

/** The context name of a user's context beside `base`: `kubedrift-demo-dev`. */
export function userContextName(base: string, user: string): string {
  return `${base}-${user}`;
}

/** `base` (the admin's single-context kubeconfig) with one more context per user; the current context stays the admin's. */
export function withUserContexts(base: KubeconfigDocument, users: readonly UserCredentials[], prefer: 'certificate' | 'token'): KubeconfigDocument {
  const context = base.contexts[0];
  if (!context) return base;
  const doc = structuredClone(base);
  for (const credentials of users) {
    const name = userContextName(context.name, credentials.user.name);
    doc.users.push({ name, user: kubeconfigUser(credentials, prefer) });
    doc.contexts.push({ name, context: { cluster: context.context.cluster, user: name, ...namespaceOf(credentials) } });
  }
  return doc;
}

/** A single-context kubeconfig for one user, on the admin kubeconfig's cluster. */
export function userKubeconfig(base: KubeconfigDocument, credentials: UserCredentials, options: { contextName: string; prefer: 'certificate' | 'token' }): KubeconfigDocument {
  const cluster = base.clusters[0];
  if (!cluster) return base;
  const name = options.contextName;
  return {
    ...structuredClone(base),
    clusters: [{ name, cluster: structuredClone(cluster.cluster) }],
    users: [{ name, user: kubeconfigUser(credentials, options.prefer) }],
    contexts: [{ name, context: { cluster: name, user: name, ...namespaceOf(credentials) } }],
    'current-context': name,
  };
}
