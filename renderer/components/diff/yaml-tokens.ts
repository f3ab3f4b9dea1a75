/**
 * Syntax highlighting for the diff views, one YAML line at a time: indentation, list dashes,
 * keys, and the value classified as string, number, boolean, null, a masked Secret value or a
 * block indicator. Tokens are rendered as text spans (never HTML), so a manifest can not inject
 * markup. Lines inside block scalars are highlighted as plain text, which is what they are.
 */

export type TokenType = 'space' | 'dash' | 'key' | 'colon' | 'string' | 'number' | 'bool' | 'null' | 'mask' | 'indicator' | 'comment' | 'text';

export interface Token {
  type: TokenType;
  text: string;
}

const NUMBER = /^[-+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][-+]?\d+)?$|^0x[0-9a-fA-F]+$|^0o[0-7]+$/;
const BOOL = /^(true|false)$/i;
const NULL = /^(null|~)$/i;
const MASK = /^"?\*\*\*( \((before|after)\))?"?$/;

function valueToken(text: string): Token {
  const trimmed = text.trim();
  if (MASK.test(trimmed)) return { type: 'mask', text };
  if (NUMBER.test(trimmed)) return { type: 'number', text };
  if (BOOL.test(trimmed)) return { type: 'bool', text };
  if (NULL.test(trimmed)) return { type: 'null', text };
  if (/^[|>][-+0-9]*$/.test(trimmed) || trimmed === '{}' || trimmed === '[]') return { type: 'indicator', text };
  return { type: 'string', text };
}

/** Where `key:` ends in `rest` (the colon's index), or -1 when the line has no key. */
function keyEnd(rest: string): number {
  if (rest.startsWith('"') || rest.startsWith("'")) {
    const quote = rest[0] as string;
    let i = 1;
    while (i < rest.length && rest[i] !== quote) i += rest[i] === '\\' ? 2 : 1;
    return rest[i + 1] === ':' && (i + 2 === rest.length || rest[i + 2] === ' ') ? i + 1 : -1;
  }
  const match = /^[^\s#'"{[][^:#]*?:(?= |$)/.exec(rest);
  return match ? match[0].length - 1 : -1;
}

export function tokenizeYamlLine(line: string): Token[] {
  const tokens: Token[] = [];
  const indent = /^ */.exec(line)?.[0] ?? '';
  if (indent) tokens.push({ type: 'space', text: indent });
  let rest = line.slice(indent.length);
  if (rest.startsWith('#')) return [...tokens, { type: 'comment', text: rest }];
  while (rest === '-' || rest.startsWith('- ')) {
    tokens.push({ type: 'dash', text: rest === '-' ? '-' : '- ' });
    rest = rest.slice(2);
  }
  const end = keyEnd(rest);
  if (end >= 0) {
    tokens.push({ type: 'key', text: rest.slice(0, end) }, { type: 'colon', text: ':' });
    rest = rest.slice(end + 1);
    if (rest.startsWith(' ')) {
      tokens.push({ type: 'space', text: ' ' });
      rest = rest.slice(1);
    }
  }
  if (rest) tokens.push(end >= 0 || tokens.some((t) => t.type === 'dash') ? valueToken(rest) : { type: 'text', text: rest });
  return tokens;
}
