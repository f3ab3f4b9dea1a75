/** One line about a background recorder, for the Settings card. */
import type { BackgroundContextStatus } from '../../../shared/contracts/background.ts';
import { formatMoment } from '../../components/charts/time-format.ts';

const time = (at: number): string => formatMoment(at);

export function backgroundStateText(status: BackgroundContextStatus): string {
  const last = status.lastError && status.lastError.at > 0 ? ` Last error (${time(status.lastError.at)}): ${status.lastError.message}` : status.lastError ? ` ${status.lastError.message}` : '';
  switch (status.state) {
    case 'selected':
      return 'Selected: the app records it now.';
    case 'starting':
      return `Connecting…${last ? ` ${last.trim()}` : ''}`;
    case 'recording':
      // The store's notice first ("Recording on this computer only: …"): it is about now.
      return `Recording since ${time(status.recordingSince ?? 0)}.${status.notice ? ` ${status.notice}` : ''}${last}`;
    case 'retrying':
      return `Not recording.${last}${status.retryAt !== null ? ` Retrying at ${time(status.retryAt)}.` : ''}`;
  }
}
