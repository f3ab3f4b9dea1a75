/**
 * Backpressure for the `cluster:frames` stream on the WebSocket transport. A socket buffers
 * whatever is sent to it; a slow or vanished page would make the engine hold frames without
 * limit. So a client whose unsent bytes pass FRAMES_CUTOFF_BYTES gets no more frames. Once its
 * buffer has drained, the server asks the engine for a snapshot on its behalf and the client
 * resumes at that snapshot's begin frame: it never sees a torn stream it would have to repair,
 * and nothing needs the cluster to change again before it catches up. Other streams keep
 * flowing to it throughout.
 *
 * `backlog()` is the other half: the frame stream reads it and waits while a client that still
 * gets frames is behind, so a snapshot bigger than the cutoff reaches a slow page intact instead
 * of being cut off and retried for ever.
 */

/** Unsent bytes past which a client stops getting `cluster:frames`. */
export const FRAMES_CUTOFF_BYTES = 4 * 1024 * 1024;
/** A cut-off client resumes once its unsent bytes are down to this. */
export const FRAMES_RESUME_BYTES = 256 * 1024;
/** How often cut-off clients are checked for a drained buffer. */
export const DRAIN_POLL_MS = 50;

/** The part of a WebSocket the flow looks at. */
export interface FlowSocket {
  readonly bufferedAmount: number;
}

export interface FramesFlowOptions {
  /** Ask the engine for a snapshot (the `cluster:resync` request). */
  requestSnapshot: (reason: string) => void;
  cutoffBytes?: number;
  resumeBytes?: number;
  pollMs?: number;
}

type FlowState = 'flowing' | 'cut' | 'resuming';

export class FramesFlow<S extends FlowSocket> {
  private readonly clients = new Map<S, FlowState>();
  private readonly options: FramesFlowOptions;
  private poll: NodeJS.Timeout | undefined;
  private cutoffCount = 0;

  constructor(options: FramesFlowOptions) {
    this.options = options;
  }

  /** The client subscribed to `cluster:frames`. */
  add(socket: S): void {
    if (!this.clients.has(socket)) this.clients.set(socket, 'flowing');
  }

  /** The client unsubscribed or went away. */
  remove(socket: S): void {
    this.clients.delete(socket);
  }

  /** Whether this frame goes to this client now. */
  admit(socket: S, frame: { type: string }): boolean {
    const state = this.clients.get(socket);
    if (state === undefined || state === 'cut') return false;
    if (state === 'resuming') {
      if (frame.type !== 'snapshot-begin') return false;
      this.clients.set(socket, 'flowing');
    }
    if (socket.bufferedAmount <= (this.options.cutoffBytes ?? FRAMES_CUTOFF_BYTES)) return true;
    this.clients.set(socket, 'cut');
    this.cutoffCount += 1;
    this.poll ??= setInterval(() => this.checkDrained(), this.options.pollMs ?? DRAIN_POLL_MS).unref();
    return false;
  }

  /** The most unsent bytes of any client that still gets frames. */
  backlog(): number {
    let most = 0;
    for (const [socket, state] of this.clients) if (state === 'flowing') most = Math.max(most, socket.bufferedAmount);
    return most;
  }

  /** How many times a client was cut off. */
  cutoffs(): number {
    return this.cutoffCount;
  }

  close(): void {
    clearInterval(this.poll);
    this.poll = undefined;
    this.clients.clear();
  }

  private checkDrained(): void {
    let drained = 0;
    let stillCut = 0;
    for (const [socket, state] of this.clients) {
      if (state !== 'cut') continue;
      if (socket.bufferedAmount <= (this.options.resumeBytes ?? FRAMES_RESUME_BYTES)) {
        this.clients.set(socket, 'resuming');
        drained += 1;
      } else {
        stillCut += 1;
      }
    }
    if (stillCut === 0) {
      clearInterval(this.poll);
      this.poll = undefined;
    }
    if (drained > 0) this.options.requestSnapshot(`${drained} browser client(s) fell behind and drained`);
  }
}
