/**
 * The schedule check CronJob validation runs: robfig/cron's ParseStandard (five fields or an
 * @descriptor), returning its error text, which kube-apiserver puts in the field error verbatim.
 */

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTHS: Record<string, number> = { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 };
const DAYS: Record<string, number> = { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 };
const FIELDS: Bounds[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTHS },
  { min: 0, max: 6, names: DAYS },
];
const DESCRIPTORS = new Set(['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly']);
const GO_DURATION = /^([0-9]*(\.[0-9]*)?(ns|us|µs|ms|s|m|h))+$/;

/** mustParseInt: strconv.Atoi's error text, then the negative check. */
function parseInt10(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`failed to parse int from ${text}: strconv.Atoi: parsing ${JSON.stringify(text)}: invalid syntax`);
  const value = Number(text);
  if (value < 0) throw new Error(`negative number (${value}) not allowed: ${text}`);
  return value;
}

function parseIntOrName(text: string, names: Record<string, number> | undefined): number {
  const named = names?.[text.toLowerCase()];
  return named ?? parseInt10(text);
}

/** getRange: `*`, `?`, `n`, `a-b`, each optionally `/step`. */
function checkRange(expr: string, bounds: Bounds): void {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  let start: number;
  let end: number;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
  } else {
    start = parseIntOrName(lowAndHigh[0] ?? '', bounds.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', bounds.names);
    else throw new Error(`too many hyphens: ${expr}`);
  }
  let step = 1;
  if (rangeAndStep.length === 2) {
    step = parseInt10(rangeAndStep[1] ?? '');
    // "N/step" means "N-max/step".
    if (lowAndHigh.length === 1) end = bounds.max;
  } else if (rangeAndStep.length > 2) {
    throw new Error(`too many slashes: ${expr}`);
  }
  if (start < bounds.min) throw new Error(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new Error(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new Error(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`step of range should be a positive number: ${expr}`);
}

/** The parse error of a standard cron schedule, or undefined when it parses. */
export function cronScheduleError(schedule: string): string | undefined {
  let spec = schedule.trim();
  if (spec === '') return 'empty spec string';
  const tz = /^(CRON_TZ|TZ)=(\S*)\s*/.exec(spec);
  if (tz) {
    if (!isTimeZone(tz[2] ?? '')) return `provided bad location ${tz[2] ?? ''}: unknown time zone ${tz[2] ?? ''}`;
    spec = spec.slice(tz[0].length);
  }
  if (spec.startsWith('@')) {
    if (DESCRIPTORS.has(spec)) return undefined;
    if (spec.startsWith('@every ')) {
      const duration = spec.slice('@every '.length);
      return GO_DURATION.test(duration) ? undefined : `failed to parse duration ${spec}: time: invalid duration ${JSON.stringify(duration)}`;
    }
    return `unrecognized descriptor: ${spec}`;
  }
  const fields = spec.split(/\s+/).filter((f) => f !== '');
  if (fields.length !== FIELDS.length) return `expected exactly ${FIELDS.length} fields, found ${fields.length}: [${fields.join(' ')}]`;
  try {
    fields.forEach((field, i) => {
      for (const expr of field.split(',')) checkRange(expr, FIELDS[i] as Bounds);
    });
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
}

/** Whether an IANA time zone name is known (time.LoadLocation in upstream). */
export function isTimeZone(name: string): boolean {
  if (name === '' || name === 'UTC') return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
