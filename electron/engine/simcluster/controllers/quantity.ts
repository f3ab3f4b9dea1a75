/**
 * resource.Quantity parsing for scheduling arithmetic: `100m`, `0.5`, `2`, `128Mi`, `1Gi`,
 * `1e3`, `500k`. Values come back in base units (cores, bytes, counts) as numbers, which is
 * exact enough for fitting pods to nodes.
 */

const SUFFIXES: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY_RE = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/;

/** A Quantity (string or number) in base units; undefined when it does not parse. */
export function parseQuantity(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const m = QUANTITY_RE.exec(value.trim());
  if (!m) return undefined;
  const base = Number(m[1]);
  if (m[2]) return base * 10 ** Number(m[2].slice(1));
  return base * (SUFFIXES[m[3] ?? ''] ?? 1);
}

/** CPU in millicores, rounded up as the API rounds sub-milli CPU. */
export function cpuMillis(value: unknown): number {
  const cores = parseQuantity(value);
  return cores === undefined ? 0 : Math.ceil(Math.round(cores * 1e6) / 1e3);
}

/** Memory (or any byte quantity) in bytes. */
export function bytes(value: unknown): number {
  const amount = parseQuantity(value);
  return amount === undefined ? 0 : Math.ceil(amount);
}
