/**
 * client-node's KubeConfig for one context's kubeconfig object, as every HTTP client of the
 * engine loads it (the probe and the informers' transport, the diff's client). A cluster served
 * over plain HTTP (`kubectl proxy`'s http://127.0.0.1:8001) is reached as kubectl reaches it:
 * client-node alone refuses it unless the kubeconfig sets `insecure-skip-tls-verify` ("HTTP
 * protocol is not allowed when skipTLSVerify is not set or false"), a TLS setting that means
 * nothing without TLS, while kubectl connects and sends no credentials over it (observed with
 * kubectl 1.32 `-v=9`: no Authorization header to an http:// server whose user has a token; its
 * clientcmd reads a user's auth only for TLS transports). So such a cluster is loaded as skipping
 * verification, and `withoutCredentials` tells the callers to send none, as kubectl. Where the
 * kubeconfig itself sets `insecure-skip-tls-verify` on a plain-HTTP cluster, the credentials are
 * sent as client-node sends them: the user opted into the insecure connection, as before.
 */
import { KubeConfig } from '@kubernetes/client-node';

type Json = Record<string, unknown>;

/** Whether `server` is served over plain HTTP. */
export const plainHttp = (server: string): boolean => /^http:/i.test(server);

/** KubeConfigs whose current cluster is plain HTTP, accepted here without the user's say-so. */
const credentialless = new WeakSet<KubeConfig>();

/** Whether requests made with `kc` go without the user's credentials (see above). */
export const withoutCredentials = (kc: KubeConfig): boolean => credentialless.has(kc);

/** `config` with every plain-HTTP cluster marked `insecure-skip-tls-verify`, and the names of those that were not. */
function acceptPlainHttp(config: object): { config: object; accepted: Set<string> } {
  const accepted = new Set<string>();
  const clusters = (config as { clusters?: unknown }).clusters;
  if (!Array.isArray(clusters)) return { config, accepted };
  const marked = clusters.map((entry: unknown) => {
    const named = entry as { name?: unknown; cluster?: Json } | null;
    const cluster = named?.cluster;
    if (!cluster || typeof cluster['server'] !== 'string' || !plainHttp(cluster['server']) || cluster['insecure-skip-tls-verify'] === true) return entry;
    if (typeof named.name === 'string') accepted.add(named.name);
    return { ...named, cluster: { ...cluster, 'insecure-skip-tls-verify': true } };
  });
  return { config: { ...config, clusters: marked }, accepted };
}

/** Loads a single-context kubeconfig object; throws when it is unusable or names no cluster. */
export function loadClientConfig(config: object): KubeConfig {
  const { config: loadable, accepted } = acceptPlainHttp(config);
  const kc = new KubeConfig();
  kc.loadFromString(JSON.stringify(loadable));
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new Error(`the kubeconfig's current context "${kc.getCurrentContext()}" names no cluster`);
  if (accepted.has(cluster.name)) credentialless.add(kc);
  return kc;
}
