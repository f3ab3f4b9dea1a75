/**
 * The JSONPath subset CRD printer columns and scale paths use (kubectl's `{...}` template
 * syntax without braces): `.spec.replicas`, `.status.conditions[0].type`, `.items[*].name`,
 * `.metadata.labels['app.kubernetes.io/name']`, escaped dots (`.a\.b`), and filters of the form
 * `[?(@.type=="Ready")]`. Missing keys give no result, as with AllowMissingKeys.
 */

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: string };

function parseFilter(body: string): Step | undefined {
  const match = /^\?\(@((?:\.[\w-]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|([\w.-]+))\)$/.exec(body);
  if (!match) return undefined;
  return { kind: 'filter', path: (match[1] ?? '').split('.').slice(1), op: match[2] as '==' | '!=', value: match[3] ?? match[4] ?? match[5] ?? '' };
}

function parseBracket(body: string): Step | undefined {
  if (body === '*') return { kind: 'all' };
  if (/^-?\d+$/.test(body)) return { kind: 'index', index: Number(body) };
  const quoted = /^'([^']*)'$|^"([^"]*)"$/.exec(body);
  if (quoted) return { kind: 'field', name: quoted[1] ?? quoted[2] ?? '' };
  return parseFilter(body);
}

/** The steps of a path, or undefined when it is not in the supported subset. */
export function parseJsonPath(path: string): Step[] | undefined {
  const text = path.startsWith('{') && path.endsWith('}') ? path.slice(1, -1) : path;
  if (!text.startsWith('.') && !text.startsWith('[')) return undefined;
  const steps: Step[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '.') {
      i += 1;
      let name = '';
      while (i < text.length && text[i] !== '.' && text[i] !== '[') {
        if (text[i] === '\\' && i + 1 < text.length) i += 1;
        name += text[i];
        i += 1;
      }
      if (name === '') return undefined;
      steps.push({ kind: 'field', name });
    } else if (text[i] === '[') {
      const end = text.indexOf(']', text[i + 1] === '?' ? text.indexOf(')', i) : i);
      if (end < 0) return undefined;
      const step = parseBracket(text.slice(i + 1, end));
      if (!step) return undefined;
      steps.push(step);
      i = end + 1;
    } else {
      return undefined;
    }
  }
  return steps;
}

/** Whether a printer column's jsonPath is one kube-apiserver accepts: a path starting with `.`. */
export function isSimpleJsonPath(path: string): boolean {
  return path.startsWith('.') && parseJsonPath(path) !== undefined;
}

function fieldOf(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

function step(values: unknown[], s: Step): unknown[] {
  const out: unknown[] = [];
  for (const value of values) {
    switch (s.kind) {
      case 'field': {
        const next = fieldOf(value, s.name);
        if (next !== undefined) out.push(next);
        break;
      }
      case 'index':
        if (Array.isArray(value)) {
          const next = value[s.index < 0 ? value.length + s.index : s.index];
          if (next !== undefined) out.push(next);
        }
        break;
      case 'all':
        if (Array.isArray(value)) out.push(...value);
        else if (value !== null && typeof value === 'object') out.push(...Object.values(value));
        break;
      case 'filter':
        if (Array.isArray(value)) {
          for (const item of value) {
            const found = s.path.reduce<unknown>((v, name) => fieldOf(v, name), item);
            const equal = found !== undefined && found !== null && String(found) === s.value;
            if (s.op === '==' ? equal : found !== undefined && !equal) out.push(item);
          }
        }
        break;
    }
  }
  return out;
}

/** Every value `path` selects in `root` (empty when nothing matches or the path is unsupported). */
export function evaluateJsonPath(root: unknown, path: string): unknown[] {
  const steps = parseJsonPath(path);
  if (!steps) return [];
  return steps.reduce<unknown[]>((values, s) => step(values, s), [root]);
}

/** Sets the value at a path of plain field steps (`.spec.replicas`), creating objects on the way. */
export function setAtJsonPath(root: Record<string, unknown>, path: string, value: unknown): boolean {
  const steps = parseJsonPath(path);
  if (!steps || steps.length === 0 || steps.some((s) => s.kind !== 'field')) return false;
  let current = root;
  steps.forEach((s, i) => {
    const name = (s as { name: string }).name;
    if (i === steps.length - 1) current[name] = value;
    else {
      const next = current[name];
      if (next === null || typeof next !== 'object' || Array.isArray(next)) current[name] = {};
      current = current[name] as Record<string, unknown>;
    }
  });
  return true;
}
