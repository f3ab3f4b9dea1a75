/**
 * client-node's ListWatch (what `makeInformer` builds) on a RecordingWatch, with its handler
 * calls recorded, its list calls counted and, unless told otherwise, a supervisor restarting it
 * after errors. Stopped by the test's Cleanup.
 */
import { ERROR, ListWatch, type KubeConfig, type KubernetesListObject, type KubernetesObject } from '@kubernetes/client-node';
import type { ConvergenceSubject } from './convergence.ts';
import { RecordingWatch, type Cleanup } from './harness.ts';
import { HandlerRecorder } from './recorder.ts';
import { superviseInformer, type Supervisor, type SupervisorOptions } from './supervisor.ts';

/** What to inform on and how. */
export interface InformerRigOptions<T extends KubernetesObject> {
  path: string;
  list: () => Promise<KubernetesListObject<T>>;
  /** Scales down client-node's 30 s watch inactivity timeout. */
  inactivityTimeoutMs?: number;
  /** Extra query parameters on every watch request (client-node itself sends none). */
  watchQuery?: Record<string, string | boolean>;
  /** false: leave the informer stopped after an error, as client-node does on its own. */
  supervise?: SupervisorOptions | false;
}

/** A started informer and everything recorded about it. */
export interface InformerRig<T extends KubernetesObject> extends ConvergenceSubject<T> {
  informer: ListWatch<T>;
  watch: RecordingWatch;
  recorder: HandlerRecorder<T>;
  /** Wall-clock times of the informer's list calls. */
  lists: number[];
  /** Errors the informer emitted (supervised or not). */
  errors: unknown[];
  supervisor: Supervisor | undefined;
}

class QueryAddingWatch extends RecordingWatch {
  private readonly extra: Record<string, string | boolean>;

  constructor(kc: KubeConfig, options: { inactivityTimeoutMs?: number }, extra: Record<string, string | boolean>) {
    super(kc, options);
    this.extra = extra;
  }

  override watch(...[path, query, callback, done]: Parameters<RecordingWatch['watch']>): ReturnType<RecordingWatch['watch']> {
    return super.watch(path, { ...query, ...this.extra }, callback, done);
  }
}

/** Starts an informer on `path` and resolves once its first list and watch request are done. */
export async function startInformer<T extends KubernetesObject>(cleanup: Cleanup, kc: KubeConfig, options: InformerRigOptions<T>): Promise<InformerRig<T>> {
  const timeouts = options.inactivityTimeoutMs !== undefined ? { inactivityTimeoutMs: options.inactivityTimeoutMs } : {};
  const watch = options.watchQuery ? new QueryAddingWatch(kc, timeouts, options.watchQuery) : new RecordingWatch(kc, timeouts);
  const lists: number[] = [];
  const informer = new ListWatch<T>(
    options.path,
    watch,
    () => {
      lists.push(Date.now());
      return options.list();
    },
    false,
  );
  const recorder = new HandlerRecorder(informer);
  const errors: unknown[] = [];
  informer.on(ERROR, (error) => errors.push(error));
  const supervisor = options.supervise === false ? undefined : superviseInformer(informer, options.supervise ?? {});
  cleanup.add(async () => {
    supervisor?.stop();
    await informer.stop();
  });
  await informer.start();
  return { informer, watch, recorder, lists, errors, supervisor, freshList: options.list };
}
