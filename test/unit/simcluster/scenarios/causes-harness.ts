/**
 * The harness of the cause tests: a small scenario (two 4-CPU nodes, a shop namespace, fast
 * kubelet timings) run on a manual clock, with readers for its objects and Events, and the
 * causes the cause finder reads from everything the simulator holds.
 */
import { expect } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { createCauseView, findCause, type Cause } from '../../../../electron/engine/causes/index.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { parseScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import type { TimelineAction } from '../../../../electron/engine/simcluster/scenarios/schema.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

/** A served type by id. */
export const T = (id: string): ResourceType => typeById(id) as ResourceType;
/** What the cause finder reads: the workloads, their pods and nodes, and the Events about them. */
const READ = ['nodes', 'pods', 'events', 'resourcequotas', 'persistentvolumeclaims', 'deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'daemonsets.apps', 'jobs.batch', 'horizontalpodautoscalers.autoscaling'].map(T);

/** Two 4-CPU nodes and a shop namespace, with fast kubelet timings. */
export const HEADER = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata: { name: causes }
spec:
  kubelet: { pullDelay: 1s, startDelay: 1s, readinessDelay: 1s, crashAfter: 2s, jobRun: 2s, killDelay: 1s }
  nodes:
    - { name: node-1, cpu: "4", memory: 8Gi }
    - { name: node-2, cpu: "4", memory: 8Gi }
  namespaces: [shop]
`;

/** A Deployment in shop, as a scenario document. */
export function deployment(name: string, options: { image?: string; replicas?: number; cpu?: string; probe?: string; extraSpec?: string } = {}): string {
  return `---
apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: shop }
spec:
  replicas: ${options.replicas ?? 2}
${options.extraSpec ?? ''}  selector: { matchLabels: { app: ${name} } }
  template:
    metadata: { labels: { app: ${name} } }
    spec:
      containers:
        - name: ${name}
          image: ${options.image ?? `ghcr.io/acme/${name}:v1`}
          resources: { requests: { cpu: ${options.cpu ?? '100m'}, memory: 64Mi } }
${options.probe ?? ''}`;
}

/** Runs a scenario text on a manual clock. */
export function start(text: string) {
  const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
  const store = new ObjectStore({ now: () => clock.now() });
  const problems: string[] = [];
  const run = runScenario({
    scenario: parseScenario(text, 'causes.yaml'),
    store,
    clock,
    applyDefaults,
    validate: (type, object, old) => validate(type, object, old),
    onActionError: (entry, error) => problems.push(`${entry.action.type}: ${String(error)}`),
    onControllerError: (name, error) => problems.push(`${name}: ${String(error)}`),
  });
  const advance = (ms: number, step = 500): void => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(step);
      run.manager?.drain();
    }
    expect(problems).toEqual([]);
  };
  const act = (action: TimelineAction): void => {
    run.run(action);
    run.manager?.drain();
  };
  const get = (id: string, name: string, namespace: string | undefined = 'shop'): KubeObject => store.get(T(id), namespace, name);
  const pods = (app: string): KubeObject[] => store.all(T('pods'), 'shop').filter((p) => p.metadata.labels?.['app'] === app && !p.metadata.deletionTimestamp);
  const events = (about: KubeObject, reason?: string): Array<{ reason: string; message: string; type: string; count: number; component: string }> =>
    store
      .all(T('events'))
      .filter((e) => (e['involvedObject'] as { uid: string }).uid === about.metadata.uid && (reason === undefined || e['reason'] === reason))
      .map((e) => ({ reason: String(e['reason']), message: String(e['message']), type: String(e['type']), count: Number(e['count']), component: (e['source'] as { component: string }).component }));
  /** The causes the finder reads from everything the simulator holds now. */
  const causes = (object: KubeObject): Cause[] => {
    const view = createCauseView(READ.flatMap((type) => store.all(type)) as unknown as SlimObject[]);
    return findCause(object as unknown as SlimObject, view, { now: clock.now() });
  };
  return { clock, store, run, advance, act, get, pods, events, causes, stop: () => run.stop() };
}

/** A timeline action's target. */
export const target = (kind: string, name: string) => ({ type: T(kind), name });
/** An object's status condition of a type. */
export const conditionOf = (object: KubeObject, type: string) => ((object['status'] as { conditions?: Array<Record<string, unknown>> }).conditions ?? []).find((c) => c['type'] === type);
/** A pod's first container status. */
export const containerOf = (pod: KubeObject) => ((pod['status'] as { containerStatuses: Array<Record<string, unknown>> }).containerStatuses)[0] as Record<string, never>;
