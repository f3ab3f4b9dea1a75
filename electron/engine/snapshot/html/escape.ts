/** Text into HTML, and the small formatting helpers the report's sections share. */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: unknown): string {
  return String(value ?? '').replace(/[&<>"']/g, (char) => ENTITIES[char] as string);
}

/** A tagged template whose interpolations are escaped, except those wrapped in `raw()`. */
export interface RawHtml {
  readonly html: string;
}

export function raw(html: string): RawHtml {
  return { html };
}

function part(value: unknown): string {
  if (Array.isArray(value)) return value.map(part).join('');
  if (typeof value === 'object' && value !== null && 'html' in value) return (value as RawHtml).html;
  return escapeHtml(value);
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): RawHtml {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += part(value) + (strings[index + 1] ?? '');
  });
  return raw(out);
}

/** 2024-05-01 12:00:05 UTC */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '')} UTC`;
}

/** 1h 5m, 3m 20s, 45s */
export function formatDuration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${s}s`;
  return `${s}s`;
}

export function formatCount(value: number | null): string {
  return value === null ? '—' : new Intl.NumberFormat('en-US').format(value);
}
