/**
 * Cron schedules as the CronJob controller reads them: robfig/cron's standard parser (five
 * fields, `*` `?` ranges steps lists month and weekday names, `@hourly`-style descriptors and
 * `@every <duration>`), evaluated in UTC or an IANA `spec.timeZone`. Error messages follow
 * robfig's, which kube-apiserver puts into `spec.schedule` validation failures.
 */

/** A parsed schedule: the first activation strictly after a time. */
export interface CronSchedule {
  /** Epoch ms of the next activation after `afterMs`, or undefined if none in five years. */
  next(afterMs: number): number | undefined;
}

/** A schedule that does not parse; the message is robfig/cron's. */
export class CronError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronError';
  }
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

/** One field's allowed values, and whether it was written as `*`/`?` (robfig's star bit). */
interface FieldSet {
  values: boolean[];
  star: boolean;
}

const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const WEEKDAYS: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
const FIELDS: Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, MONTHS, WEEKDAYS];

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MINUTE_MS = 60_000;
const DURATION_UNITS_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: MINUTE_MS, h: 3_600_000 };

/** A Go `time.ParseDuration` string (`90s`, `1h30m`, `1.5h`) in ms; throws on anything else. */
export function parseGoDuration(text: string): number {
  const trimmed = text.trim();
  if (trimmed === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(trimmed); m; m = re.exec(trimmed)) {
    total += Number(m[1]) * (DURATION_UNITS_MS[m[2] ?? ''] ?? 0);
    consumed = re.lastIndex;
  }
  if (trimmed === '' || consumed !== trimmed.length) throw new CronError(`time: invalid duration "${text}"`);
  return total;
}

function parseNumber(text: string, bounds: Bounds): number {
  const named = bounds.names?.[text.toLowerCase()];
  if (named !== undefined) return named;
  if (!/^\d+$/.test(text)) throw new CronError(`failed to parse int from ${text}: strconv.Atoi: parsing "${text}": invalid syntax`);
  return Number(text);
}

/** One comma-separated term (`*`, `5`, `1-5`, `*\/15`, `10/5`) added to `into`. */
function parseRange(expr: string, bounds: Bounds, into: FieldSet): void {
  const [rangePart = '', stepPart, ...extraSlash] = expr.split('/');
  const [low = '', high, ...extraDash] = rangePart.split('-');
  if (extraSlash.length > 0) throw new CronError(`too many slashes: ${expr}`);
  if (extraDash.length > 0) throw new CronError(`too many hyphens: ${expr}`);
  let start: number;
  let end: number;
  let star = false;
  if (low === '*' || low === '?') {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    start = parseNumber(low, bounds);
    end = high === undefined ? start : parseNumber(high, bounds);
  }
  let step = 1;
  if (stepPart !== undefined) {
    step = parseNumber(stepPart, { min: 0, max: 0 });
    if (high === undefined && !star) end = bounds.max;
    // `*/1` still counts as a star for the day-of-month/day-of-week rule; `*/2` does not.
    if (step > 1) star = false;
  }
  if (start < bounds.min) throw new CronError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new CronError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
  for (let i = start; i <= end; i += step) into.values[i] = true;
  if (star) into.star = true;
}

function parseField(text: string, bounds: Bounds): FieldSet {
  const set: FieldSet = { values: [], star: false };
  for (const term of text.split(',')) parseRange(term, bounds, set);
  return set;
}

/** Milliseconds to add to a UTC instant to get the wall clock in `zone`. */
function zoneOffsetMs(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(new Date(instant));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** RFC 3339 of an instant as seen in `zone` (`2026-01-01T09:00:00-05:00`), or in UTC (`...Z`). */
export function rfc3339InZone(ms: number, zone?: string): string {
  const offset = zone ? zoneOffsetMs(zone, ms) : 0;
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset).toISOString().replace(/\.\d{3}Z$/, '');
  if (offset === 0) return `${wall}Z`;
  const minutes = Math.abs(offset) / 60_000;
  return `${wall}${offset < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

class FieldSchedule implements CronSchedule {
  private readonly fields: FieldSet[];
  private readonly zone: string | undefined;

  constructor(fields: FieldSet[], zone: string | undefined) {
    this.fields = fields;
    this.zone = zone;
  }

  next(afterMs: number): number | undefined {
    if (!this.zone) return this.nextWall(afterMs);
    const wall = this.nextWall(afterMs + zoneOffsetMs(this.zone, afterMs));
    if (wall === undefined) return undefined;
    const guess = wall - zoneOffsetMs(this.zone, wall);
    return wall - zoneOffsetMs(this.zone, guess);
  }

  private matches(field: number, value: number): boolean {
    return this.fields[field]?.values[value] === true;
  }

  private dayMatches(d: Date): boolean {
    const dom = this.matches(2, d.getUTCDate());
    const dow = this.matches(4, d.getUTCDay());
    if (this.fields[2]?.star || this.fields[4]?.star) return dom && dow;
    return dom || dow;
  }

  /** robfig's search: advance the coarsest mismatching field, restart on wrap-around. */
  private nextWall(afterMs: number): number | undefined {
    const t = new Date(Math.floor(afterMs / MINUTE_MS) * MINUTE_MS + MINUTE_MS);
    const yearLimit = t.getUTCFullYear() + 5;
    wrap: for (;;) {
      if (t.getUTCFullYear() > yearLimit) return undefined;
      let reset = false;
      while (!this.matches(3, t.getUTCMonth() + 1)) {
        if (!reset) {
          reset = true;
          t.setUTCDate(1);
          t.setUTCHours(0, 0, 0, 0);
        }
        t.setUTCMonth(t.getUTCMonth() + 1);
        if (t.getUTCMonth() === 0) continue wrap;
      }
      while (!this.dayMatches(t)) {
        if (!reset) {
          reset = true;
          t.setUTCHours(0, 0, 0, 0);
        }
        t.setUTCDate(t.getUTCDate() + 1);
        if (t.getUTCDate() === 1) continue wrap;
      }
      while (!this.matches(1, t.getUTCHours())) {
        if (!reset) {
          reset = true;
          t.setUTCMinutes(0, 0, 0);
        }
        t.setUTCHours(t.getUTCHours() + 1);
        if (t.getUTCHours() === 0) continue wrap;
      }
      while (!this.matches(0, t.getUTCMinutes())) {
        t.setUTCMinutes(t.getUTCMinutes() + 1);
        if (t.getUTCMinutes() === 0) continue wrap;
      }
      return t.getTime();
    }
  }
}

class EverySchedule implements CronSchedule {
  private readonly delayMs: number;

  constructor(delayMs: number) {
    this.delayMs = delayMs;
  }

  next(afterMs: number): number {
    return Math.floor(afterMs / 1000) * 1000 + this.delayMs;
  }
}

/**
 * Parses a CronJob schedule. `timeZone` is the CronJob's `spec.timeZone` (an IANA name);
 * without it the schedule runs in UTC, as kube-controller-manager does in its container.
 */
export function parseCron(expression: string, options: { timeZone?: string } = {}): CronSchedule {
  const spec = expression.trim();
  if (spec === '') throw new CronError('empty spec string');
  if (options.timeZone) {
    try {
      zoneOffsetMs(options.timeZone, 0);
    } catch {
      throw new CronError(`unknown time zone ${options.timeZone}`);
    }
  }
  if (spec.startsWith('@')) {
    if (spec.startsWith('@every ')) {
      const delay = parseGoDuration(spec.slice('@every '.length));
      // robfig rounds to whole seconds and never fires more than once a second.
      return new EverySchedule(Math.max(1_000, Math.floor(delay / 1000) * 1000));
    }
    const standard = DESCRIPTORS[spec.toLowerCase()];
    if (!standard) throw new CronError(`unrecognized descriptor: ${spec}`);
    return parseCron(standard, options);
  }
  const fields = spec.split(/\s+/);
  if (fields.length !== 5) throw new CronError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const sets = fields.map((field, i) => parseField(field, FIELDS[i] as Bounds));
  return new FieldSchedule(sets, options.timeZone && options.timeZone !== 'UTC' && options.timeZone !== 'Etc/UTC' ? options.timeZone : undefined);
}
