/** The small string formatters kube-apiserver's printers share (labels, selectors, containers). */

export interface LabelSelectorView {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

export interface ContainerView {
  name?: string;
  image?: string;
}

/** labels.Set.String(): `k=v` pairs sorted by key, comma-joined. */
function labelSetString(labels: Record<string, string> | undefined): string {
  return Object.keys(labels ?? {})
    .sort()
    .map((key) => `${key}=${labels?.[key] ?? ''}`)
    .join(',');
}

/** labels.FormatLabels: the set string, "<none>" when empty. */
export function formatLabels(labels: Record<string, string> | undefined): string {
  return labelSetString(labels) || '<none>';
}

/**
 * labels.Selector.String() of metav1.LabelSelectorAsSelector: requirements sorted by key,
 * `in`/`notin` values sorted; "" for a nil or empty selector.
 */
export function selectorString(selector: LabelSelectorView | undefined): string {
  if (!selector) return '';
  const terms: Array<{ key: string; text: string }> = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) terms.push({ key, text: `${key}=${value}` });
  for (const expr of selector.matchExpressions ?? []) {
    const values = [...(expr.values ?? [])].sort().join(',');
    if (expr.operator === 'In') terms.push({ key: expr.key, text: `${expr.key} in (${values})` });
    else if (expr.operator === 'NotIn') terms.push({ key: expr.key, text: `${expr.key} notin (${values})` });
    else if (expr.operator === 'Exists') terms.push({ key: expr.key, text: expr.key });
    else if (expr.operator === 'DoesNotExist') terms.push({ key: expr.key, text: `!${expr.key}` });
  }
  // Go sorts requirements by key only, with a stable tie order (matchLabels first).
  return terms
    .map((term, index) => ({ ...term, index }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.index - b.index))
    .map((term) => term.text)
    .join(',');
}

/** metav1.FormatLabelSelector: the selector string, "<none>" when it selects everything or nothing. */
export function formatLabelSelector(selector: LabelSelectorView | undefined): string {
  return selectorString(selector) || '<none>';
}

/** layoutContainerCells: container names and images, each comma-joined. */
export function layoutContainerCells(containers: ContainerView[] | undefined): [names: string, images: string] {
  const list = containers ?? [];
  return [list.map((c) => c.name ?? '').join(','), list.map((c) => c.image ?? '').join(',')];
}

/** printBoolPtr: "True" / "False", "<unset>" for nil. */
export function printBoolPtr(value: boolean | undefined): string {
  if (value === undefined) return '<unset>';
  return value ? 'True' : 'False';
}

/** net.JoinHostPort: IPv6 hosts in brackets. */
export function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The first non-empty string, as the event printer's firstNonEmpty. */
export function firstNonEmpty(...values: Array<string | undefined>): string {
  return values.find((v) => v !== undefined && v !== '') ?? '';
}
