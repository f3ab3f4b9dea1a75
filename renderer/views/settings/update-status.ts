/**
 * The one quiet line the Settings screen shows about updates: what the desktop app's last check
 * found. A failed check is said here in words, never in a modal error.
 */
import type { UpdateStatus } from '../../../shared/contracts/updates.ts';
import { formatMoment } from '../../components/charts/time-format.ts';

/** The line for `status` (null: no check has reported yet); `checks` is the switch's value. */
export function updateStatusText(status: UpdateStatus | null, checks: boolean): string {
  if (!checks) return 'Kubedrift does not look for updates. Turn the switch on to be offered new releases.';
  if (!status) return 'The first check runs shortly after start-up, then every few hours.';
  const version = status.version ?? '';
  switch (status.state) {
    case 'checking':
      return 'Checking for updates…';
    case 'up-to-date':
      return `Kubedrift is up to date (checked at ${formatMoment(status.at)}).`;
    case 'available':
      return `Kubedrift ${version} is available.`;
    case 'downloading':
      return `Downloading Kubedrift ${version}…`;
    case 'downloaded':
      return `Kubedrift ${version} is downloaded and waits for your answer to "Restart to install?".`;
    case 'skipped':
      return `Kubedrift ${version} was skipped; newer releases will still be offered.`;
    case 'failed':
      return `The last check, at ${formatMoment(status.at)}, did not complete (${status.message ?? 'unknown error'}); Kubedrift tries again later.`;
  }
}
