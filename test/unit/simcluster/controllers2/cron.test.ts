import { describe, expect, it } from 'vitest';
import { CronError, parseCron, parseGoDuration } from '../../../../electron/engine/simcluster/controllers/cron.ts';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

/** The next `count` activations after `from`. */
function runs(expression: string, from: string, count = 1, timeZone?: string): Array<string | undefined> {
  const schedule = parseCron(expression, timeZone ? { timeZone } : {});
  const out: Array<string | undefined> = [];
  let t: number | undefined = at(from);
  for (let i = 0; i < count && t !== undefined; i += 1) {
    t = schedule.next(t);
    out.push(iso(t));
  }
  return out;
}

describe('parseCron next activation', () => {
  it.each([
    ['* * * * *', '2026-01-01T10:00:30Z', '2026-01-01T10:01:00.000Z'],
    ['*/5 * * * *', '2026-01-01T10:03:00Z', '2026-01-01T10:05:00.000Z'],
    ['*/15 * * * *', '2026-01-01T10:59:00Z', '2026-01-01T11:00:00.000Z'],
    ['0 * * * *', '2026-01-01T10:00:00Z', '2026-01-01T11:00:00.000Z'],
    ['30 2 * * *', '2026-01-01T03:00:00Z', '2026-01-02T02:30:00.000Z'],
    ['0 0 1 * *', '2026-01-15T00:00:00Z', '2026-02-01T00:00:00.000Z'],
    ['0 0 31 * *', '2026-02-01T00:00:00Z', '2026-03-31T00:00:00.000Z'],
    ['0 0 29 2 *', '2026-01-01T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['0 9 * * 1-5', '2026-01-02T10:00:00Z', '2026-01-05T09:00:00.000Z'],
    ['0 9 * * mon-fri', '2026-01-03T00:00:00Z', '2026-01-05T09:00:00.000Z'],
    ['0 12 * JAN,Jul *', '2026-02-01T00:00:00Z', '2026-07-01T12:00:00.000Z'],
    ['5,35 * * * *', '2026-01-01T10:06:00Z', '2026-01-01T10:35:00.000Z'],
    ['10-20/5 * * * *', '2026-01-01T10:16:00Z', '2026-01-01T10:20:00.000Z'],
    ['50/5 * * * *', '2026-01-01T10:56:00Z', '2026-01-01T11:50:00.000Z'],
    ['0 0 ? * sun', '2026-01-01T00:00:00Z', '2026-01-04T00:00:00.000Z'],
    ['0 0 13 * 5', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00.000Z'],
    ['0 0 */1 * 5', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00.000Z'],
    ['@hourly', '2026-01-01T10:20:00Z', '2026-01-01T11:00:00.000Z'],
    ['@daily', '2026-01-01T10:20:00Z', '2026-01-02T00:00:00.000Z'],
    ['@midnight', '2026-01-01T10:20:00Z', '2026-01-02T00:00:00.000Z'],
    ['@weekly', '2026-01-01T10:20:00Z', '2026-01-04T00:00:00.000Z'],
    ['@monthly', '2026-01-01T10:20:00Z', '2026-02-01T00:00:00.000Z'],
    ['@yearly', '2026-01-01T10:20:00Z', '2027-01-01T00:00:00.000Z'],
    ['@annually', '2026-06-01T00:00:00Z', '2027-01-01T00:00:00.000Z'],
    ['@every 90s', '2026-01-01T10:00:00.500Z', '2026-01-01T10:01:30.000Z'],
    ['@every 1h30m', '2026-01-01T10:00:00Z', '2026-01-01T11:30:00.000Z'],
  ])('%s after %s is %s', (expression, from, expected) => {
    expect(runs(expression, from)).toEqual([expected]);
  });

  it('uses OR between day-of-month and day-of-week when both are restricted', () => {
    // The 13th or any Friday: Fri 2 Jan, Fri 9 Jan, Tue 13 Jan, Fri 16 Jan.
    expect(runs('0 0 13 * 5', '2026-01-01T00:00:00Z', 4)).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-09T00:00:00.000Z',
      '2026-01-13T00:00:00.000Z',
      '2026-01-16T00:00:00.000Z',
    ]);
  });

  it('uses OR when a day field is a */2 step, which clears the star bit', () => {
    // Odd days or Mondays: Sat 3 Jan, then Mon 5 Jan.
    expect(runs('0 0 */2 * 1', '2026-01-01T00:00:00Z', 2)).toEqual(['2026-01-03T00:00:00.000Z', '2026-01-05T00:00:00.000Z']);
  });

  it('walks every-five-minutes across an hour and a day boundary', () => {
    expect(runs('*/20 23 * * *', '2026-01-01T23:30:00Z', 3)).toEqual(['2026-01-01T23:40:00.000Z', '2026-01-02T23:00:00.000Z', '2026-01-02T23:20:00.000Z']);
  });

  it('finds nothing for a date that never exists', () => {
    expect(runs('0 0 30 2 *', '2026-01-01T00:00:00Z')).toEqual([undefined]);
  });

  it('evaluates in spec.timeZone', () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC in summer.
    expect(runs('0 9 * * *', '2026-01-10T00:00:00Z', 1, 'America/New_York')).toEqual(['2026-01-10T14:00:00.000Z']);
    expect(runs('0 9 * * *', '2026-07-10T00:00:00Z', 1, 'America/New_York')).toEqual(['2026-07-10T13:00:00.000Z']);
    expect(runs('0 9 * * *', '2026-07-10T00:00:00Z', 1, 'Etc/UTC')).toEqual(['2026-07-10T09:00:00.000Z']);
  });
});

describe('parseCron errors', () => {
  it.each([
    ['', 'empty spec string'],
    ['* * *', 'expected exactly 5 fields, found 3: [* * *]'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['* 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['* * * 13 *', 'end of range (13) above maximum (12): 13'],
    ['* * * * 7', 'end of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'too many slashes: */2/3'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 5x', 'time: invalid duration "5x"'],
  ])('rejects %j with "%s"', (expression, message) => {
    expect(() => parseCron(expression)).toThrow(new CronError(message));
  });

  it('rejects an unknown time zone', () => {
    expect(() => parseCron('* * * * *', { timeZone: 'Mars/Olympus' })).toThrow('unknown time zone Mars/Olympus');
  });
});

describe('parseGoDuration', () => {
  it.each([
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h30m', 5_400_000],
    ['1.5h', 5_400_000],
    ['250ms', 250],
    ['0', 0],
  ])('%s is %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBe(ms);
  });

  it('rejects a bare number and unknown units', () => {
    expect(() => parseGoDuration('30')).toThrow('time: invalid duration "30"');
    expect(() => parseGoDuration('3d')).toThrow('time: invalid duration "3d"');
  });
});
