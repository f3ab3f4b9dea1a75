/**
 * The subset of jq path expressions Argo CD users write in `jqPathExpressions`: field access
 * (`.a.b`, `.["a/b"]`), iteration (`[]`), indices (`[0]`), pipes, and `select(.k == v)` /
 * `select(.k != v)` with a string, number, boolean or null literal. Evaluates to the concrete
 * paths it reaches, so the fields there can be removed before comparing. Anything else is refused
 * with the position and what is supported, instead of silently matching nothing.
 */
import { deepEqual } from '../fields/compare.ts';
import { isObject } from '../load/types.ts';

type Step =
  | { type: 'field'; name: string }
  | { type: 'iterate' }
  | { type: 'index'; index: number }
  | { type: 'select'; path: string[]; equal: boolean; value: unknown };

export type JqPath = Array<string | number>;

export class JqSyntaxError extends Error {
  override name = 'JqSyntaxError';
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*/;

function fail(expression: string, at: number, what: string): never {
  throw new JqSyntaxError(`${what} at character ${at + 1} of "${expression}" (supported: .field, .["key"], [], [N], | and select(.field == value))`);
}

function readString(src: string, at: number): { value: string; end: number } {
  let end = at + 1;
  while (end < src.length && src[end] !== '"') end += src[end] === '\\' ? 2 : 1;
  if (end >= src.length) fail(src, at, 'unterminated string');
  return { value: JSON.parse(src.slice(at, end + 1)) as string, end: end + 1 };
}

/** `.a.b` inside select(): field names only. */
function readSimplePath(src: string, at: number): { path: string[]; end: number } {
  const path: string[] = [];
  let i = at;
  while (src[i] === '.') {
    const match = IDENT.exec(src.slice(i + 1));
    if (match) {
      path.push(match[0]);
      i += 1 + match[0].length;
    } else if (src[i + 1] === '"') {
      const str = readString(src, i + 1);
      path.push(str.value);
      i = str.end;
    } else break;
  }
  if (path.length === 0) fail(src, at, 'expected a field such as .name');
  return { path, end: i };
}

function readLiteral(src: string, at: number): { value: unknown; end: number } {
  if (src[at] === '"') return readString(src, at);
  const match = /^(-?\d+(\.\d+)?|true|false|null)/.exec(src.slice(at));
  if (!match) fail(src, at, 'expected a string, number, true, false or null');
  return { value: JSON.parse(match[0]) as unknown, end: at + match[0].length };
}

function skipSpaces(src: string, at: number): number {
  let i = at;
  while (src[i] === ' ') i++;
  return i;
}

function readSelect(src: string, at: number): { step: Step; end: number } {
  let i = skipSpaces(src, at + 'select('.length);
  const { path, end } = readSimplePath(src, i);
  i = skipSpaces(src, end);
  const op = src.slice(i, i + 2);
  if (op !== '==' && op !== '!=') fail(src, i, 'expected == or !=');
  i = skipSpaces(src, i + 2);
  const literal = readLiteral(src, i);
  i = skipSpaces(src, literal.end);
  if (src[i] !== ')') fail(src, i, 'expected )');
  return { step: { type: 'select', path, equal: op === '==', value: literal.value }, end: i + 1 };
}

function readBracket(src: string, at: number): { step: Step; end: number } {
  const i = skipSpaces(src, at + 1);
  if (src[i] === ']') return { step: { type: 'iterate' }, end: i + 1 };
  if (src[i] === '"') {
    const str = readString(src, i);
    const close = skipSpaces(src, str.end);
    if (src[close] !== ']') fail(src, close, 'expected ]');
    return { step: { type: 'field', name: str.value }, end: close + 1 };
  }
  const match = /^\d+/.exec(src.slice(i));
  if (!match) fail(src, i, 'expected ], a number or a "key"');
  const close = skipSpaces(src, i + match[0].length);
  if (src[close] !== ']') fail(src, close, 'expected ]');
  return { step: { type: 'index', index: Number(match[0]) }, end: close + 1 };
}

/** Parses an expression; throws JqSyntaxError with a precise message. */
export function parseJq(expression: string): Step[] {
  const src = expression.trim();
  if (!src.startsWith('.')) fail(src, 0, 'an expression must start with "."');
  const steps: Step[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === ' ' || c === '|') i++;
    else if (src.startsWith('select(', i)) {
      const { step, end } = readSelect(src, i);
      steps.push(step);
      i = end;
    } else if (c === '.') {
      const match = IDENT.exec(src.slice(i + 1));
      if (match) {
        steps.push({ type: 'field', name: match[0] });
        i += 1 + match[0].length;
      } else if (src[i + 1] === '"') {
        const str = readString(src, i + 1);
        steps.push({ type: 'field', name: str.value });
        i = str.end;
      } else if (src[i + 1] === '[') i++;
      else if (i + 1 >= src.length || src[i + 1] === ' ' || src[i + 1] === '|') i++;
      else fail(src, i, 'unexpected character after "."');
    } else if (c === '[') {
      const { step, end } = readBracket(src, i);
      steps.push(step);
      i = end;
    } else fail(src, i, `unexpected "${c}"`);
  }
  return steps;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

/** The concrete paths (keys and indices) an expression reaches in `root`. */
export function evaluateJq(steps: readonly Step[], root: unknown): JqPath[] {
  let current: Array<{ path: JqPath; value: unknown }> = [{ path: [], value: root }];
  for (const step of steps) {
    const next: typeof current = [];
    for (const { path, value } of current) {
      if (step.type === 'field') {
        if (isObject(value) && Object.hasOwn(value, step.name)) next.push({ path: [...path, step.name], value: value[step.name] });
      } else if (step.type === 'index') {
        if (Array.isArray(value) && step.index < value.length) next.push({ path: [...path, step.index], value: value[step.index] });
      } else if (step.type === 'iterate') {
        if (Array.isArray(value)) value.forEach((item, i) => next.push({ path: [...path, i], value: item }));
        else if (isObject(value)) for (const [key, item] of Object.entries(value)) next.push({ path: [...path, key], value: item });
      } else if (deepEqual(valueAt(value, step.path), step.value) === step.equal) next.push({ path, value });
    }
    current = next;
  }
  return current.map((entry) => entry.path);
}
