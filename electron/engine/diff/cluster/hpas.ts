/**
 * The cluster's HorizontalPodAutoscalers by scale target, so a `spec.replicas` difference can be
 * put down to the HPA that sets it. One cluster-wide list (autoscaling/v2, then v1); when that is
 * forbidden, one list per namespace the manifests use. Failures leave the index empty: the
 * explanation then falls back to managedFields alone.
 */
import { hpaKey, type HpaIndex, type HpaTarget } from '../fields/owners.ts';
import { isObject } from '../load/types.ts';
import type { ApiClient } from './client.ts';

const VERSIONS = ['autoscaling/v2', 'autoscaling/v1'] as const;

function addItems(index: Map<string, HpaTarget>, body: unknown): void {
  const items = isObject(body) && Array.isArray(body['items']) ? body['items'] : [];
  for (const item of items) {
    if (!isObject(item) || !isObject(item['metadata']) || !isObject(item['spec'])) continue;
    const spec = item['spec'];
    const ref = isObject(spec['scaleTargetRef']) ? spec['scaleTargetRef'] : {};
    if (typeof ref['kind'] !== 'string' || typeof ref['name'] !== 'string') continue;
    const namespace = typeof item['metadata']['namespace'] === 'string' ? item['metadata']['namespace'] : undefined;
    const target: HpaTarget = { name: String(item['metadata']['name']) };
    if (typeof spec['minReplicas'] === 'number') target.minReplicas = spec['minReplicas'];
    if (typeof spec['maxReplicas'] === 'number') target.maxReplicas = spec['maxReplicas'];
    index.set(hpaKey(namespace, ref['kind'], ref['name']), target);
  }
}

export async function listHpas(client: ApiClient, namespaces: readonly string[]): Promise<HpaIndex> {
  const index = new Map<string, HpaTarget>();
  for (const version of VERSIONS) {
    try {
      const all = await client.request('GET', `/apis/${version}/horizontalpodautoscalers`);
      if (all.status === 404) continue;
      if (all.status === 200) {
        addItems(index, all.body);
        return index;
      }
      const lists = await Promise.all(namespaces.map((namespace) => client.request('GET', `/apis/${version}/namespaces/${encodeURIComponent(namespace)}/horizontalpodautoscalers`)));
      for (const list of lists) if (list.status === 200) addItems(index, list.body);
      return index;
    } catch {
      return index;
    }
  }
  return index;
}
