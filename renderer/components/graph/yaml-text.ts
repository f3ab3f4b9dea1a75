/**
 * A small YAML printer for the side panel's spec and status: block style, keys in the object's
 * own order, strings quoted only where YAML would misread them. The panel shows slim objects
 * (plain JSON), so anchors, tags and multi-documents are never needed, and the renderer bundle
 * stays free of a YAML library.
 */

const PLAIN = /^[A-Za-z0-9_./+=~^$-][A-Za-z0-9 _./@%+=~^$:,()-]*$/;
/** `- x`, `? x`, `: x` start block indicators. */
const INDICATOR = /^[-?:](?:\s|$)/;
const MISREAD = /^(?:true|false|yes|no|on|off|null|~|[-+]?(?:\d[\d_]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?|0x[0-9a-f]+|0o[0-7]+)$/i;

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') {
    const plain = value !== '' && PLAIN.test(value) && !INDICATOR.test(value) && !MISREAD.test(value) && !value.endsWith(' ') && !value.includes(': ') && !value.includes(' #');
    return plain ? value : JSON.stringify(value);
  }
  return String(value);
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function lines(value: unknown, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isObject(item) && Object.keys(item).length > 0) {
        const nested: string[] = [];
        lines(item, `${indent}  `, nested);
        out.push(`${indent}- ${(nested[0] ?? '').trimStart()}`, ...nested.slice(1));
      } else if (Array.isArray(item) && item.length > 0) {
        out.push(`${indent}-`);
        lines(item, `${indent}  `, out);
      } else out.push(`${indent}- ${inline(item)}`);
    }
    return;
  }
  if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      const name = scalar(key);
      if ((isObject(item) && Object.keys(item).length > 0) || (Array.isArray(item) && item.length > 0)) {
        out.push(`${indent}${name}:`);
        lines(item, Array.isArray(item) ? indent : `${indent}  `, out);
      } else out.push(`${indent}${name}: ${inline(item)}`);
    }
    return;
  }
  out.push(`${indent}${scalar(value)}`);
}

function inline(value: unknown): string {
  if (Array.isArray(value)) return '[]';
  if (isObject(value)) return '{}';
  return scalar(value);
}

/** `value` as block YAML ("" for null or undefined). */
export function toYaml(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (!isObject(value) && !Array.isArray(value)) return scalar(value);
  const out: string[] = [];
  lines(value, '', out);
  return out.join('\n');
}
