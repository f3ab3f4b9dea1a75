/**
 * Which controller reconciles a kind no built-in controller owns: the one that reports Events
 * about its objects. An operator records Events under its own name (`database-operator`,
 * `cert-manager-certificates-issuing`), so the reporter seen most often about objects of a
 * group-kind names the reconciler whose lag its objects' generations show. Counts are per
 * Event write (a repeat bumps its Event again), which only weights a chattier reporter more;
 * memory is one counter per group-kind and reporter, never per Event.
 */
import { UNKNOWN_CONTROLLER, type EventRecord } from './normalize.ts';

export interface ReporterIndex {
  /** Counts one write of an Event for its object's group-kind. */
  note(record: Pick<EventRecord, 'group' | 'kind' | 'controller'>): void;
  /** The reporter seen most about objects of `groupKind` (`Kind.group`), or undefined before any. */
  controllerFor(groupKind: string): string | undefined;
  clear(): void;
}

/** `Kind` for the core group, `Kind.group` otherwise: the key an Event's involvedObject gives. */
export const eventGroupKind = (record: Pick<EventRecord, 'group' | 'kind'>): string => (record.group === '' ? record.kind : `${record.kind}.${record.group}`);

export function createReporterIndex(): ReporterIndex {
  const counts = new Map<string, Map<string, number>>();
  return {
    note(record) {
      if (record.kind === '' || record.controller === UNKNOWN_CONTROLLER) return;
      const key = eventGroupKind(record);
      const perKind = counts.get(key) ?? new Map<string, number>();
      counts.set(key, perKind);
      perKind.set(record.controller, (perKind.get(record.controller) ?? 0) + 1);
    },
    controllerFor(groupKind) {
      let best: string | undefined;
      let bestCount = 0;
      for (const [controller, count] of counts.get(groupKind) ?? []) {
        // Ties go to the first name alphabetically, so the answer does not flip between queries.
        if (count > bestCount || (count === bestCount && best !== undefined && controller < best)) {
          best = controller;
          bestCount = count;
        }
      }
      return best;
    },
    clear() {
      counts.clear();
    },
  };
}
