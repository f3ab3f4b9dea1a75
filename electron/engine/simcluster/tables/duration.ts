/** Kubernetes' `duration.HumanDuration` and the printers' "time since" helpers. */

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * apimachinery's `duration.HumanDuration`: about two significant figures ("45s", "3m20s",
 * "45m", "5h10m", "20h", "3d5h", "45d", "2y30d", "9y"). Two seconds of clock skew into the
 * future still read "0s"; more is "<invalid>".
 */
export function humanDuration(ms: number): string {
  // Go's int(d.Seconds()) and d / time.Minute truncate toward zero.
  const seconds = Math.trunc(ms / SECOND_MS);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(ms / MINUTE_MS);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(ms / HOUR_MS);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    const days = Math.trunc(hours / 24);
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  const years = Math.trunc(hours / 24 / 365);
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

/** Milliseconds since the epoch of an RFC 3339 timestamp (micro-time too); NaN when unset. */
export function parseTimestamp(value: unknown): number {
  return typeof value === 'string' && value !== '' ? Date.parse(value) : Number.NaN;
}

/** The printers' translateTimestampSince: "<unknown>" for a zero time, else the age. */
export function since(timestamp: unknown, now: number): string {
  const at = parseTimestamp(timestamp);
  return Number.isNaN(at) ? '<unknown>' : humanDuration(now - at);
}
