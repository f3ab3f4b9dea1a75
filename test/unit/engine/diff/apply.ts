/**
 * Applies manifest folders to a cluster as `kubectl apply --server-side` does (field manager
 * `kubectl`, no dry run), for the diff tests, the e2e test and the bench. Built from the diff
 * engine's own loader, discovery and client, so it needs no kubectl.
 */
import { createApiClient } from '../../../../electron/engine/diff/cluster/client.ts';
import { createDiscovery, objectPath } from '../../../../electron/engine/diff/cluster/discovery.ts';
import { loadManifests } from '../../../../electron/engine/diff/load/index.ts';
import type { JsonObject } from '../../../../electron/engine/diff/load/types.ts';

export interface ApplyOptions {
  /** The namespace for objects that name none (default `default`). */
  namespace?: string;
  fieldManager?: string;
}

/** Server-side applies everything under `paths`; Namespaces first. Throws on the first refusal. */
export async function applyManifests(config: object, paths: readonly string[], options: ApplyOptions = {}): Promise<number> {
  const loaded = await loadManifests(paths, { kubectl: null });
  if (loaded.errors.length) throw new Error(`cannot apply: ${loaded.errors.map((e) => `${e.source.file}:${e.source.line} ${e.message}`).join('; ')}`);
  const client = await createApiClient(config);
  const discovery = createDiscovery(client);
  const ordered = [...loaded.manifests].sort((a, b) => Number(b.object['kind'] === 'Namespace') - Number(a.object['kind'] === 'Namespace'));
  try {
    for (const { object } of ordered) {
      const lookup = await discovery.lookup(String(object['apiVersion']), String(object['kind']));
      if ('problem' in lookup) throw new Error(lookup.problem);
      const metadata = { ...(object['metadata'] as JsonObject) };
      if (lookup.resource.namespaced) metadata['namespace'] ??= options.namespace ?? 'default';
      const body = { ...object, metadata };
      const url = `${objectPath(lookup.resource, metadata['namespace'] as string | undefined, String(metadata['name']))}?fieldManager=${options.fieldManager ?? 'kubectl'}&force=true`;
      const response = await client.request('PATCH', url, { json: body, contentType: 'application/apply-patch+yaml' });
      if (response.status >= 300) throw new Error(`apply of ${String(object['kind'])} ${String(metadata['name'])} failed: ${JSON.stringify(response.body)}`);
    }
    return ordered.length;
  } finally {
    client.close();
  }
}

/** Deletes one object (for "deleted from the cluster -> Missing"). */
export async function deleteObject(config: object, path: string): Promise<void> {
  const client = await createApiClient(config);
  try {
    const response = await client.request('DELETE', path);
    if (response.status >= 300 && response.status !== 404) throw new Error(`delete ${path} failed: ${JSON.stringify(response.body)}`);
  } finally {
    client.close();
  }
}
