/**
 * Helpers the fault tests use on the simulated cluster: a recording request matcher for
 * `failRequests`, a cut-and-compact that forces 410 Gone, a plain client GET, and a kubeconfig
 * with several simulated clusters as contexts.
 */
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { typeById, type ResourceType } from '../../electron/engine/simcluster/resources.ts';
import type { RequestMatcher } from '../../electron/engine/simcluster/server/faults.ts';

const PODS = typeById('pods') as ResourceType;

/** Matches the API GETs `fail` picks (all by default) and records the path of each it matched. */
export function failingGets(failed: string[], fail: (requestPath: string) => boolean = () => true): RequestMatcher {
  return (method, requestPath) => {
    if (method !== 'GET' || !requestPath.startsWith('/api') || !fail(requestPath)) return false;
    failed.push(requestPath);
    return true;
  };
}

/**
 * Cuts every watch and compacts the history past every resourceVersion a client holds (a write
 * to a pod of `namespace` between the two makes it strictly newer), so every re-watch is
 * answered 410 Gone.
 */
export function cutAndCompact(cluster: SimCluster, namespace: string): void {
  if (cluster.server.faults.cutWatches() === 0) throw new Error('there was no watch to cut');
  const pod = cluster.store.all(PODS, namespace)[0];
  if (!pod) throw new Error(`no pod in ${namespace} to touch`);
  cluster.store.mutate(PODS, namespace, pod.metadata.name, (copy) => {
    copy.metadata.labels = { ...copy.metadata.labels, 'faults.kubedrift.dev/touched': String(Date.now()) };
  });
  cluster.server.faults.compact();
}

/** A GET straight to the simulator, as any client would send it; rejects on a non-200. */
export function getFromSim(cluster: SimCluster, requestPath: string): Promise<unknown> {
  const token = cluster.kubeconfigObject().users[0]?.user.token;
  return new Promise((resolve, reject) => {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const req = https.get(`${cluster.server.url}${requestPath}`, { ca: cluster.server.caPem, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(body)) : reject(new Error(`GET ${requestPath}: ${res.statusCode} ${body}`))));
    });
    req.on('error', reject);
  });
}

/** Writes one kubeconfig whose contexts are the given clusters (the first is current). */
export async function writeSimKubeconfig(file: string, contexts: Array<{ name: string; cluster: SimCluster }>): Promise<void> {
  const documents = contexts.map(({ name, cluster }) => cluster.kubeconfigObject(name));
  const [first] = documents;
  if (!first) throw new Error('a kubeconfig needs a context');
  const merged = {
    ...first,
    clusters: documents.flatMap((d) => d.clusters),
    users: documents.flatMap((d) => d.users),
    contexts: documents.flatMap((d) => d.contexts),
  };
  await writeFile(file, JSON.stringify(merged), 'utf8');
}
