/**
 * How kube-apiserver's field errors print the offending value: Go's `%q` for strings, `%v` for
 * numbers and booleans, `%#v` for structs and maps (`map[string]string{"app":"web"}`,
 * `v1.LabelSelector{...}`). JSON values carry no Go type, so callers wrap typed ones.
 */
import type { IntOrString, LabelSelectorShape } from './shapes.ts';

/** A value already rendered in Go syntax. */
export class GoLiteral {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** Go's %q for a string (JSON's escaping matches it for printable text). */
export const goQuote = (s: string): string => JSON.stringify(s);

/** `map[string]string{"a":"1", "b":"2"}` (keys sorted, as fmt prints maps), or `(nil)` when absent. */
export function goStringMap(map: Record<string, string> | undefined): GoLiteral {
  if (!map) return new GoLiteral('map[string]string(nil)');
  const pairs = Object.keys(map)
    .sort()
    .map((key) => `${goQuote(key)}:${goQuote(map[key] ?? '')}`);
  return new GoLiteral(`map[string]string{${pairs.join(', ')}}`);
}

function goStrings(values: string[] | undefined): string {
  return values ? `[]string{${values.map(goQuote).join(', ')}}` : '[]string(nil)';
}

/** `v1.LabelSelector{MatchLabels:..., MatchExpressions:...}` as an immutable-selector error shows it. */
export function goLabelSelector(selector: LabelSelectorShape | undefined): GoLiteral {
  if (!selector) return new GoLiteral('null');
  const expressions = selector.matchExpressions
    ? `[]v1.LabelSelectorRequirement{${selector.matchExpressions
        .map((e) => `v1.LabelSelectorRequirement{Key:${goQuote(e.key)}, Operator:${goQuote(e.operator)}, Values:${goStrings(e.values)}}`)
        .join(', ')}}`
    : '[]v1.LabelSelectorRequirement(nil)';
  return new GoLiteral(`v1.LabelSelector{MatchLabels:${goStringMap(selector.matchLabels).text}, MatchExpressions:${expressions}}`);
}

/** `intstr.IntOrString{Type:0, IntVal:1, StrVal:""}` (Type 1 for strings). */
export function goIntOrString(value: IntOrString | undefined): GoLiteral {
  if (typeof value === 'string') return new GoLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`);
  return new GoLiteral(`intstr.IntOrString{Type:0, IntVal:${value ?? 0}, StrVal:""}`);
}

/**
 * The value part of a field error. Strings are quoted, numbers and booleans bare, absent values
 * "null". Other JSON (a whole pod template) is shown as JSON: Go's struct dump is not reproduced.
 */
export function goValue(value: unknown): string {
  if (value instanceof GoLiteral) return value.text;
  if (value === undefined || value === null) return 'null';
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
