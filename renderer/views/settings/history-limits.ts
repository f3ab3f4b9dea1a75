/**
 * The history retention form's rules: what the fields start from, and whether what the user
 * typed can be saved. The limits restate shared/model.ts (HISTORY_RETENTION_DAYS,
 * HISTORY_MAX_BYTES, HISTORY_TAKEOVER_SECONDS) so the bundle does not pull the schema library;
 * the engine checks again.
 */
import type { Settings } from '../../../shared/model.ts';
import type { HistorySettings } from '../../stores/settings.ts';

export const RETENTION_DAYS = { min: 1, max: 365, default: 14 } as const;
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
export const MAX_BYTES = { min: 64 * MIB, max: 1024 ** 4, default: GIB } as const;
export const TAKEOVER_SECONDS = { min: 5, max: 3_600, default: 30 } as const;

/** Whether the store field names a shared PostgreSQL store (the takeover time applies only to one). */
export const isSharedStore = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store.trim());

export type SizeUnit = 'MiB' | 'GiB';
export const UNIT_BYTES: Record<SizeUnit, number> = { MiB: MIB, GiB: GIB };

/** As the fields hold it: text, or a number where a number input's v-model already cast it. */
export interface HistoryForm {
  recording: boolean;
  days: string | number;
  size: string | number;
  unit: SizeUnit;
  /** The history store: empty (this machine's files) or a postgres:// connection string. */
  store: string;
  /** Seconds a shared store's silent writer keeps its context before another recorder takes it over. */
  takeover: string | number;
}

/** The form as the saved settings fill it (defaults where unset). */
export function formFrom(settings: Settings | null): HistoryForm {
  const bytes = settings?.historyMaxBytes ?? MAX_BYTES.default;
  const unit: SizeUnit = bytes % GIB === 0 ? 'GiB' : 'MiB';
  return {
    recording: settings?.historyRecording ?? true,
    days: String(settings?.historyRetentionDays ?? RETENTION_DAYS.default),
    size: String(Math.round((bytes / UNIT_BYTES[unit]) * 100) / 100),
    unit,
    store: settings?.historyStore ?? '',
    takeover: String(settings?.historyTakeoverSeconds ?? TAKEOVER_SECONDS.default),
  };
}

/** What the form saves: the takeover time only with a shared store. */
export type HistoryPatch = Required<Omit<HistorySettings, 'historyTakeoverSeconds'>> & Pick<HistorySettings, 'historyTakeoverSeconds'>;

/** The settings the form asks for, or what is wrong with it. */
export function checkForm(form: HistoryForm): { patch: HistoryPatch } | { error: string } {
  const daysText = String(form.days).trim();
  const sizeText = String(form.size).trim();
  const days = Number(daysText);
  if (daysText === '' || !Number.isInteger(days)) return { error: 'Keep history for a whole number of days.' };
  if (days < RETENTION_DAYS.min || days > RETENTION_DAYS.max) return { error: `Keep history between ${RETENTION_DAYS.min} and ${RETENTION_DAYS.max} days.` };
  const size = Number(sizeText);
  if (sizeText === '' || !Number.isFinite(size) || size <= 0) return { error: 'The size limit must be a positive number.' };
  const bytes = Math.round(size * UNIT_BYTES[form.unit]);
  if (bytes < MAX_BYTES.min) return { error: 'The size limit must be at least 64 MiB.' };
  if (bytes > MAX_BYTES.max) return { error: 'The size limit can be at most 1024 GiB (1 TiB).' };
  const store = form.store.trim();
  if (store !== '' && store !== 'sqlite' && !/^postgres(ql)?:\/\/[^/]/i.test(store)) return { error: 'The history store must be empty (this computer only) or a connection string such as postgres://user@host:5432/kubedrift.' };
  const patch: HistoryPatch = { historyRecording: form.recording, historyRetentionDays: days, historyMaxBytes: bytes, historyStore: store === 'sqlite' ? '' : store };
  // Without a shared store the field is not used: its saved value stays as it is.
  if (!isSharedStore(store)) return { patch };
  const takeoverText = String(form.takeover).trim();
  const takeover = Number(takeoverText);
  if (takeoverText === '' || !Number.isInteger(takeover)) return { error: 'The takeover time must be a whole number of seconds.' };
  if (takeover < TAKEOVER_SECONDS.min || takeover > TAKEOVER_SECONDS.max) return { error: `The takeover time must be between ${TAKEOVER_SECONDS.min} and ${TAKEOVER_SECONDS.max} seconds.` };
  return { patch: { ...patch, historyTakeoverSeconds: takeover } };
}
