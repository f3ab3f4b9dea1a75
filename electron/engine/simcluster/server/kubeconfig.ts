/**
 * Kubeconfigs that point clients at the simulated API server: the per-run CA as
 * certificate-authority-data and an optional bearer token.
 */
import { stringify } from 'yaml';

/** The context (and cluster and user) name of the demo cluster. */
export const DEFAULT_CONTEXT_NAME = 'kubedrift-demo';

/** What a kubeconfig for the server needs. */
export interface KubeconfigOptions {
  /** `https://127.0.0.1:PORT` (or `http://` when TLS is off). */
  server: string;
  caPem?: string;
  token?: string;
  contextName?: string;
  namespace?: string;
}

/** A kubeconfig `clusters[].cluster` entry. */
export interface KubeconfigCluster {
  server: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
}

/** A single-context kubeconfig. */
export interface KubeconfigDocument {
  apiVersion: 'v1';
  kind: 'Config';
  preferences: Record<string, never>;
  clusters: Array<{ name: string; cluster: KubeconfigCluster }>;
  users: Array<{ name: string; user: { token?: string; 'client-certificate-data'?: string; 'client-key-data'?: string } }>;
  contexts: Array<{ name: string; context: { cluster: string; user: string; namespace?: string } }>;
  'current-context': string;
}

/** The kubeconfig as an object. */
export function kubeconfigObjectFor(options: KubeconfigOptions): KubeconfigDocument {
  const name = options.contextName ?? DEFAULT_CONTEXT_NAME;
  const cluster: KubeconfigCluster = { server: options.server };
  if (options.server.startsWith('https:')) {
    if (options.caPem) cluster['certificate-authority-data'] = Buffer.from(options.caPem).toString('base64');
  } else {
    // client-node 2.x refuses an http:// server unless TLS verification is explicitly off;
    // kubectl ignores the flag for plain HTTP.
    cluster['insecure-skip-tls-verify'] = true;
  }
  return {
    apiVersion: 'v1',
    kind: 'Config',
    preferences: {},
    clusters: [{ name, cluster }],
    users: [{ name, user: options.token ? { token: options.token } : {} }],
    contexts: [{ name, context: { cluster: name, user: name, ...(options.namespace ? { namespace: options.namespace } : {}) } }],
    'current-context': name,
  };
}

/** The kubeconfig as YAML, ready to write to a file or pass to `KubeConfig.loadFromString`. */
export function kubeconfigFor(options: KubeconfigOptions): string {
  return stringify(kubeconfigObjectFor(options));
}
