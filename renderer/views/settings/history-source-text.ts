/** Words about a history source for the Settings card: its state, its contexts, its last error. */
import type { HistorySourceErrorCode, HistorySourceStatus } from '../../../shared/contracts/history-sources.ts';
import { formatMoment } from '../../components/charts/time-format.ts';

const time = (at: number): string => formatMoment(at);

/** What the user can do about each kind of failure. */
const REMEDIES: Readonly<Record<HistorySourceErrorCode, string>> = {
  unreachable: 'Check the address and that the recorder runs with --listen.',
  unauthorized: 'Remove this source and add it again with the recorder\'s current token.',
  protocol: 'Update the app or the recorder so their versions match.',
  'not-a-recorder': 'The address must be a recorder\'s --listen address.',
  'invalid-answer': 'Update the app or the recorder so their versions match.',
};

/** One line: connected with which contexts, or why not. */
export function sourceStateText(source: HistorySourceStatus): string {
  if (source.state === 'checking') return 'Connecting…';
  if (source.state === 'connected') {
    const contexts = source.contexts.map((context) => context.name).join(', ') || 'no contexts';
    return `Connected${source.checkedAt !== null ? ` (checked ${time(source.checkedAt)})` : ''}: records ${contexts}.`;
  }
  const error = source.lastError;
  if (!error) return 'Not connected.';
  return `${error.message} ${REMEDIES[error.code]}`;
}

/** A source URL without credentials or query (what the card shows). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return url;
  }
}
