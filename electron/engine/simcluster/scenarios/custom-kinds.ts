/**
 * The kinds a scenario file may use: the built-in ones and those its own
 * CustomResourceDefinitions define (so a scenario can install an operator's CRDs and create its
 * custom resources in one file, CRDs first, as `kubectl apply -f` of a directory would).
 */
import { defaultCrd } from '../crd/defaults-crd.ts';
import { typesForCrd } from '../crd/serve.ts';
import type { CrdSpec } from '../crd/types.ts';
import { apiVersionOf, typeByApiVersionKind, type ResourceType } from '../resources.ts';
import type { KubeObject } from '../types.ts';

/** Finds the type of an apiVersion and kind; undefined when neither built in nor defined by the scenario. */
export type KindLookup = (apiVersion: string, kind: string) => ResourceType | undefined;

function isCrd(manifest: unknown): manifest is KubeObject {
  const m = manifest as { apiVersion?: unknown; kind?: unknown; spec?: { names?: { kind?: unknown }; versions?: unknown } } | null;
  return m?.apiVersion === 'apiextensions.k8s.io/v1' && m.kind === 'CustomResourceDefinition' && typeof m.spec?.names?.kind === 'string' && Array.isArray(m.spec.versions);
}

/** A lookup over the built-in kinds and the kinds `manifests`' CRDs serve. */
export function kindLookup(manifests: readonly unknown[]): KindLookup {
  const custom = new Map<string, ResourceType>();
  for (const manifest of manifests) {
    if (!isCrd(manifest)) continue;
    const crd = defaultCrd({ ...manifest, metadata: { ...(manifest.metadata ?? {}), name: String(manifest.metadata?.name ?? '') } } as KubeObject);
    const spec = crd['spec'] as CrdSpec;
    for (const type of typesForCrd(crd, spec.names)) custom.set(`${apiVersionOf(type)}/${type.kind}`, type);
  }
  return (apiVersion, kind) => typeByApiVersionKind(apiVersion, kind) ?? custom.get(`${apiVersion}/${kind}`);
}
