/**
 * Fan-out of the contract's push streams. The engine emits; each transport listens and forwards
 * to its clients. Payloads are typed by the contract at the emitting end.
 */
import { EVENT_STREAMS, type StreamChannel, type StreamPayload } from '../../shared/contract.ts';

export type StreamListener = (stream: StreamChannel, payload: unknown) => void;

export class StreamHub {
  private readonly listeners = new Set<StreamListener>();
  private readonly latest = new Map<StreamChannel, unknown>();

  emit<S extends StreamChannel>(stream: S, payload: StreamPayload<S>): void {
    if (!EVENT_STREAMS.has(stream)) this.latest.set(stream, payload);
    for (const listener of [...this.listeners]) {
      try {
        listener(stream, payload);
      } catch (error) {
        console.error(`[kubedrift] stream listener for ${stream} failed:`, error);
      }
    }
  }

  /** Listens to every stream; returns the function that stops listening. */
  listen(listener: StreamListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The last payload emitted on a stream, so a late subscriber starts from the current state. */
  last(stream: StreamChannel): unknown {
    return this.latest.get(stream);
  }
}
