/**
 * What an application must wrap around client-node 2.x's informer: it emits `error` and stops
 * for good when a list fails, a watch request is refused or a watch socket is destroyed (only
 * 410 Gone and its own inactivity timeout are retried inside). This wrapper restarts it after
 * Retry-After when the server sent one, else after a doubling delay, as a real app's does.
 */
import { ERROR, type Informer, type KubernetesObject } from '@kubernetes/client-node';
import { statusOf } from './harness.ts';

/** Restart delays of a supervisor. */
export interface SupervisorOptions {
  /** First delay after an error; doubles while restarts keep failing. Default 100 ms. */
  baseDelayMs?: number;
  /** Cap of the doubling delay (not of Retry-After). Default 1 s. */
  maxDelayMs?: number;
}

/** A supervised informer's restart history. */
export interface Supervisor {
  /** Every error the informer emitted while supervised. */
  readonly errors: unknown[];
  /** The delay chosen after each error, in milliseconds. */
  readonly delays: number[];
  /** Wall-clock times at which the informer was restarted. */
  readonly restarts: number[];
  /** Stops supervising; call before `informer.stop()`, whose abort is reported as an error. */
  stop(): void;
}

function retryAfterMs(error: unknown): number | undefined {
  const status = statusOf(error);
  if (status !== 429 && status !== 503) return undefined;
  const header = (error as { headers?: Record<string, string> }).headers?.['retry-after'];
  const seconds = header === undefined ? Number.NaN : Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

/** Restarts `informer` after every error until `stop()`. */
export function superviseInformer<T extends KubernetesObject>(informer: Informer<T>, options: SupervisorOptions = {}): Supervisor {
  const baseDelayMs = options.baseDelayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 1_000;
  const errors: unknown[] = [];
  const delays: number[] = [];
  const restarts: number[] = [];
  let failuresInARow = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  const restart = async (): Promise<void> => {
    timer = undefined;
    if (stopped) return;
    const errorsBefore = errors.length;
    restarts.push(Date.now());
    await informer.start();
    // start() resolves once the watch request is answered; no error by then means it is healthy.
    if (errors.length === errorsBefore) failuresInARow = 0;
  };

  informer.on(ERROR, (error) => {
    if (stopped) return;
    errors.push(error);
    failuresInARow += 1;
    const delay = retryAfterMs(error) ?? Math.min(baseDelayMs * 2 ** (failuresInARow - 1), maxDelayMs);
    delays.push(delay);
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => void restart(), delay);
  });

  return {
    errors,
    delays,
    restarts,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
