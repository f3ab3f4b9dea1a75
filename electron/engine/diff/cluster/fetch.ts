/**
 * The two states of one object: live (GET) and predicted — what the cluster would hold after
 * applying the manifest — from the server itself: server-side apply with `dryRun=All`
 * (fieldManager `kubedrift`, force: what `kubectl diff --server-side --force-conflicts` asks) for
 * an object that exists, a dry-run create for one that does not. A 403 on the dry run falls back
 * to a client-side prediction, flagged approximate.
 */
import type { JsonObject } from '../load/types.ts';
import { isObject } from '../load/types.ts';
import { predictClientSide } from './approximate.ts';
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

export async function fetchStates(client: ApiClient, resource: ResourceInfo, manifest: JsonObject): Promise<Fetched> {
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
    const query = `?dryRun=All&fieldManager=${FIELD_MANAGER}&force=true`;
    const applied = await client.request('PATCH', objectPath(resource, namespace, name) + query, { json: manifest, contentType: APPLY_PATCH });
    if (ok2xx(applied) && isObject(applied.body)) return { type: 'ok', live, predicted: applied.body };
    if (applied.status === 403) return { type: 'ok', live, predicted: predictClientSide(live, manifest), approximate: approximateReason(applied, 'apply') };
    return { type: 'error', message: `the server rejected the dry-run apply: ${statusMessage(applied)}` };
  }
  const created = await client.request('POST', `${collectionPath(resource, namespace)}?dryRun=All&fieldManager=${FIELD_MANAGER}`, { json: manifest, contentType: 'application/json' });
  if (ok2xx(created) && isObject(created.body)) return { type: 'ok', live: undefined, predicted: created.body };
  if (created.status === 403) return { type: 'ok', live: undefined, predicted: predictClientSide(undefined, manifest), approximate: approximateReason(created, 'create') };
  const absentNamespace = missingNamespace(created);
  if (absentNamespace) return { type: 'error', message: `namespace "${absentNamespace}" does not exist in the cluster`, namespaceMissing: absentNamespace };
  return { type: 'error', message: `the server rejected the dry-run create: ${statusMessage(created)}` };
}
