/**
 * What a pod uses: the ConfigMaps, Secrets, PersistentVolumeClaims and ServiceAccount its spec
 * names in volumes (and projected volumes' sources), containers' and init containers' envFrom and
 * env valueFrom, imagePullSecrets and serviceAccountName, but not the token volume admission
 * adds to every pod. Reads the slim pod (cluster/informers/slim-pod.ts keeps exactly these
 * names), or a whole one.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { INJECTED_TOKEN_VOLUME } from '../cluster/informers/slim-pod.ts';
import { USED_KEYS, type UsedKey } from './kinds.ts';

/** One object a pod's spec names, in the pod's namespace. */
export interface PodReference {
  key: UsedKey;
  name: string;
}

type Json = Record<string, unknown>;

const isJson = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
/** `source[field][nameField]` when it is a non-empty string. */
const nameAt = (source: unknown, field: string, nameField = 'name'): string | undefined => {
  const ref = isJson(source) ? source[field] : undefined;
  const name = isJson(ref) ? ref[nameField] : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
};

/** Pods are replaced, never changed, on update: each version's references are read once. */
const cache = new WeakMap<SlimObject, readonly PodReference[]>();

/** What most pods of a busy namespace name (nothing), shared rather than made per pod. */
const NO_REFERENCES: readonly PodReference[] = Object.freeze([]);

function read(pod: SlimObject): readonly PodReference[] {
  const spec = (pod as { spec?: unknown }).spec;
  if (!isJson(spec)) return NO_REFERENCES;
  let out: PodReference[] | undefined;
  const add = (key: UsedKey, name: string | undefined): void => {
    if (name === undefined || out?.some((ref) => ref.key === key && ref.name === name)) return;
    (out ??= []).push({ key, name });
  };
  for (const volume of list(spec['volumes'])) {
    // The ServiceAccount admission plugin's token volume: every pod has one, no one wrote it.
    if (isJson(volume) && typeof volume['name'] === 'string' && INJECTED_TOKEN_VOLUME.test(volume['name'])) continue;
    add(USED_KEYS.ConfigMap, nameAt(volume, 'configMap'));
    add(USED_KEYS.Secret, nameAt(volume, 'secret', 'secretName'));
    add(USED_KEYS.PersistentVolumeClaim, nameAt(volume, 'persistentVolumeClaim', 'claimName'));
    const projected = isJson(volume) ? volume['projected'] : undefined;
    for (const source of list(isJson(projected) ? projected['sources'] : undefined)) {
      add(USED_KEYS.ConfigMap, nameAt(source, 'configMap'));
      add(USED_KEYS.Secret, nameAt(source, 'secret'));
    }
  }
  for (const container of list(spec['initContainers']).concat(list(spec['containers']))) {
    if (!isJson(container)) continue;
    for (const source of list(container['envFrom'])) {
      add(USED_KEYS.ConfigMap, nameAt(source, 'configMapRef'));
      add(USED_KEYS.Secret, nameAt(source, 'secretRef'));
    }
    for (const variable of list(container['env'])) {
      const from = isJson(variable) ? variable['valueFrom'] : undefined;
      add(USED_KEYS.ConfigMap, nameAt(from, 'configMapKeyRef'));
      add(USED_KEYS.Secret, nameAt(from, 'secretKeyRef'));
    }
  }
  for (const ref of list(spec['imagePullSecrets'])) add(USED_KEYS.Secret, isJson(ref) && typeof ref['name'] === 'string' && ref['name'] !== '' ? ref['name'] : undefined);
  const account = spec['serviceAccountName'] ?? spec['serviceAccount'];
  add(USED_KEYS.ServiceAccount, typeof account === 'string' && account !== '' ? account : undefined);
  return out ?? NO_REFERENCES;
}

/** The objects `pod` uses, each once, volumes first. */
export function podReferences(pod: SlimObject): readonly PodReference[] {
  let refs = cache.get(pod);
  if (!refs) {
    refs = read(pod);
    cache.set(pod, refs);
  }
  return refs;
}
