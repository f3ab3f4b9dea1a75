/**
 * Turns a fetched object into what the user sees: its status under the ignore rules, each
 * differing field with the owner of its live value and a ready-made "ignore this field" rule,
 * and on request the YAML texts, the line edits and the kubectl-style unified diff.
 */
import type { DiffRow, DiffStatus, FieldDiff, IgnoreRule, ObjectDiff } from '../../../shared/contracts/diff.ts';
import { compareObjects, shortValue, type FieldDifference } from './fields/compare.ts';
import { explainOwner, type HpaIndex } from './fields/owners.ts';
import { hasKeyedElement, jqPath, jsonPointer, readablePath } from './fields/paths.ts';
import { applyIgnores, ruleApplies } from './ignore/rules.ts';
import type { JsonObject } from './load/types.ts';
import type { ComparedObject } from './run.ts';
import { diffLines } from './text/myers.ts';
import { kubectlFileName, linesOf, toYaml, unifiedDiff } from './text/unified.ts';

/** Texts above this size (both sides together) are sent as the unified diff only. */
export const MAX_TEXT_CHARS = 256 * 1024;

export interface Evaluated {
  row: DiffRow;
  differences: FieldDifference[];
  /** The sides after ignore rules (what the texts show). */
  live?: JsonObject;
  predicted?: JsonObject;
}

function statusOf(object: ComparedObject, changed: number): DiffStatus {
  if (object.error) return 'Error';
  if (!object.live) return 'Missing';
  return changed > 0 ? 'OutOfSync' : 'InSync';
}

export function evaluate(object: ComparedObject, rules: readonly IgnoreRule[]): Evaluated {
  const base = {
    id: object.id,
    apiVersion: object.apiVersion,
    kind: object.kind,
    ...(object.namespace ? { namespace: object.namespace } : {}),
    name: object.name,
    source: object.source,
    approximate: object.approximate !== undefined,
  };
  if (object.error || !object.predicted) {
    return { row: { ...base, status: 'Error', reason: object.error ?? 'no prediction', changed: 0, ignored: 0, fields: [] }, differences: [] };
  }
  if (!object.live) {
    const reason = object.note ?? object.approximate ?? 'Not in the cluster: applying the files would create it.';
    return { row: { ...base, status: 'Missing', reason, changed: 0, ignored: 0, fields: [] }, differences: [], predicted: object.predicted };
  }
  const applicable = rules.filter((rule) => ruleApplies(rule, object));
  const raw = compareObjects(object.live, object.predicted, object.lists);
  const sides = applicable.length && raw.length ? applyIgnores(applicable, object.live, object.predicted, object.managedFields, object.lists) : { live: object.live, predicted: object.predicted };
  const differences = sides.live === object.live ? raw : compareObjects(sides.live, sides.predicted, object.lists);
  const status = statusOf(object, differences.length);
  const row: DiffRow = {
    ...base,
    status,
    ...(object.approximate ? { reason: object.approximate } : {}),
    changed: differences.length,
    ignored: Math.max(0, raw.length - differences.length),
    fields: differences.slice(0, 5).map((d) => readablePath(d.segments)),
  };
  return { row, differences, live: sides.live, predicted: sides.predicted };
}

function suggestedRule(object: ComparedObject, difference: FieldDifference): IgnoreRule {
  const rule: IgnoreRule = { group: object.group, kind: object.kind, name: object.name };
  if (object.namespace) rule.namespace = object.namespace;
  if (hasKeyedElement(difference.segments)) rule.jqPathExpressions = [jqPath(difference.segments)];
  else rule.jsonPointers = [jsonPointer(difference.segments)];
  return rule;
}

export function fieldDiffs(object: ComparedObject, evaluated: Evaluated, hpas: HpaIndex): FieldDiff[] {
  return evaluated.differences.map((difference) => ({
    path: readablePath(difference.segments),
    op: difference.op,
    ...(difference.op !== 'added' ? { live: shortValue(difference.live) } : {}),
    ...(difference.op !== 'removed' ? { predicted: shortValue(difference.predicted) } : {}),
    owner: explainOwner({ segments: difference.segments, op: difference.op, kind: object.kind, namespace: object.namespace, name: object.name, live: evaluated.live, managedFields: object.managedFields, hpas }),
    ignore: suggestedRule(object, difference),
  }));
}

/** The texts and line edits of one evaluated object. */
export function textsOf(object: ComparedObject, evaluated: Evaluated): { live: string | null; predicted: string | null; unified: string; edits: ObjectDiff['edits'] } {
  const live = evaluated.live ? toYaml(evaluated.live) : null;
  const predicted = evaluated.predicted ? toYaml(evaluated.predicted) : null;
  const a = linesOf(live);
  const b = linesOf(predicted);
  const edits = diffLines(a, b);
  const unified = unifiedDiff(kubectlFileName(object), a, b, edits);
  return { live, predicted, unified, edits };
}

export function objectDiff(object: ComparedObject, rules: readonly IgnoreRule[], hpas: HpaIndex): ObjectDiff {
  const evaluated = evaluate(object, rules);
  const texts = textsOf(object, evaluated);
  const fields = fieldDiffs(object, evaluated, hpas);
  const tooLarge = (texts.live?.length ?? 0) + (texts.predicted?.length ?? 0) > MAX_TEXT_CHARS;
  if (tooLarge) return { row: evaluated.row, live: null, predicted: null, edits: [], unified: texts.unified.slice(0, MAX_TEXT_CHARS), fields, truncated: true };
  return { row: evaluated.row, ...texts, fields, truncated: false };
}
