/**
 * The side panel's desired-vs-actual lines: per kind, what the spec asks for beside what the
 * status (or the pods below) report, each marked when they disagree. For workloads this includes
 * which images the pods really run, so a half-done rollout reads "1× v5.1.0 · 2× v5.0.3".
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { findCondition, readConditions } from '../../../shared/conditions.ts';
import type { GraphPair } from '../../../shared/contracts/graph.ts';
import { isWorkloadKind } from '../../../shared/workload-status.ts';
import { shortImage } from './health.ts';
import { builtinNameOf, isKind } from './kinds.ts';
import { scaleTargetOf, serviceSelector, type GraphIndex } from './objects.ts';

type Json = Record<string, unknown>;

const obj = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const int = (value: unknown): number => (typeof value === 'number' ? value : 0);
const str = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '—');

function pair(field: string, desired: string | number, actual: string | number, match: boolean): GraphPair {
  return { field, desired: String(desired), actual: String(actual), match };
}

/** Desired count against an actual count. */
function count(field: string, desired: number, actual: number, noun: string): GraphPair {
  return pair(field, desired, `${actual} ${noun}`, desired === actual);
}

function generation(object: SlimObject, status: Json): GraphPair[] {
  const wanted = object.metadata.generation;
  if (wanted === undefined) return [];
  const observed = status['observedGeneration'];
  return [pair('Generation', wanted, typeof observed === 'number' ? `observed ${observed}` : 'not observed', typeof observed === 'number' && observed >= wanted)];
}

/** The pods under a workload (through ReplicaSets and Jobs). */
function podsUnder(index: GraphIndex, root: SlimObject): SlimObject[] {
  const pods: SlimObject[] = [];
  const stack = [root];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const current = stack.pop() as SlimObject;
    for (const child of index.dependents(current.metadata.uid)) {
      if (seen.has(child.metadata.uid)) continue;
      seen.add(child.metadata.uid);
      if (isKind(child, 'Pod')) pods.push(child);
      else stack.push(child);
    }
  }
  return pods;
}

/** Per container of the template: the image asked for against what the pods run. */
function images(index: GraphIndex, object: SlimObject, template: Json): GraphPair[] {
  const pods = podsUnder(index, object).filter((pod) => !pod.metadata.deletionTimestamp);
  return arr(obj(template['spec'])['containers']).map((container) => {
    const name = str(container['name']);
    const wanted = str(container['image']);
    const running = new Map<string, number>();
    for (const pod of pods) {
      const image = arr(obj(obj(pod)['spec'])['containers']).find((c) => c['name'] === name)?.['image'];
      if (typeof image === 'string') running.set(image, (running.get(image) ?? 0) + 1);
    }
    const actual = [...running].sort((a, b) => b[1] - a[1]).map(([image, n]) => `${n}× ${shortImage(image)}`).join(' · ');
    return pair(`Image ${name}`, shortImage(wanted), actual || 'no pods', [...running.keys()].every((image) => image === wanted));
  });
}

function workloadPairs(object: SlimObject, index: GraphIndex, spec: Json, status: Json): GraphPair[] {
  const template = obj(spec['template']);
  switch (object.kind) {
    case 'Deployment':
    case 'ReplicaSet':
    case 'StatefulSet': {
      const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 1;
      const lines = [count('Replicas', replicas, int(status['readyReplicas']), 'ready'), count('Current', replicas, int(status['replicas']), 'running')];
      if (object.kind !== 'ReplicaSet') lines.push(count('Up-to-date', replicas, int(status['updatedReplicas']), 'updated'));
      if (object.kind === 'StatefulSet' && status['updateRevision'] !== undefined) {
        lines.push(pair('Revision', str(status['updateRevision']), str(status['currentRevision']), status['updateRevision'] === status['currentRevision']));
      }
      return [...lines, ...generation(object, status), ...images(index, object, template)];
    }
    case 'DaemonSet': {
      const scheduled = int(status['desiredNumberScheduled']);
      return [
        count('Scheduled', scheduled, int(status['currentNumberScheduled']), 'scheduled'),
        count('Ready', scheduled, int(status['numberReady']), 'ready'),
        count('Up-to-date', scheduled, int(status['updatedNumberScheduled']), 'updated'),
        count('Misscheduled', 0, int(status['numberMisscheduled']), 'misscheduled'),
        ...generation(object, status),
        ...images(index, object, template),
      ];
    }
    case 'Job': {
      const completions = typeof spec['completions'] === 'number' ? spec['completions'] : 1;
      const limit = typeof spec['backoffLimit'] === 'number' ? spec['backoffLimit'] : 6;
      return [
        count('Completions', completions, int(status['succeeded']), 'succeeded'),
        pair('Parallelism', typeof spec['parallelism'] === 'number' ? spec['parallelism'] : 1, `${int(status['active'])} active`, true),
        pair('Failures', `backoff limit ${limit}`, `${int(status['failed'])} failed`, int(status['failed']) <= limit),
        ...images(index, object, template),
      ];
    }
    default: {
      const active = arr(status['active']).length;
      return [
        pair('Schedule', str(spec['schedule']), status['lastScheduleTime'] ? `last ${str(status['lastScheduleTime'])}` : 'never run', true),
        pair('Suspend', spec['suspend'] === true ? 'suspended' : 'running on schedule', `${active} active ${active === 1 ? 'job' : 'jobs'}`, true),
      ];
    }
  }
}

function containerState(status: Json | undefined): string {
  const state = obj(status?.['state']);
  if (state['running']) return 'running';
  const waiting = obj(state['waiting']);
  if (state['waiting']) return `waiting: ${str(waiting['reason'])}`;
  const terminated = obj(state['terminated']);
  if (state['terminated']) return `terminated: ${str(terminated['reason'] ?? terminated['exitCode'])}`;
  return 'not started';
}

function podPairs(spec: Json, status: Json): GraphPair[] {
  const statuses = arr(status['containerStatuses']);
  const conditions = readConditions(status);
  const scheduled = findCondition(conditions, 'PodScheduled');
  const lines = [pair('Node', str(spec['nodeName'] ?? 'any'), scheduled?.status === 'True' ? `scheduled${status['hostIP'] ? ` (${str(status['hostIP'])})` : ''}` : (scheduled?.reason ?? 'not scheduled'), scheduled?.status === 'True')];
  for (const container of arr(spec['containers'])) {
    const name = str(container['name']);
    const current = statuses.find((s) => s['name'] === name);
    const restarts = int(current?.['restartCount']);
    const actualImage = typeof current?.['image'] === 'string' ? shortImage(current['image']) : undefined;
    const wanted = shortImage(str(container['image']));
    const state = `${containerState(current)}${current?.['ready'] === true ? ', ready' : ''}${restarts > 0 ? `, ${restarts} restarts` : ''}`;
    lines.push(pair(`Container ${name}`, wanted, actualImage && actualImage !== wanted ? `${actualImage}, ${state}` : state, current?.['ready'] === true));
  }
  return lines;
}

/** The desired-vs-actual lines of `object`. */
export function desiredVsActual(object: SlimObject, index: GraphIndex): GraphPair[] {
  const spec = obj(obj(object)['spec']);
  const status = obj(obj(object)['status']);
  const name = builtinNameOf(object);
  // Any other kind (a custom resource): whether its controller has seen the spec.
  if (name === undefined) return generation(object, status);
  if (isWorkloadKind(name)) return workloadPairs(object, index, spec, status);
  switch (name) {
    case 'Pod':
      return podPairs(spec, status);
    case 'Service': {
      const selector = serviceSelector(object);
      if (!selector) return [pair('Selector', 'none', 'endpoints managed by hand', true)];
      const pods = index.selectedPods(object);
      const text = Object.entries(selector).map(([key, value]) => `${key}=${value}`).join(', ');
      return [pair('Selector', text, `${pods.length} ${pods.length === 1 ? 'pod' : 'pods'} match`, pods.length > 0)];
    }
    case 'HorizontalPodAutoscaler': {
      const target = scaleTargetOf(object);
      const found = target ? index.byName(object.metadata.namespace, target.kind, target.name) : undefined;
      const current = int(status['currentReplicas']);
      const desired = typeof status['desiredReplicas'] === 'number' ? status['desiredReplicas'] : current;
      return [
        pair('Target', target ? `${target.kind} ${target.name}` : 'none', found ? 'found' : 'not found', found !== undefined),
        pair('Replicas', `${int(spec['minReplicas']) || 1}–${str(spec['maxReplicas'])}`, current === desired ? `${current}` : `${current} → ${desired}`, current === desired),
      ];
    }
    case 'Node': {
      const ready = findCondition(readConditions(status), 'Ready');
      return [pair('Schedulable', spec['unschedulable'] === true ? 'cordoned' : 'yes', ready ? `Ready=${ready.status}` : 'no Ready condition', ready?.status === 'True')];
    }
    default:
      return [];
  }
}
