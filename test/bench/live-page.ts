/**
 * What the live-pipeline benchmark watches inside the page (a live-browser.ts page). A script
 * installed before the app loads (addInitScript) wraps `WebSocket` so every message the browser shell sends is seen
 * once, on arrival, before the app's own handler (and its first subscription to `cluster:frames`
 * as it is sent, the start of the initial sync):
 * - its UTF-8 size, for the largest message (exact whenever it could be a new maximum: encoded
 *   into one reused buffer, which for ASCII text is a copy, cheaper than scanning it);
 * - its length, summed: the characters received (the frames' JSON is ASCII but for the rare
 *   name or label in another script, so this is their size in bytes);
 * - for `delta` frames, the resourceVersions of their objects, found by a regular expression in
 *   the raw text, filed under the frame's seq. It never parses the JSON a second time, so the
 *   page's extra work per message is a scan of text it already holds.
 * From `startRecording` on, a 5 ms interval reads `window.__kubedriftStore.status()` (the
 * renderer's own test hook): once its seq has reached a filed frame, the frame was applied at
 * `status().appliedAt` (`performance.timeOrigin + appliedAt`, ms since the epoch), kept per
 * resourceVersion. The driver pairs those with the writes' times (stamped-churn.ts) for the
 * latencies. When two batches apply within one interval the earlier one is charged the later
 * time: the error only ever adds. The app itself is not changed.
 */
import type { BenchPage as Page } from './live-browser.ts';

/** `window.__kubedriftBench`, as read back by `readPage`. */
export interface PageMeasures {
  /** Largest WebSocket message from the shell, in UTF-8 bytes. */
  maxMessageBytes: number;
  messages: number;
  /** Characters of all WebSocket messages from the shell so far. */
  receivedChars: number;
  /** The objects applied since `startRecording`, flattened: resourceVersion, apply time (ms since the epoch), ... */
  applied: number[];
  /** The newest resourceVersion applied since `startRecording` (0 before any). */
  newestAppliedRv: number;
  /** Delta frames received but not applied yet. */
  pending: number;
  /** When the app first subscribed to `cluster:frames` (page clock, ms), null before. */
  subscribedAt: number | null;
}

/** The renderer store's status (renderer/stores/cluster/test-hook.ts). */
export interface StoreStatus {
  epoch: string | null;
  seq: number | null;
  synced: boolean;
  objects: number;
  appliedAt: number | null;
}

/** The annotation the benchmark's writes set (to the write time): what changes each pod. */
export const STAMP_ANNOTATION = 'bench/t';

const INIT_SCRIPT = `(() => {
  const RV = /"resourceVersion":"(\\d+)"/g;
  const SEQ = /"seq":(\\d+)/;
  const encoder = new TextEncoder();
  let scratch = new Uint8Array(0);
  const state = { maxMessageBytes: 0, messages: 0, receivedChars: 0, recording: false, pending: [], applied: [], newestAppliedRv: 0, subscribedAt: null };
  function onMessage(event) {
    const data = event.data;
    state.messages += 1;
    if (typeof data !== 'string') {
      state.maxMessageBytes = Math.max(state.maxMessageBytes, data.size ?? data.byteLength ?? 0);
      return;
    }
    state.receivedChars += data.length;
    // UTF-8 never takes more than 3 bytes per UTF-16 unit: shorter texts cannot be a new maximum.
    // Others are encoded into one reused buffer (a copy for ASCII text, cheaper than scanning it).
    if (data.length * 3 > state.maxMessageBytes) {
      if (scratch.length < data.length * 3) scratch = new Uint8Array(data.length * 3);
      const bytes = encoder.encodeInto(data, scratch).written;
      if (bytes > state.maxMessageBytes) state.maxMessageBytes = bytes;
    }
    if (!state.recording || !data.includes('"type":"delta"')) return;
    const seq = SEQ.exec(data);
    if (!seq) return;
    const rvs = [];
    for (const match of data.matchAll(RV)) rvs.push(Number(match[1]));
    if (rvs.length > 0) state.pending.push({ seq: Number(seq[1]), rvs });
  }
  const Native = window.WebSocket;
  window.WebSocket = class MeasuredWebSocket extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', onMessage);
    }
    send(data) {
      // The app's first subscription to the cluster's frames starts the initial sync's clock.
      if (state.subscribedAt === null && typeof data === 'string' && data.includes('"t":"sub"') && data.includes('"stream":"cluster:frames"')) {
        state.subscribedAt = performance.now();
      }
      return super.send(data);
    }
  };
  // Ticks only once recording starts: during the initial sync it would wake the page 200 times a
  // second for nothing, CPU the page and the engine share.
  state.tickWhileRecording = () => setInterval(() => {
    if (state.pending.length === 0) return;
    const status = window.__kubedriftStore?.status();
    if (!status || status.seq === null || status.appliedAt === null) return;
    const applied = performance.timeOrigin + status.appliedAt;
    let done = 0;
    while (done < state.pending.length && state.pending[done].seq <= status.seq) {
      for (const rv of state.pending[done].rvs) {
        state.applied.push(rv, applied);
        if (rv > state.newestAppliedRv) state.newestAppliedRv = rv;
      }
      done += 1;
    }
    if (done > 0) state.pending.splice(0, done);
  }, 5);
  window.__kubedriftBench = state;
})();`;

/** Installs the measuring script; call before the page navigates to the app. */
export async function instrumentPage(page: Page): Promise<void> {
  await page.addInitScript(INIT_SCRIPT);
}

interface BenchState {
  maxMessageBytes: number;
  messages: number;
  receivedChars: number;
  recording: boolean;
  pending: unknown[];
  applied: number[];
  newestAppliedRv: number;
  subscribedAt: number | null;
  tickWhileRecording(): void;
}

/** Starts filing applied resourceVersions (and forgets any filed before). */
export async function startRecording(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = (globalThis as unknown as { __kubedriftBench: BenchState }).__kubedriftBench;
    if (!state.recording) state.tickWhileRecording();
    state.recording = true;
    state.pending = [];
    state.applied = [];
    state.newestAppliedRv = 0;
  });
}

/** Reads the measures; `withApplied` false leaves the (long) list of applied versions in the page. */
export async function readPage(page: Page, withApplied = false): Promise<PageMeasures> {
  return page.evaluate((all) => {
    const state = (globalThis as unknown as { __kubedriftBench: BenchState }).__kubedriftBench;
    return { maxMessageBytes: state.maxMessageBytes, messages: state.messages, receivedChars: state.receivedChars, applied: all ? state.applied : [], newestAppliedRv: state.newestAppliedRv, pending: state.pending.length, subscribedAt: state.subscribedAt };
  }, withApplied);
}

/** The renderer store's status, or null before the app has created its store. */
export async function storeStatus(page: Page): Promise<StoreStatus | null> {
  return page.evaluate(() => (globalThis as unknown as { __kubedriftStore?: { status(): StoreStatus } }).__kubedriftStore?.status() ?? null);
}

/** A page-side `performance.now()` reading as ms since the epoch. */
export async function pageEpochMs(page: Page, performanceNow: number): Promise<number> {
  return page.evaluate((at) => performance.timeOrigin + at, performanceNow);
}
