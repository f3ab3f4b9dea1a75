/**
 * ttl-after-finished-controller: deletes a finished Job (Complete or Failed) once
 * `spec.ttlSecondsAfterFinished` has passed, with Foreground propagation so its pods go first,
 * as upstream does.
 */
import type { Change } from '../changelog.ts';
import type { Controller, ControllerContext, ReconcileKey } from './runtime.ts';
import { jobFinished, jobFinishTime } from './job-status.ts';
import { JOBS } from './kinds.ts';

/** Options of `createTtlAfterFinishedController`. */
export interface TtlControllerOptions {
  /** Simulation speed: 2 halves every TTL. */
  speed?: number;
}

/** The ttl-after-finished-controller; requeues each finished Job until its TTL expires. */
export function createTtlAfterFinishedController(options: TtlControllerOptions = {}): Controller {
  const speed = options.speed ?? 1;
  return {
    name: 'ttl-after-finished-controller',
    keysFor(change: Change): ReconcileKey[] {
      if (change.resource !== 'jobs.batch' || change.type === 'DELETED') return [];
      return [{ resource: change.resource, namespace: change.object.metadata.namespace, name: change.object.metadata.name }];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return ctx.store.all(JOBS).map((j) => ({ resource: 'jobs.batch', namespace: j.metadata.namespace, name: j.metadata.name }));
    },
    reconcile(key: ReconcileKey, ctx: ControllerContext): number | void {
      const job = ctx.store.find(JOBS, key.namespace, key.name);
      if (!job || job.metadata.deletionTimestamp || !jobFinished(job)) return;
      const ttl = (job['spec'] as { ttlSecondsAfterFinished?: number } | undefined)?.ttlSecondsAfterFinished;
      const finishedAt = jobFinishTime(job);
      if (typeof ttl !== 'number' || finishedAt === undefined) return;
      const remaining = finishedAt + (ttl * 1000) / speed - ctx.clock.now();
      if (remaining > 0) return remaining;
      ctx.store.delete(JOBS, key.namespace, key.name, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } });
    },
  };
}
