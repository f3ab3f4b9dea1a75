/**
 * What the UI says about history recording, from the engine's `history:status` (or the reason it
 * could not be had): one tone and one sentence, shared by the status bar, the timeline and the
 * settings screen so they never disagree.
 */
import type { HistoryStatus } from '../../../shared/contracts/history.ts';
import type { KdError } from '../../../shared/result.ts';
import { formatBytes } from '../rows/format.ts';

export type RecordingTone = 'recording' | 'paused' | 'error' | 'off' | 'unavailable' | 'loading';

export interface RecordingState {
  tone: RecordingTone;
  /** Short, for the status bar ("Recording", "Recording paused: disk full"). */
  text: string;
  /** Longer, for a tooltip or a notice. */
  detail: string;
  /** Whether past data can be asked for (the database is readable). */
  readable: boolean;
}

/** The recording state for display; `detail` explains `text` without repeating it. */
export function describeRecording(status: HistoryStatus | null, error: KdError | null): RecordingState {
  if (!status) {
    if (error?.code === 'unavailable' || error?.code === 'unknown-channel') return { tone: 'unavailable', text: 'History unavailable', detail: `${error.message}.`, readable: false };
    if (error) return { tone: 'error', text: 'History status unknown', detail: `The engine did not answer: ${error.message}`, readable: false };
    return { tone: 'loading', text: 'History…', detail: 'Asking the engine about recorded history…', readable: false };
  }
  const counts = `${status.samples.toLocaleString('en-US')} samples, ${status.episodes.toLocaleString('en-US')} drift episodes, ${formatBytes(status.bytes)} on disk`;
  switch (status.state) {
    case 'recording':
      // Recording into this computer's file while the shared store is not written (unreachable,
      // or another recorder writes the context): the timeline may not show what is recorded here.
      if (status.message) return { tone: 'paused', text: 'Recording on this computer only', detail: `${status.message} (${counts})`, readable: true };
      return { tone: 'recording', text: 'Recording', detail: `Desired vs actual of ${status.context ?? 'this context'} is being recorded: ${counts}.`, readable: true };
    case 'paused':
      return {
        tone: 'paused',
        text: `Recording paused${status.message ? `: ${status.message}` : ''}`,
        detail: `The live view keeps working and recorded history stays readable; recording resumes by itself once the cause is gone (${counts}).`,
        readable: true,
      };
    case 'error':
      return { tone: 'error', text: `History error${status.message ? `: ${status.message}` : ''}`, detail: 'History can be neither recorded nor read until this is fixed.', readable: false };
    default:
      return { tone: 'off', text: 'Not recording', detail: status.context ? `Nothing is being recorded for ${status.context}.` : 'Choose a context to record its history.', readable: status.since !== null };
  }
}
