/**
 * A field's place in an object, and its three spellings: a readable path
 * (`spec.template.spec.containers[name=web].image`), an RFC 6901 JSON pointer with the live
 * indices (`/spec/template/spec/containers/0/image`, Argo CD's `jsonPointers`) and a jq path
 * expression that survives reordering (`.spec.template.spec.containers[] | select(.name == "web") | .image`).
 */

type Scalar = string | number | boolean;

/** A list element's identity: its (first) merge key, and the other keys of a multi-key list map. */
export interface ElementMatch {
  key: string;
  value: Scalar;
  /** The further `x-kubernetes-list-map-keys` of a list keyed by several fields (`port` and `protocol`). */
  also?: ReadonlyArray<{ key: string; value: Scalar }>;
}

/** A map key, or a list element by index with the merge key(s) that identify it (if any). */
export type Segment = { key: string } | { index: number; match?: ElementMatch };

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const JQ_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function literal(value: Scalar): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

const matchPairs = (match: ElementMatch) => [{ key: match.key, value: match.value }, ...(match.also ?? [])];

export function readablePath(segments: readonly Segment[]): string {
  let out = '';
  for (const segment of segments) {
    if ('key' in segment) out += PLAIN_KEY.test(segment.key) ? `${out ? '.' : ''}${segment.key}` : `[${JSON.stringify(segment.key)}]`;
    else out += segment.match ? `[${matchPairs(segment.match).map(({ key, value }) => `${key}=${String(value)}`).join(',')}]` : `[${segment.index}]`;
  }
  return out;
}

export function jsonPointer(segments: readonly Segment[]): string {
  return segments.map((segment) => '/' + ('key' in segment ? segment.key.replaceAll('~', '~0').replaceAll('/', '~1') : String(segment.index))).join('');
}

/** Whether the path goes through a list element known by its merge key (then jq is the stable spelling). */
export function hasKeyedElement(segments: readonly Segment[]): boolean {
  return segments.some((segment) => 'index' in segment && segment.match !== undefined);
}

export function jqPath(segments: readonly Segment[]): string {
  const parts: string[] = [];
  let current = '';
  for (const segment of segments) {
    if ('key' in segment) current += JQ_KEY.test(segment.key) ? `.${segment.key}` : `[${JSON.stringify(segment.key)}]`;
    else if (segment.match) {
      parts.push(`${current || '.'}[]`);
      for (const { key, value } of matchPairs(segment.match)) parts.push(`select(.${key} == ${literal(value)})`);
      current = '';
    } else current += `[${segment.index}]`;
  }
  if (current) parts.push(current);
  return parts.join(' | ') || '.';
}

/** Parses an RFC 6901 pointer into keys (list indices stay strings until applied). */
export function parsePointer(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'));
}
