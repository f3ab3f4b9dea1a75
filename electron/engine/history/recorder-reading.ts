/**
 * What one object change says to the recorder (recorder.ts): the sample values of a built-in
 * workload (sample.ts), or of a custom resource with the generic status rule's verdict they came
 * from (custom-sample.ts), and how an episode keeps the worst verdict it saw.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import type { ObjectStatus } from '../../../shared/object-status.ts';
import { customReading, isCustomKind, STATE_SEVERITY, type ScalePaths } from './custom-sample.ts';
import type { EpisodeRecord } from './records.ts';
import type { SampleValues } from './sample-codec.ts';
import { isHistoryKind, sampleOf } from './sample.ts';

/** Whether objects of `kind` are recorded: the built-in workload kinds and every custom resource kind. */
export const isRecorded = (kind: string): boolean => isHistoryKind(kind) || isCustomKind(kind);

/** What one object change says: its values, and for a custom resource the status verdict they came from. */
export interface Reading {
  values: SampleValues;
  status?: ObjectStatus;
}

/** How custom resources are read (RecorderOptions' fields of the same names). */
export interface ReadingOptions {
  scalePathsOf?: (kind: string) => ScalePaths | undefined;
  userRules?: () => readonly UserStatusRule[];
}

/** The reading of `object` (of kind key `kind`), or null when it says nothing recorded. */
export function readingOf(object: SlimObject, kind: string, options: ReadingOptions): Reading | null {
  if (isHistoryKind(kind)) {
    const values = sampleOf(object, kind);
    return values ? { values } : null;
  }
  return customReading(object, options.scalePathsOf?.(kind), options.userRules?.());
}

/** An episode's status: the worse of the kept one and `status` (the newer words at equal severity). */
export function worstStatus(kept: EpisodeRecord['status'], status: ObjectStatus): EpisodeRecord['status'] {
  if (kept && STATE_SEVERITY[kept.state] > STATE_SEVERITY[status.state]) return kept;
  return { state: status.state, reason: status.reason, ...(status.message ? { message: status.message } : {}) };
}
