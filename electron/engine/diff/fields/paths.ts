/**
 * A field's place in an object, and its three spellings: a readable path
 * (`spec.template.spec.containers[name=web].image`), an RFC 6901 JSON pointer with the live
 * indices (`/spec/template/spec/containers/0/image`, Argo CD's `jsonPointers`) and a jq path
 * expression that survives reordering (`.spec.template.spec.containers[] | select(.name == "web") | .image`).
 */

/** A map key, or a list element by index with the merge key that identifies it (if any). */
export type Segment = { key: string } | { index: number; match?: { key: string; value: string | number | boolean } };

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;
const JQ_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function literal(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

export function readablePath(segments: readonly Segment[]): string {
  let out = '';
  for (const segment of segments) {
    if ('key' in segment) out += PLAIN_KEY.test(segment.key) ? `${out ? '.' : ''}${segment.key}` : `[${JSON.stringify(segment.key)}]`;
    else out += segment.match ? `[${segment.match.key}=${String(segment.match.value)}]` : `[${segment.index}]`;
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
      parts.push(`select(.${segment.match.key} == ${literal(segment.match.value)})`);
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
