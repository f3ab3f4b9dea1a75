/** Small formatters the tables share: kubectl's ages, Kubernetes quantities, timestamps. */

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * kubectl's AGE ("45s", "3m20s", "5h10m", "3d5h", "2y30d"): apimachinery's HumanDuration, so the
 * tables read like `kubectl get`. NaN (no timestamp) prints as kubectl's "<unknown>".
 */
export function formatAge(ms: number): string {
  if (Number.isNaN(ms)) return '<unknown>';
  const seconds = Math.trunc(ms / SECOND_MS);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE_MS);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR_MS);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (days < 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp; NaN when absent. */
export function parseTime(value: unknown): number {
  return typeof value === 'string' && value !== '' ? Date.parse(value) : Number.NaN;
}

const BINARY_SUFFIXES: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes quantity ("3920m", "16Gi", "1e3") as a number of base units; NaN when unreadable. */
export function parseQuantity(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return Number.NaN;
  const match = /^([+-]?[0-9.]+(?:[eE][+-]?\d+)?)([a-zA-Z]*)$/.exec(value.trim());
  if (!match) return Number.NaN;
  const [, digits = '', suffix = ''] = match;
  const scale = BINARY_SUFFIXES[suffix] ?? DECIMAL_SUFFIXES[suffix];
  return scale === undefined ? Number.NaN : Number(digits) * scale;
}

/** Bytes as the nearest binary unit with one decimal where it helps ("15.6 GiB", "512 MiB"). */
export function formatBytes(bytes: number): string {
  if (Number.isNaN(bytes)) return '—';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** CPU cores as kubectl users read them: whole cores plainly, fractions in millicores ("3.92", "500m"). */
export function formatCores(cores: number): string {
  if (Number.isNaN(cores)) return '—';
  if (cores < 1) return `${Math.round(cores * 1000)}m`;
  return Number.isInteger(cores) ? String(cores) : cores.toFixed(2).replace(/0$/, '');
}
