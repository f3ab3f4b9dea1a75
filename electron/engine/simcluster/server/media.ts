/**
 * Content negotiation as kube-apiserver does it: the first entry of the client's Accept list the
 * server can produce wins. Objects come as plain JSON, as meta.k8s.io Tables (kubectl get), or as
 * PartialObjectMetadata (metadata-only clients); discovery may come in the aggregated format.
 */
import { ApiError } from '../errors.ts';

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (!header || header.trim() === '') return [{ type: 'application/json', params: {} }];
  return header.split(',').map((entry) => {
    const [type = '', ...params] = entry.split(';').map((p) => p.trim());
    const out: Record<string, string> = {};
    for (const param of params) {
      const eq = param.indexOf('=');
      if (eq > 0) out[param.slice(0, eq).trim().toLowerCase()] = param.slice(eq + 1).trim().replace(/^"|"$/g, '');
    }
    return { type: type.toLowerCase(), params: out };
  });
}

const JSON_TYPES = new Set(['application/json', 'application/*', '*/*']);

/** The media type without parameters, lower-cased (`application/merge-patch+json`). */
export function baseMediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The negotiated response form of a resource request. */
export type ObjectFormat =
  | { format: 'json' }
  | { format: 'table'; apiVersion: 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1' }
  | { format: 'partial'; apiVersion: 'meta.k8s.io/v1' | 'meta.k8s.io/v1beta1' };

/** What to answer a resource request with; 406 NotAcceptable when nothing listed is servable. */
export function negotiateObjectFormat(header: string | undefined): ObjectFormat {
  for (const range of parseAccept(header)) {
    if (!JSON_TYPES.has(range.type)) continue;
    const as = range.params['as'];
    if (!as) return { format: 'json' };
    const g = range.params['g'];
    const v = range.params['v'];
    if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
    const apiVersion = v === 'v1' ? 'meta.k8s.io/v1' : 'meta.k8s.io/v1beta1';
    if (as === 'Table') return { format: 'table', apiVersion };
    if (as === 'PartialObjectMetadata' || as === 'PartialObjectMetadataList') return { format: 'partial', apiVersion };
  }
  throw new ApiError(406, 'NotAcceptable', 'the server was unable to respond with a content type that the client supports', {});
}

/** The aggregated discovery version to answer, or undefined for the legacy documents. */
export type DiscoveryFormat = 'v2' | 'v2beta1' | undefined;

/** Whether the client asked for aggregated discovery (apidiscovery.k8s.io) before plain JSON. */
export function negotiateDiscovery(header: string | undefined): DiscoveryFormat {
  for (const range of parseAccept(header)) {
    if (!JSON_TYPES.has(range.type)) continue;
    const { g, v, as } = range.params;
    if (!g && !v && !as) return undefined;
    if (g === 'apidiscovery.k8s.io' && as === 'APIGroupDiscoveryList' && (v === 'v2' || v === 'v2beta1')) return v;
  }
  return undefined;
}

/** The Content-Type aggregated discovery is answered with (clients check it). */
export function discoveryContentType(format: 'v2' | 'v2beta1'): string {
  return `application/json;g=apidiscovery.k8s.io;v=${format};as=APIGroupDiscoveryList`;
}
