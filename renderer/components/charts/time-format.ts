/**
 * How the app writes times and durations, on every screen alike: clock times on the 24-hour
 * clock to the second (the recorder's resolution), with the date only when it is not today
 * (`formatMoment`; `formatShortMoment` to the minute, for a status line's "since"), or always with
 * the year where a moment stands alone (`formatFullMoment`: tooltips); durations as the two largest
 * units.
 */

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const pad = (value: number): string => String(value).padStart(2, '0');

/** "14:03:12" in local time. */
export function formatClock(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

function sameDay(a: number, b: number): boolean {
  return new Date(a).toDateString() === new Date(b).toDateString();
}

/** "14:03" today, "May 3, 14:03" on another day: for a "since" in a status line, to the minute. */
export function formatShortMoment(ms: number, now: number = Date.now()): string {
  const date = new Date(ms);
  const clock = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return sameDay(ms, now) ? clock : `${formatDay(ms)}, ${clock}`;
}

/** "May 3" in local time. */
export function formatDay(ms: number): string {
  return new Date(ms).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/** "14:03:12" today, "May 3, 14:03:12" on another day (`now` decides which day is today). */
export function formatMoment(ms: number, now: number = Date.now()): string {
  return sameDay(ms, now) ? formatClock(ms) : `${formatDay(ms)}, ${formatClock(ms)}`;
}

/** "May 3, 2025, 14:03:12": a moment with nothing around it to say which day it is (tooltips). */
export function formatFullMoment(ms: number): string {
  return `${formatDate(ms)}, ${formatClock(ms)}`;
}

/** "May 3, 2025" — for "history since". */
export function formatDate(ms: number): string {
  return new Date(ms).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

/** "45s", "2m 30s", "1h 05m", "3d 4h": the two largest units, for episode lengths. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < SECOND_MS) return '<1s';
  if (ms < MINUTE_MS) return `${Math.round(ms / SECOND_MS)}s`;
  if (ms < HOUR_MS) {
    const seconds = Math.floor((ms % MINUTE_MS) / SECOND_MS);
    return seconds === 0 ? `${Math.floor(ms / MINUTE_MS)}m` : `${Math.floor(ms / MINUTE_MS)}m ${pad(seconds)}s`;
  }
  if (ms < DAY_MS) {
    const minutes = Math.floor((ms % HOUR_MS) / MINUTE_MS);
    return minutes === 0 ? `${Math.floor(ms / HOUR_MS)}h` : `${Math.floor(ms / HOUR_MS)}h ${pad(minutes)}m`;
  }
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  return hours === 0 ? `${Math.floor(ms / DAY_MS)}d` : `${Math.floor(ms / DAY_MS)}d ${hours}h`;
}
