/**
 * The controller runtime of the simulated cluster, shaped like client-go's: store changes map to
 * keys, keys go through a de-duplicating work queue, and each controller reconciles one key at a
 * time, level-triggered (it reads current state, never trusts the event). Time is injected so
 * tests can run a rollout in milliseconds.
 */
import type { Change } from '../changelog.ts';
import type { ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { KubeObject } from '../types.ts';
import type { EventRecorder } from './events.ts';

/** Timers and wall clock, injectable (see `ManualClock` for tests). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    handle.unref?.();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** Identifies the object a controller reconciles. */
export interface ReconcileKey {
  /** Resource id as in resources.ts (`deployments.apps`, `pods`). */
  resource: string;
  namespace?: string;
  name: string;
}

/** Replaces `object`'s status through the status subresource, as a controller's status update does. */
export function replaceStatus(store: ObjectStore, type: ResourceType, object: KubeObject, status: Record<string, unknown>): void {
  store.mutate(type, object.metadata.namespace, object.metadata.name, (copy) => {
    copy['status'] = status;
  }, { subresource: 'status' });
}

export interface ControllerContext {
  store: ObjectStore;
  clock: Clock;
  events: EventRecorder;
}

export interface Controller {
  /** As Kubernetes names it: `deployment-controller`, `default-scheduler`, `kubelet`. */
  readonly name: string;
  /** Keys to reconcile because of a store change (the changed object, its owner, ...). */
  keysFor(change: Change): ReconcileKey[];
  /** Keys to reconcile at start-up (everything the controller owns). */
  initialKeys(ctx: ControllerContext): ReconcileKey[];
  /**
   * Brings one key's actual state toward desired. Returns a delay in ms to be called again for
   * this key (time-driven progress: a kubelet starting a container), or nothing.
   */
  reconcile(key: ReconcileKey, ctx: ControllerContext): number | void;
}

function keyString(controller: string, key: ReconcileKey): string {
  return `${controller}|${key.resource}|${key.namespace ?? ''}|${key.name}`;
}

/** Runs controllers against a store until stopped. */
export class ControllerManager {
  private readonly controllers: Controller[];
  private readonly ctx: ControllerContext;
  private readonly queue = new Map<string, { controller: Controller; key: ReconcileKey }>();
  private readonly delayed = new Map<string, unknown>();
  private scheduled = false;
  private stopped = true;
  private unsubscribe: (() => void) | undefined;
  private readonly onError: (controller: string, error: unknown) => void;

  constructor(ctx: ControllerContext, controllers: Controller[], options: { onError?: (controller: string, error: unknown) => void } = {}) {
    this.ctx = ctx;
    this.controllers = controllers;
    this.onError = options.onError ?? ((name, error) => console.error(`[simcluster] ${name} failed:`, error));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.unsubscribe = this.ctx.store.onChange((change) => {
      for (const controller of this.controllers) for (const key of controller.keysFor(change)) this.enqueue(controller, key);
    });
    for (const controller of this.controllers) for (const key of controller.initialKeys(this.ctx)) this.enqueue(controller, key);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    for (const handle of this.delayed.values()) this.ctx.clock.clearTimeout(handle);
    this.delayed.clear();
    this.queue.clear();
  }

  enqueue(controller: Controller, key: ReconcileKey): void {
    if (this.stopped) return;
    this.queue.set(keyString(controller.name, key), { controller, key });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  private enqueueAfter(controller: Controller, key: ReconcileKey, ms: number): void {
    const id = keyString(controller.name, key);
    const existing = this.delayed.get(id);
    if (existing !== undefined) this.ctx.clock.clearTimeout(existing);
    this.delayed.set(
      id,
      this.ctx.clock.setTimeout(() => {
        this.delayed.delete(id);
        this.enqueue(controller, key);
      }, Math.max(0, ms)),
    );
  }

  /** Reconciles everything queued, including keys queued by those reconciles, in one turn. */
  drain(): void {
    this.scheduled = false;
    let rounds = 0;
    while (this.queue.size > 0 && !this.stopped && rounds < 100_000) {
      const [id, item] = this.queue.entries().next().value as [string, { controller: Controller; key: ReconcileKey }];
      this.queue.delete(id);
      rounds += 1;
      try {
        const again = item.controller.reconcile(item.key, this.ctx);
        if (typeof again === 'number') this.enqueueAfter(item.controller, item.key, again);
      } catch (error) {
        this.onError(item.controller.name, error);
        this.enqueueAfter(item.controller, item.key, 1_000);
      }
    }
  }
}

/** A clock tests advance by hand; timers fire in due order. */
export class ManualClock implements Clock {
  private time: number;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.time = start;
  }

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Moves time forward, firing due timers in order (timers they set fire too, if due). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.timers) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.timers.delete(next[0]);
      this.time = Math.max(this.time, next[1].at);
      next[1].fn();
    }
    this.time = end;
  }
}
