import { describe, expect, it } from 'vitest';
import { checkForm, formFrom } from '../../../../renderer/views/settings/history-limits.ts';
import { SETTINGS } from '../fake-api.ts';

describe('history settings form', () => {
  it('starts from the defaults (14 days, 1 GiB, recording) and from saved values', () => {
    expect(formFrom(SETTINGS)).toEqual({ recording: true, days: '14', size: '1', unit: 'GiB', store: '' });
    expect(formFrom({ ...SETTINGS, historyRecording: false, historyRetentionDays: 30, historyMaxBytes: 512 * 1024 ** 2, historyStore: 'postgres://k@db/h' })).toEqual({ recording: false, days: '30', size: '512', unit: 'MiB', store: 'postgres://k@db/h' });
  });

  it('turns the form into settings, in bytes', () => {
    expect(checkForm({ recording: true, days: '7', size: '2.5', unit: 'GiB', store: '' })).toEqual({ patch: { historyRecording: true, historyRetentionDays: 7, historyMaxBytes: 2.5 * 1024 ** 3, historyStore: '' } });
    expect(checkForm({ recording: true, days: '7', size: '1', unit: 'GiB', store: ' postgres://kubedrift@db:5432/history ' })).toMatchObject({ patch: { historyStore: 'postgres://kubedrift@db:5432/history' } });
  });

  it('says what is wrong with a value instead of saving it', () => {
    expect(checkForm({ recording: true, days: '', size: '1', unit: 'GiB', store: '' })).toEqual({ error: 'Keep history for a whole number of days.' });
    expect(checkForm({ recording: true, days: '1.5', size: '1', unit: 'GiB', store: '' })).toEqual({ error: 'Keep history for a whole number of days.' });
    expect(checkForm({ recording: true, days: '400', size: '1', unit: 'GiB', store: '' })).toEqual({ error: 'Keep history between 1 and 365 days.' });
    expect(checkForm({ recording: true, days: '14', size: 'lots', unit: 'GiB', store: '' })).toEqual({ error: 'The size limit must be a positive number.' });
    expect(checkForm({ recording: true, days: '14', size: '10', unit: 'MiB', store: '' })).toEqual({ error: 'The size limit must be at least 64 MiB.' });
    expect(checkForm({ recording: true, days: '14', size: '2000', unit: 'GiB', store: '' })).toEqual({ error: 'The size limit can be at most 1024 GiB (1 TiB).' });
    expect(checkForm({ recording: true, days: '14', size: '1', unit: 'GiB', store: 'mysql://root@db/history' })).toEqual({
      error: 'The history store must be empty (this computer only) or a connection string such as postgres://user@host:5432/kubedrift.',
    });
  });
});
