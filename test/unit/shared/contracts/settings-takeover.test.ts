/**
 * The takeover time in the settings (historyTakeoverSeconds): the engine parses every
 * `settings:update` with SettingsUpdateSchema, so a value the form let through is still refused
 * with a clear message, and a saved settings file with a bad one does not parse.
 */
import { describe, expect, it } from 'vitest';
import { applySettingsUpdate, SettingsUpdateSchema } from '../../../../shared/contracts/settings.ts';
import { HISTORY_TAKEOVER_SECONDS, SettingsSchema, type Settings } from '../../../../shared/model.ts';

const BASE: Settings = { theme: 'system', lastContext: null, historyStore: 'postgres://kubedrift@db:5432/kubedrift' };

function refusal(value: unknown): string | undefined {
  const parsed = SettingsUpdateSchema.safeParse({ historyTakeoverSeconds: value });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('historyTakeoverSeconds', () => {
  it('accepts whole seconds from 5 to 3600 (default 30), and an update saves it', () => {
    expect(HISTORY_TAKEOVER_SECONDS).toEqual({ min: 5, max: 3_600, default: 30 });
    for (const seconds of [5, 30, 3_600]) expect(SettingsUpdateSchema.parse({ historyTakeoverSeconds: seconds })).toEqual({ historyTakeoverSeconds: seconds });
    expect(applySettingsUpdate(BASE, SettingsUpdateSchema.parse({ historyTakeoverSeconds: 12 })).historyTakeoverSeconds).toBe(12);
    // Absent: the store's default applies (WRITER_TTL_MS).
    expect(SettingsSchema.parse(BASE).historyTakeoverSeconds).toBeUndefined();
  });

  it('refuses a value out of range, fractional or not a number, saying why', () => {
    expect(refusal(4)).toBe('the takeover time must be at least 5 seconds');
    expect(refusal(0)).toBe('the takeover time must be at least 5 seconds');
    expect(refusal(3_601)).toBe('the takeover time can be at most 3600 seconds (one hour)');
    expect(refusal(7.5)).toBe('the takeover time must be a whole number of seconds');
    expect(refusal('30')).toBe('the takeover time must be a number of seconds');
    expect(refusal(null)).toBe('the takeover time must be a number of seconds');
  });

  it('does not parse from a settings file that holds a bad one', () => {
    expect(SettingsSchema.safeParse({ ...BASE, historyTakeoverSeconds: 1 }).success).toBe(false);
  });
});
