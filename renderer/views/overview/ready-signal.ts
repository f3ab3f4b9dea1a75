/**
 * The Overview tells smoke tests it is live (shared/smoke.ts): attributes on <html> that headless
 * Chromium and Electron read the same way. Set once, the first time live rows are on screen, and
 * left there: the smoke test asks whether the app got that far, not whether it still is.
 */
import { OVERVIEW_LIVE, type OverviewLive } from '../../../shared/smoke.ts';

/** Marks the document as having shown the Overview live, with what it showed. */
export function markOverviewLive(live: OverviewLive, root: HTMLElement = document.documentElement): void {
  if (root.dataset['kubedriftReady'] === OVERVIEW_LIVE) return;
  root.dataset['kubedriftContext'] = live.context;
  root.dataset['kubedriftWorkloads'] = String(live.workloads);
  // Last, so a reader that sees "ready" also sees what goes with it.
  root.dataset['kubedriftReady'] = OVERVIEW_LIVE;
}
