/**
 * The few `Reflect` metadata functions tsyringe (pulled in by @peculiar/x509) insists on at load
 * time. The library registers its algorithms without constructor parameters, so a WeakMap-backed
 * store is all it needs; a full `reflect-metadata` install, if present, is left untouched.
 */

type MetadataTarget = object;

const metadata = new WeakMap<MetadataTarget, Map<unknown, unknown>>();

function ownMap(target: MetadataTarget, create: boolean): Map<unknown, unknown> | undefined {
  let map = metadata.get(target);
  if (!map && create) {
    map = new Map();
    metadata.set(target, map);
  }
  return map;
}

function getOwnMetadata(key: unknown, target: MetadataTarget): unknown {
  return ownMap(target, false)?.get(key);
}

function getMetadata(key: unknown, target: MetadataTarget): unknown {
  for (let current: MetadataTarget | null = target; current; current = Object.getPrototypeOf(current) as MetadataTarget | null) {
    const map = ownMap(current, false);
    if (map?.has(key)) return map.get(key);
  }
  return undefined;
}

function defineMetadata(key: unknown, value: unknown, target: MetadataTarget): void {
  ownMap(target, true)?.set(key, value);
}

/** Installs the shim unless a Reflect metadata implementation is already loaded. */
export function ensureReflectMetadata(): void {
  const reflect = Reflect as unknown as Record<string, unknown>;
  if (typeof reflect['getMetadata'] === 'function') return;
  reflect['getMetadata'] = getMetadata;
  reflect['getOwnMetadata'] = getOwnMetadata;
  reflect['defineMetadata'] = defineMetadata;
}
