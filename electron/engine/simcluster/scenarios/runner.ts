/**
 * Runs a scenario: seeds the store (system namespaces, nodes, the scenario's namespaces and
 * manifests, through the API server's defaulting and validation when given), starts the
 * controllers, and plays the timeline on the injected clock — `at` entries once, `every`
 * entries repeatedly — until `stop()`.
 */
import { EventRecorder } from '../controllers/events.ts';
import { attachCrdController } from '../crd/controller.ts';
import { withApiExtensions } from '../crd/strategy.ts';
import type { HpaController } from '../controllers/hpa.ts';
import { NAMESPACES, NODES } from '../controllers/kinds.ts';
import { ControllerManager, systemClock, type Clock } from '../controllers/runtime.ts';
import type { ResourceType } from '../resources.ts';
import type { ObjectStore } from '../store.ts';
import type { IncomingObject } from '../types.ts';
import { createThroughApi, runAction, type ApiHooks } from './actions.ts';
import { createControllerSet } from './controller-set.ts';
import { ScenarioError, type Scenario, type TimelineEntry } from './load.ts';
import { nodeManifest } from './nodes.ts';
import { seedHistory } from './aging.ts';
import type { HistorySpec, TimelineAction } from './schema.ts';

/** Namespaces every cluster has before anyone creates anything. */
const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

/** What to run, on which store and clock, with which API hooks. */
export interface RunScenarioOptions extends ApiHooks {
  scenario: Scenario;
  store: ObjectStore;
  /** Timers and time; the system clock when omitted. */
  clock?: Clock;
  /** Overrides the scenario's `spec.speed`. */
  speed?: number;
  /** Start the built-in controllers (default true); false only seeds and plays the timeline. */
  controllers?: boolean;
  /** A timeline action that could not be done (default: logged); the scenario keeps running. */
  onActionError?: (entry: TimelineEntry, error: unknown) => void;
  /** Every timeline action that ran, with the clock time it ran at. */
  onAction?: (entry: TimelineEntry, at: number) => void;
  /** A controller's reconcile threw (default: logged by the manager). */
  onControllerError?: (controller: string, error: unknown) => void;
}

/** A scenario in progress. */
export interface RunningScenario {
  readonly scenario: Scenario;
  /** The controller manager, when controllers run. */
  readonly manager: ControllerManager | undefined;
  /** The HPA controller, when controllers run (its `setLoad` is what `setLoad` actions call). */
  readonly hpa: HpaController | undefined;
  /** Runs one action now, as a timeline entry would (tests, fault injection). */
  run(action: TimelineAction): void;
  /** Stops the timeline and the controllers; the store keeps its objects. */
  stop(): void;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function seed(options: RunScenarioOptions): void {
  const { scenario, store } = options;
  const create = (type: ResourceType, manifest: IncomingObject, where: { line?: number; path: string }) => {
    try {
      createThroughApi(options, type, manifest);
    } catch (error) {
      throw new ScenarioError({ file: scenario.file, ...where }, describeError(error));
    }
  };
  const declared = new Set(scenario.objects.filter((o) => o.type === NAMESPACES).map((o) => String((o.manifest['metadata'] as { name?: string }).name)));
  for (const name of [...SYSTEM_NAMESPACES, ...scenario.namespaces]) {
    if (store.find(NAMESPACES, undefined, name) || declared.has(name)) continue;
    create(NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, { path: `spec.namespaces: ${name}` });
  }
  scenario.nodes.forEach((node, i) => {
    if (!store.find(NODES, undefined, node.name)) create(NODES, nodeManifest(node), { path: `spec.nodes[${i}]` });
  });
  if (scenario.history) seedAged(options, scenario.history);
  for (const object of scenario.objects) {
    const meta = object.manifest['metadata'] as { name: string; namespace?: string };
    if (store.find(object.type, meta.namespace, meta.name)) continue;
    create(object.type, object.manifest, { line: object.line, path: `${object.type.kind} ${meta.namespace ? `${meta.namespace}/` : ''}${meta.name}` });
  }
}

/** `spec.history`: the aged workloads, dated back from the clock's now. */
function seedAged(options: RunScenarioOptions, history: HistorySpec): void {
  const now = (options.clock ?? systemClock).now();
  try {
    seedHistory(options.store, { ageMs: history.age, now, namespace: history.namespace, revisions: history.revisions, ...(options.applyDefaults ? { applyDefaults: options.applyDefaults } : {}) });
  } catch (error) {
    throw new ScenarioError({ file: options.scenario.file, path: 'spec.history' }, describeError(error));
  }
}

/**
 * Seeds the cluster and starts the scenario. Throws ScenarioError (with the manifest's line)
 * when an initial object is refused; timeline failures go to `onActionError` instead.
 */
export function runScenario(options: RunScenarioOptions): RunningScenario {
  const { scenario, store } = options;
  const clock = options.clock ?? systemClock;
  const speed = options.speed ?? scenario.speed;
  // CRDs among the manifests serve their kinds before the custom resources after them are created.
  attachCrdController(store, { now: () => clock.now() });
  // CRDs and custom resources get apiextensions' defaulting and validation on top of the given hooks.
  const hooks = options.applyDefaults && options.validate ? withApiExtensions({ applyDefaults: options.applyDefaults, validate: options.validate }) : undefined;
  const withHooks: RunScenarioOptions = hooks ? { ...options, applyDefaults: hooks.applyDefaults, validate: hooks.validate } : options;
  seed(withHooks);

  let manager: ControllerManager | undefined;
  let hpa: HpaController | undefined;
  if (options.controllers !== false) {
    const set = createControllerSet({
      speed,
      operators: scenario.operators,
      ...(scenario.kubernetesVersion ? { kubernetesVersion: scenario.kubernetesVersion } : {}),
      kubelet: {
        ...(scenario.kubelet.pullDelay !== undefined ? { pullDelayMs: scenario.kubelet.pullDelay } : {}),
        ...(scenario.kubelet.startDelay !== undefined ? { startDelayMs: scenario.kubelet.startDelay } : {}),
        ...(scenario.kubelet.readinessDelay !== undefined ? { readinessDelayMs: scenario.kubelet.readinessDelay } : {}),
        ...(scenario.kubelet.jobRun !== undefined ? { jobRunMs: scenario.kubelet.jobRun } : {}),
        ...(scenario.kubelet.crashAfter !== undefined ? { crashAfterMs: scenario.kubelet.crashAfter } : {}),
        ...(scenario.kubelet.killDelay !== undefined ? { killDelayMs: scenario.kubelet.killDelay } : {}),
      },
    });
    hpa = set.hpa;
    const events = new EventRecorder(store, () => clock.now());
    manager = new ControllerManager({ store, clock, events }, set.controllers, options.onControllerError ? { onError: options.onControllerError } : {});
    manager.start();
  }

  const actionContext = {
    store,
    ...(withHooks.applyDefaults ? { applyDefaults: withHooks.applyDefaults } : {}),
    ...(withHooks.validate ? { validate: withHooks.validate } : {}),
    ...(options.allocate ? { allocate: options.allocate } : {}),
    ...(hpa ? { setLoad: hpa.setLoad.bind(hpa) } : {}),
  };
  const onActionError = options.onActionError ?? ((entry: TimelineEntry, error: unknown) => console.warn(`[simcluster] ${scenario.file}:${entry.line}: ${entry.action.type} failed: ${describeError(error)}`));
  const timers = new Set<unknown>();
  let stopped = false;

  const schedule = (entry: TimelineEntry, delayMs: number) => {
    const handle = clock.setTimeout(() => {
      timers.delete(handle);
      if (stopped) return;
      try {
        runAction(actionContext, entry.action);
        options.onAction?.(entry, clock.now());
      } catch (error) {
        onActionError(entry, error);
      }
      if (entry.everyMs !== undefined && !stopped) schedule(entry, entry.everyMs / speed);
    }, delayMs);
    timers.add(handle);
  };
  for (const entry of scenario.timeline) schedule(entry, entry.atMs / speed);

  return {
    scenario,
    manager,
    hpa,
    run(action) {
      runAction(actionContext, action);
    },
    stop() {
      stopped = true;
      for (const handle of timers) clock.clearTimeout(handle);
      timers.clear();
      manager?.stop();
    },
  };
}
