/** resource.Quantity values ("100m", "1.5", "128Mi", "1e3"), compared by amount. */

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([eE][+-]?\d+)|(n|u|m|k|M|G|T|P|E)?)$/;

/** The amount a quantity stands for, or undefined when it is not a valid quantity. */
export function parseQuantity(value: string | number | undefined): number | undefined {
  if (typeof value === 'number') return value;
  if (value === undefined) return undefined;
  const match = QUANTITY.exec(value.trim());
  if (!match) return undefined;
  const [, number = '0', binary, exponent, decimal = ''] = match;
  const base = Number(number);
  if (binary) return base * (BINARY[binary] ?? 1);
  if (exponent) return base * 10 ** Number(exponent.slice(1));
  return base * (DECIMAL[decimal] ?? 1);
}
