import { describe, expect, it } from 'vitest';
import { checkForm, formFrom, MAX_BYTES, RETENTION_DAYS, TAKEOVER_SECONDS } from '../../../../renderer/views/settings/history-limits.ts';
import { HISTORY_MAX_BYTES, HISTORY_RETENTION_DAYS, HISTORY_TAKEOVER_SECONDS } from '../../../../shared/model.ts';
import { SETTINGS } from '../fake-api.ts';

describe('history settings form', () => {
  it('starts from the defaults (14 days, 1 GiB, recording) and from saved values', () => {
    expect(formFrom(SETTINGS)).toEqual({ recording: true, days: '14', size: '1', unit: 'GiB', store: '', takeover: '30' });
    expect(formFrom({ ...SETTINGS, historyRecording: false, historyRetentionDays: 30, historyMaxBytes: 512 * 1024 ** 2, historyStore: 'postgres://k@db/h', historyTakeoverSeconds: 90 })).toEqual({ recording: false, days: '30', size: '512', unit: 'MiB', store: 'postgres://k@db/h', takeover: '90' });
  });

  it('turns the form into settings, in bytes', () => {
    expect(checkForm({ recording: true, days: '7', size: '2.5', unit: 'GiB', store: '', takeover: '30' })).toEqual({ patch: { historyRecording: true, historyRetentionDays: 7, historyMaxBytes: 2.5 * 1024 ** 3, historyStore: '' } });
    expect(checkForm({ recording: true, days: '7', size: '1', unit: 'GiB', store: ' postgres://kubedrift@db:5432/history ', takeover: '30' })).toMatchObject({ patch: { historyStore: 'postgres://kubedrift@db:5432/history' } });
  });

  it('saves the takeover time only with a shared store, in whole seconds from 5 to 3600', () => {
    const form = { recording: true, days: '14', size: '1', unit: 'GiB' as const, store: 'postgres://k@db/h' };
    expect(checkForm({ ...form, takeover: '45' })).toMatchObject({ patch: { historyStore: 'postgres://k@db/h', historyTakeoverSeconds: 45 } });
    expect(checkForm({ ...form, takeover: 5 })).toMatchObject({ patch: { historyTakeoverSeconds: 5 } });
    expect(checkForm({ ...form, takeover: '3600' })).toMatchObject({ patch: { historyTakeoverSeconds: 3600 } });
    expect(checkForm({ ...form, takeover: '4' })).toEqual({ error: 'The takeover time must be between 5 and 3600 seconds.' });
    expect(checkForm({ ...form, takeover: '3601' })).toEqual({ error: 'The takeover time must be between 5 and 3600 seconds.' });
    expect(checkForm({ ...form, takeover: '7.5' })).toEqual({ error: 'The takeover time must be a whole number of seconds.' });
    expect(checkForm({ ...form, takeover: '' })).toEqual({ error: 'The takeover time must be a whole number of seconds.' });
    // This computer's files only: the field is not used, and its saved value is left alone.
    expect(checkForm({ ...form, store: '', takeover: 'x' })).toEqual({ patch: { historyRecording: true, historyRetentionDays: 14, historyMaxBytes: 1024 ** 3, historyStore: '' } });
  });

  it('says what is wrong with a value instead of saving it', () => {
    expect(checkForm({ recording: true, days: '', size: '1', unit: 'GiB', store: '', takeover: '30' })).toEqual({ error: 'Keep history for a whole number of days.' });
    expect(checkForm({ recording: true, days: '1.5', size: '1', unit: 'GiB', store: '', takeover: '30' })).toEqual({ error: 'Keep history for a whole number of days.' });
    expect(checkForm({ recording: true, days: '400', size: '1', unit: 'GiB', store: '', takeover: '30' })).toEqual({ error: 'Keep history between 1 and 365 days.' });
    expect(checkForm({ recording: true, days: '14', size: 'lots', unit: 'GiB', store: '', takeover: '30' })).toEqual({ error: 'The size limit must be a positive number.' });
    expect(checkForm({ recording: true, days: '14', size: '10', unit: 'MiB', store: '', takeover: '30' })).toEqual({ error: 'The size limit must be at least 64 MiB.' });
    expect(checkForm({ recording: true, days: '14', size: '2000', unit: 'GiB', store: '', takeover: '30' })).toEqual({ error: 'The size limit can be at most 1024 GiB (1 TiB).' });
    expect(checkForm({ recording: true, days: '14', size: '1', unit: 'GiB', store: 'mysql://root@db/history', takeover: '30' })).toEqual({
      error: 'The history store must be empty (this computer only) or a connection string such as postgres://user@host:5432/kubedrift.',
    });
  });
});

describe('the form\'s limits', () => {
  it('are the ones the settings contract enforces (restated so the bundle does not pull the schema library)', () => {
    expect({ min: RETENTION_DAYS.min, max: RETENTION_DAYS.max }).toEqual(HISTORY_RETENTION_DAYS);
    expect({ min: MAX_BYTES.min, max: MAX_BYTES.max }).toEqual(HISTORY_MAX_BYTES);
    expect(TAKEOVER_SECONDS).toEqual(HISTORY_TAKEOVER_SECONDS);
  });
});
