import { describe, expect, it } from 'vitest';
import { formatDuration, formatMoment } from '../../../../renderer/components/charts/time-format.ts';
import {
  fitToHistory,
  frameSpan,
  fromLocalInput,
  rangeAround,
  resolveRange,
  selectionFromParams,
  selectionParams,
  toLocalInput,
  validateCustomRange,
} from '../../../../renderer/components/charts/time-range.ts';

const NOW = new Date(2025, 4, 3, 14, 3, 12).getTime();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('time ranges', () => {
  it('resolves each preset to a window ending now', () => {
    expect(resolveRange({ choice: '15m', custom: null }, NOW)).toEqual({ from: NOW - 15 * MINUTE, to: NOW });
    expect(resolveRange({ choice: '24h', custom: null }, NOW)).toEqual({ from: NOW - 24 * HOUR, to: NOW });
    expect(resolveRange({ choice: '7d', custom: null }, NOW)).toEqual({ from: NOW - 7 * 24 * HOUR, to: NOW });
    expect(resolveRange({ choice: 'custom', custom: { from: 1, to: 2 } }, NOW)).toEqual({ from: 1, to: 2 });
  });

  it('reads from/to, at and range parameters, in that order, and writes them back', () => {
    expect(selectionFromParams({ from: '100', to: '200', range: '6h' }, NOW)).toEqual({ choice: 'custom', custom: { from: 100, to: 200 } });
    expect(selectionFromParams({ range: '6h' }, NOW)).toEqual({ choice: '6h', custom: null });
    expect(selectionFromParams({ range: 'nonsense' }, NOW)).toEqual({ choice: '1h', custom: null });
    expect(selectionFromParams({ from: '200', to: '100' }, NOW)).toEqual({ choice: '1h', custom: null });
    const around = selectionFromParams({ at: String(NOW - 2 * HOUR) }, NOW);
    if (!around.custom) throw new Error('an at parameter opens a custom range');
    expect(around.custom.to - around.custom.from).toBe(HOUR);
    expect(around.custom.from).toBeLessThan(NOW - 2 * HOUR);
    expect(around.custom.to).toBeGreaterThan(NOW - 2 * HOUR);
    expect(selectionParams({ choice: 'custom', custom: { from: 100.4, to: 200 } })).toEqual({ from: '100', to: '200' });
    expect(selectionParams({ choice: '7d', custom: null })).toEqual({ range: '7d' });
  });

  it('never opens a window around a moment that reaches past now', () => {
    expect(rangeAround(NOW - MINUTE, HOUR, NOW)).toEqual({ from: NOW - HOUR, to: NOW });
    const framed = frameSpan(NOW - 30 * MINUTE, NOW - 28 * MINUTE, NOW);
    expect(framed.from).toBeLessThan(NOW - 30 * MINUTE);
    expect(framed.to).toBeGreaterThan(NOW - 28 * MINUTE);
    expect(framed.to - framed.from).toBeGreaterThanOrEqual(5 * MINUTE);
  });

  it('shows the recorded part of a window when history starts inside it', () => {
    const range = { from: NOW - HOUR, to: NOW };
    expect(fitToHistory(range, null)).toEqual(range);
    expect(fitToHistory(range, NOW - 2 * HOUR)).toEqual(range);
    const fitted = fitToHistory(range, NOW - 10 * MINUTE);
    expect(fitted.to).toBe(NOW);
    expect(fitted.from).toBeLessThan(NOW - 10 * MINUTE);
    expect(fitted.from).toBeGreaterThan(NOW - 11 * MINUTE);
    // History that began seconds ago still gets a minute of axis.
    expect(fitToHistory(range, NOW - 5_000).from).toBeLessThanOrEqual(NOW - MINUTE);
  });

  it('round-trips datetime-local values and refuses impossible dates', () => {
    expect(fromLocalInput(toLocalInput(NOW))).toBe(NOW);
    expect(fromLocalInput('2025-05-03T14:03')).toBe(new Date(2025, 4, 3, 14, 3, 0).getTime());
    expect(fromLocalInput('2025-02-31T10:00')).toBeNull();
    expect(fromLocalInput('2025-05-03T25:00')).toBeNull();
    expect(fromLocalInput('yesterday')).toBeNull();
  });

  it('says what is wrong with a custom range', () => {
    expect(validateCustomRange('x', '2025-05-03T14:00', NOW)).toEqual({ error: 'The start is not a valid date and time.' });
    expect(validateCustomRange('2025-05-03T14:00', '', NOW)).toEqual({ error: 'The end is not a valid date and time.' });
    expect(validateCustomRange('2025-05-03T14:00', '2025-05-03T13:00', NOW)).toEqual({ error: 'The start must be before the end.' });
    expect(validateCustomRange('2025-05-04T14:00', '2025-05-05T13:00', NOW)).toEqual({ error: 'The range starts in the future: nothing is recorded there yet.' });
    expect(validateCustomRange('2025-05-03T13:00', '2025-05-03T15:00', NOW)).toEqual({ range: { from: new Date(2025, 4, 3, 13).getTime(), to: NOW } });
  });

  it('formats durations with two units and moments with the day only when it is not today', () => {
    expect(formatDuration(0)).toBe('<1s');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(150_000)).toBe('2m 30s');
    expect(formatDuration(HOUR + 5 * MINUTE)).toBe('1h 05m');
    expect(formatDuration(3 * 24 * HOUR + 4 * HOUR)).toBe('3d 4h');
    expect(formatMoment(NOW, NOW)).toBe('14:03:12');
    expect(formatMoment(NOW - 24 * HOUR, NOW)).toBe('May 2, 14:03:12');
  });
});
