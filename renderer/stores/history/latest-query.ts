/**
 * A request whose newest answer wins. Views re-ask as the user moves the range or the filters;
 * the transports cannot abort a request in flight, so an answer to an older question is dropped
 * when it arrives (it would otherwise overwrite a newer one that came back first).
 */
import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { KdError, Result } from '../../../shared/result.ts';

export interface LatestQuery<Request, Response> {
  /** The last answer to the latest request that succeeded (kept while a newer one loads). */
  data: ShallowRef<Response | null>;
  /** The request `data` answers. */
  request: ShallowRef<Request | null>;
  loading: Ref<boolean>;
  /** Why the latest request failed; null while loading or after a success. */
  error: ShallowRef<KdError | null>;
  /** Asks; resolves once this request is answered or superseded. */
  run(request: Request): Promise<void>;
  /** Drops the request in flight, if any (its answer will be ignored). */
  cancel(): void;
  /** Forgets the data and any error. */
  reset(): void;
}

export function createLatestQuery<Request, Response>(send: (request: Request) => Promise<Result<Response>>): LatestQuery<Request, Response> {
  const data = shallowRef<Response | null>(null);
  const request = shallowRef<Request | null>(null);
  const loading = ref(false);
  const error = shallowRef<KdError | null>(null);
  let generation = 0;

  async function run(next: Request): Promise<void> {
    const mine = ++generation;
    loading.value = true;
    error.value = null;
    let result: Result<Response>;
    try {
      result = await send(next);
    } catch (thrown) {
      result = { ok: false, error: { code: 'internal', message: (thrown as Error).message ?? String(thrown) } };
    }
    if (mine !== generation) return;
    loading.value = false;
    if (result.ok) {
      data.value = result.value;
      request.value = next;
    } else {
      error.value = result.error;
    }
  }

  function cancel(): void {
    generation += 1;
    loading.value = false;
  }

  function reset(): void {
    cancel();
    data.value = null;
    request.value = null;
    error.value = null;
  }

  return { data, request, loading, error, run, cancel, reset };
}
