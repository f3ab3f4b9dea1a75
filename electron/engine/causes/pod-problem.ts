/**
 * The shape of one pod's problem and the helpers its two readers (containers.ts, placement.ts)
 * share. A problem carries a key: pods of one owner with the same code and key are one cause
 * with a count ("3 pods can't be scheduled: ..."), and `say` words the group.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { EventRecord } from '../events/normalize.ts';
import { isRecord, section, text } from './objects.ts';
import type { CauseCode, Evidence } from './types.ts';

/** What is wrong with one pod, ready to be grouped with the same problem of its siblings. */
export interface PodProblem {
  code: CauseCode;
  /** Pods with the same code and key share one sentence. */
  key: string;
  pod: SlimObject;
  /** What this pod shows (the evidence line): the kubelet's or scheduler's message in full. */
  detail: string;
  since?: number;
  /** Other objects that show it: the pod's node, its pending claim. */
  related?: Evidence[];
  /** The predicate for a group of problems sharing code and key, after "3 pods". */
  say(group: readonly PodProblem[]): string;
  /** Set for a crash loop: the container's restart count. */
  restarts?: number;
  /** Set for a pending claim: its name. */
  claim?: string;
}

/** What diagnosing a pod needs besides the pod: its Events and the view's lookups. */
export interface PodContext {
  events: readonly EventRecord[];
}

/** The fields of a container status the finder reads. */
export interface ContainerStatus {
  name: string;
  image?: string;
  ready?: boolean;
  restartCount?: number;
  state?: { waiting?: { reason?: string; message?: string }; running?: unknown; terminated?: Terminated };
  lastState?: { terminated?: Terminated };
}

/** A container's terminated state (current or last). */
export interface Terminated {
  exitCode?: number;
  reason?: string;
  message?: string;
  finishedAt?: string;
}

/** "is" for one, "are" for more. */
export const be = (group: readonly unknown[]): string => (group.length === 1 ? 'is' : 'are');

/** "this pod" / "these pods", for what the finder could not see. */
export const these = (group: readonly unknown[]): string => (group.length === 1 ? 'this pod' : 'these pods');

/** Init containers first: a pod whose init container fails never starts the others. */
export function containerStatuses(pod: SlimObject): ContainerStatus[] {
  const status = section(pod, 'status');
  const read = (value: unknown): ContainerStatus[] => (Array.isArray(value) ? value.filter((entry): entry is ContainerStatus => isRecord(entry) && typeof entry['name'] === 'string') : []);
  return [...read(status['initContainerStatuses']), ...read(status['containerStatuses'])];
}

/** The image a container was given: its status says what the kubelet tried, the spec what was asked. */
export function imageOf(pod: SlimObject, container: ContainerStatus): string {
  if (text(container.image)) return container.image as string;
  const spec = section(pod, 'spec');
  for (const list of [spec['initContainers'], spec['containers']]) {
    if (!Array.isArray(list)) continue;
    const match = list.find((entry) => isRecord(entry) && entry['name'] === container.name);
    if (isRecord(match) && text(match['image'])) return match['image'] as string;
  }
  return '(image unknown)';
}

/** The pod's phase, or "Unknown". */
export function phaseOf(pod: SlimObject): string {
  return text(section(pod, 'status')['phase']) ?? 'Unknown';
}

/** One pod condition, its transition time in ms when it has one. */
export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransition?: number;
}

/** The pod's condition of `type` (the last one, should a type repeat). */
export function podCondition(pod: SlimObject, type: string): PodCondition | undefined {
  const conditions = section(pod, 'status')['conditions'];
  if (!Array.isArray(conditions)) return undefined;
  for (let i = conditions.length - 1; i >= 0; i -= 1) {
    const entry: unknown = conditions[i];
    if (!isRecord(entry) || entry['type'] !== type) continue;
    const transition = typeof entry['lastTransitionTime'] === 'string' ? Date.parse(entry['lastTransitionTime']) : Number.NaN;
    const reason = text(entry['reason']);
    const message = text(entry['message']);
    return {
      type,
      status: text(entry['status']) ?? 'Unknown',
      ...(reason ? { reason } : {}),
      ...(message ? { message } : {}),
      ...(Number.isFinite(transition) ? { lastTransition: transition } : {}),
    };
  }
  return undefined;
}

/** Whether the pod counts as Ready (its Ready condition is True); read for every pod, so no time is parsed. */
export function isPodReady(pod: SlimObject): boolean {
  const conditions = section(pod, 'status')['conditions'];
  if (!Array.isArray(conditions)) return false;
  for (let i = conditions.length - 1; i >= 0; i -= 1) {
    const entry: unknown = conditions[i];
    if (isRecord(entry) && entry['type'] === 'Ready') return entry['status'] === 'True';
  }
  return false;
}
