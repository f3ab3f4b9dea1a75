/** Writes kubeconfig files the way users have them: several clusters, users and contexts. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';

export interface FixtureContext {
  name: string;
  server: string;
  namespace?: string;
  cluster?: string;
  user?: string;
}

export function kubeconfigYaml(contexts: FixtureContext[], currentContext?: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': currentContext ?? contexts[0]?.name ?? '',
    clusters: contexts.map((c) => ({ name: c.cluster ?? `${c.name}-cluster`, cluster: { server: c.server, 'insecure-skip-tls-verify': true } })),
    users: contexts.map((c) => ({ name: c.user ?? `${c.name}-user`, user: { token: `token-for-${c.name}` } })),
    contexts: contexts.map((c) => ({
      name: c.name,
      context: { cluster: c.cluster ?? `${c.name}-cluster`, user: c.user ?? `${c.name}-user`, ...(c.namespace ? { namespace: c.namespace } : {}) },
    })),
  });
}

export async function writeKubeconfig(dir: string, file: string, contexts: FixtureContext[], currentContext?: string): Promise<string> {
  const full = path.join(dir, file);
  await writeFile(full, kubeconfigYaml(contexts, currentContext), 'utf8');
  return full;
}
