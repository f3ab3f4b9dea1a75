/**
 * The time range the history views show: a preset ending now (15 m … 7 d) or a custom from/to.
 * Kept in the view's navigation parameters (`from`, `to`, `range`) so a reload or Back shows the
 * same window; `at` (a moment to look at) opens a window around that moment.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export const RANGE_PRESETS = [
  { id: '15m', label: '15 m', ms: 15 * MINUTE_MS },
  { id: '1h', label: '1 h', ms: HOUR_MS },
  { id: '6h', label: '6 h', ms: 6 * HOUR_MS },
  { id: '24h', label: '24 h', ms: 24 * HOUR_MS },
  { id: '7d', label: '7 d', ms: 7 * 24 * HOUR_MS },
] as const;

export type PresetId = (typeof RANGE_PRESETS)[number]['id'];
export type RangeChoice = PresetId | 'custom';

export interface TimeRange {
  from: number;
  to: number;
}

/** A range choice: a preset follows "now"; custom is fixed. */
export interface RangeSelection {
  choice: RangeChoice;
  /** The custom range (ignored for presets). */
  custom: TimeRange | null;
}

export const DEFAULT_SELECTION: RangeSelection = { choice: '1h', custom: null };

export function isPreset(value: string | undefined): value is PresetId {
  return RANGE_PRESETS.some((preset) => preset.id === value);
}

/** The window a selection shows at `now`. */
export function resolveRange(selection: RangeSelection, now: number): TimeRange {
  if (selection.choice === 'custom' && selection.custom) return selection.custom;
  const preset = RANGE_PRESETS.find((entry) => entry.id === selection.choice) ?? RANGE_PRESETS[1];
  return { from: now - preset.ms, to: now };
}

/**
 * A window around `at`: `spanMs` wide with `at` a third of the way in (what led up to it matters
 * less than what followed), never reaching past `now`.
 */
export function rangeAround(at: number, spanMs: number, now: number): TimeRange {
  const to = Math.min(now, at + (spanMs * 2) / 3);
  return { from: to - spanMs, to };
}

/** The window that frames a stretch of time with some margin either side (at least `minSpanMs`). */
export function frameSpan(start: number, end: number, now: number, minSpanMs = 5 * MINUTE_MS): TimeRange {
  const length = Math.max(end - start, 0);
  const margin = Math.max(length * 0.25, (minSpanMs - length) / 2, MINUTE_MS / 2);
  const to = Math.min(now, end + margin);
  return { from: Math.min(start - margin, to - minSpanMs), to };
}

/**
 * The part of a window worth showing when history starts inside it: from shortly before the
 * first recorded moment (at least a minute wide), instead of a mostly empty chart. Unchanged
 * when history covers the whole window or nothing is recorded yet.
 */
export function fitToHistory(range: TimeRange, since: number | null): TimeRange {
  if (since === null || since <= range.from || since >= range.to) return range;
  const from = Math.min(since, range.to - MINUTE_MS);
  return { from: Math.max(range.from, from - (range.to - from) * 0.03), to: range.to };
}

/** The selection navigation parameters describe (see the file comment). */
export function selectionFromParams(params: Readonly<Record<string, string>>, now: number, fallback: RangeSelection = DEFAULT_SELECTION): RangeSelection {
  const from = Number(params['from']);
  const to = Number(params['to']);
  if (params['from'] && params['to'] && Number.isFinite(from) && Number.isFinite(to) && from < to) return { choice: 'custom', custom: { from, to } };
  const at = Number(params['at']);
  if (params['at'] && Number.isFinite(at)) return { choice: 'custom', custom: rangeAround(at, HOUR_MS, now) };
  const range = params['range'];
  if (isPreset(range)) return { choice: range, custom: null };
  return fallback;
}

/** Navigation parameters for a selection (the inverse of selectionFromParams). */
export function selectionParams(selection: RangeSelection): Record<string, string> {
  if (selection.choice === 'custom' && selection.custom) return { from: String(Math.round(selection.custom.from)), to: String(Math.round(selection.custom.to)) };
  return { range: selection.choice };
}

const pad = (value: number): string => String(value).padStart(2, '0');

/** A time as a `datetime-local` input value ("2025-05-03T14:03:12"), local time. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** A `datetime-local` value as ms since the epoch, or null when it is not a valid time. */
export function fromLocalInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map((part) => (part === undefined ? 0 : Number(part))) as [number, number, number, number, number, number];
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  const date = new Date(year, month - 1, day, hours, minutes, seconds);
  // new Date rolls "Feb 31" over into March; a rolled-over value was not a real date.
  if (date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date.getTime();
}

/** Checks a custom range typed by the user: a clear reason when it cannot be used. */
export function validateCustomRange(fromText: string, toText: string, now: number): { range: TimeRange } | { error: string } {
  const from = fromLocalInput(fromText);
  const to = fromLocalInput(toText);
  if (from === null) return { error: 'The start is not a valid date and time.' };
  if (to === null) return { error: 'The end is not a valid date and time.' };
  if (from >= to) return { error: 'The start must be before the end.' };
  if (from > now) return { error: 'The range starts in the future: nothing is recorded there yet.' };
  if (to - from < 10_000) return { error: 'The range must be at least 10 seconds long.' };
  return { range: { from, to: Math.min(to, now) } };
}
