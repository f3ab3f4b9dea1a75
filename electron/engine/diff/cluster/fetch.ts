/**
 * The two states of one object: live (GET) and predicted — what the cluster would hold after
 * applying the manifest — from the server itself: server-side apply with `dryRun=All` and
 * force (what `kubectl diff --server-side --force-conflicts` asks) for an object that exists, as
 * the manager that applies it (else `kubedrift`), pruned by its last-applied annotation when
 * kubectl applied it client-side; a dry-run create for one that does not exist. A 403 on the dry
 * run falls back to a client-side prediction, flagged approximate.
 */
import type { JsonObject } from '../load/types.ts';
import { isObject } from '../load/types.ts';
import { deepEqual } from '../fields/compare.ts';
import type { ListSchema } from '../fields/list-schema.ts';
import { predictClientSide } from './approximate.ts';
import { lastAppliedOf, pruneLastApplied } from './prune.ts';
import { statusMessage, type ApiClient, type ApiResponse } from './client.ts';
import { collectionPath, objectPath, type ResourceInfo } from './discovery.ts';

export const FIELD_MANAGER = 'kubedrift';
const APPLY_PATCH = 'application/apply-patch+yaml';

export type Fetched =
  | { type: 'ok'; live: JsonObject | undefined; predicted: JsonObject; approximate?: string }
  | { type: 'error'; message: string; namespaceMissing?: string };

const ok2xx = (response: ApiResponse) => response.status >= 200 && response.status <= 299;

function describe(resource: ResourceInfo, namespace: string | undefined, name: string): string {
  const plural = resource.group ? `${resource.plural}.${resource.group}` : resource.plural;
  return `${plural} "${name}"${resource.namespaced ? ` in namespace "${namespace ?? 'default'}"` : ''}`;
}

function approximateReason(response: ApiResponse, verb: string): string {
  return `Approximate: the server refused the dry-run ${verb} (403: ${statusMessage(response)}), so this was compared client-side, without the server's defaults and admission.`;
}

/** A 404 from a dry-run create that names a namespace, not the object's kind. */
function missingNamespace(response: ApiResponse): string | undefined {
  const details = (response.body as { details?: { kind?: unknown; name?: unknown } } | undefined)?.details;
  return response.status === 404 && details?.kind === 'namespaces' && typeof details.name === 'string' ? details.name : undefined;
}

/**
 * The field manager to dry-run as: the one manager that server-side applies this object (so
 * fields it set and the file no longer has are predicted to go, as its next apply would remove
 * them), else `kubedrift`.
 */
export function applyManagerOf(live: JsonObject): string {
  const entries = isObject(live['metadata']) && Array.isArray(live['metadata']['managedFields']) ? live['metadata']['managedFields'] : [];
  const appliers = new Set(entries.filter((entry) => isObject(entry) && entry['operation'] === 'Apply' && !entry['subresource'] && typeof entry['manager'] === 'string').map((entry) => (entry as JsonObject)['manager'] as string));
  return appliers.size === 1 ? ([...appliers][0] as string) : FIELD_MANAGER;
}

/**
 * For an object kubectl applied client-side: the prediction without the fields its last apply set
 * and the file dropped. The pruned object goes back to the server as a dry-run update, so the
 * server defaults what was removed (a dropped `targetPort` comes back as the port), as
 * `kubectl apply` would find it.
 */
async function withPruning(client: ApiClient, resource: ResourceInfo, live: JsonObject, manifest: JsonObject, predicted: JsonObject, lists: ListSchema | undefined): Promise<Fetched> {
  const lastApplied = lastAppliedOf(live);
  if (!lastApplied) return { type: 'ok', live, predicted };
  const pruned = pruneLastApplied(structuredClone(predicted), lastApplied, manifest, lists);
  if (deepEqual(pruned, predicted)) return { type: 'ok', live, predicted };
  const metadata = pruned['metadata'] as JsonObject;
  const updated = await client.request('PUT', `${objectPath(resource, metadata['namespace'] as string | undefined, String(metadata['name']))}?dryRun=All&fieldManager=${FIELD_MANAGER}`, { json: pruned, contentType: 'application/json' });
  if (ok2xx(updated) && isObject(updated.body)) return { type: 'ok', live, predicted: updated.body };
  if (updated.status === 403) return { type: 'ok', live, predicted: pruned, approximate: approximateReason(updated, 'update') };
  return { type: 'error', message: `the server rejected the dry-run update that removes fields dropped from the file: ${statusMessage(updated)}` };
}

/** The live and predicted states of one object; `lists` is a custom kind's list schema, for the client-side fallbacks. */
export async function fetchStates(client: ApiClient, resource: ResourceInfo, manifest: JsonObject, lists?: ListSchema): Promise<Fetched> {
  const metadata = isObject(manifest['metadata']) ? manifest['metadata'] : {};
  const name = String(metadata['name']);
  const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : undefined;
  const what = describe(resource, namespace, name);
  const got = await client.request('GET', objectPath(resource, namespace, name));
  let live: JsonObject | undefined;
  if (ok2xx(got) && isObject(got.body)) live = got.body;
  else if (got.status === 403) return { type: 'error', message: `not allowed to read ${what}: ${statusMessage(got)}` };
  else if (got.status !== 404) return { type: 'error', message: `reading ${what} failed: ${statusMessage(got)}` };

  if (live) {
    const query = `?dryRun=All&fieldManager=${encodeURIComponent(applyManagerOf(live))}&force=true`;
    const applied = await client.request('PATCH', objectPath(resource, namespace, name) + query, { json: manifest, contentType: APPLY_PATCH });
    if (ok2xx(applied) && isObject(applied.body)) return withPruning(client, resource, live, manifest, applied.body, lists);
    if (applied.status === 403) return { type: 'ok', live, predicted: predictClientSide(live, manifest, lists), approximate: approximateReason(applied, 'apply') };
    return { type: 'error', message: `the server rejected the dry-run apply: ${statusMessage(applied)}` };
  }
  const created = await client.request('POST', `${collectionPath(resource, namespace)}?dryRun=All&fieldManager=${FIELD_MANAGER}`, { json: manifest, contentType: 'application/json' });
  if (ok2xx(created) && isObject(created.body)) return { type: 'ok', live: undefined, predicted: created.body };
  if (created.status === 403) return { type: 'ok', live: undefined, predicted: predictClientSide(undefined, manifest), approximate: approximateReason(created, 'create') };
  const absentNamespace = missingNamespace(created);
  if (absentNamespace) return { type: 'error', message: `namespace "${absentNamespace}" does not exist in the cluster`, namespaceMissing: absentNamespace };
  return { type: 'error', message: `the server rejected the dry-run create: ${statusMessage(created)}` };
}
