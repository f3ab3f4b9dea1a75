/**
 * Ignore rules, as Argo CD's `ignoreDifferences`: which objects a rule covers (group, kind, and
 * optionally name and namespace; `*` matches any), and how its fields are taken out of the
 * comparison: JSON pointers and jq paths are removed from both sides; fields a listed field
 * manager owns take their live value on the predicted side (what Argo CD does with
 * `managedFieldsManagers`). Exported as the YAML an Argo CD Application's spec accepts.
 */
import { stringify } from 'yaml';
import type { IgnoreRule } from '../../../../shared/contracts/diff.ts';
import { compareObjects } from '../fields/compare.ts';
import type { ListSchema } from '../fields/list-schema.ts';
import { ownsField } from '../fields/owners.ts';
import type { Segment } from '../fields/paths.ts';
import { parsePointer } from '../fields/paths.ts';
import { isObject, type JsonObject } from '../load/types.ts';
import type { ManagedFieldsEntry } from '../normalise.ts';
import { evaluateJq, JqSyntaxError, parseJq, type JqPath } from './jq-lite.ts';

export interface ObjectIdentity {
  group: string;
  kind: string;
  namespace: string | undefined;
  name: string;
}

const matches = (pattern: string | undefined, value: string | undefined) => pattern === undefined || pattern === '*' || pattern === (value ?? '');

export function ruleApplies(rule: IgnoreRule, object: ObjectIdentity): boolean {
  return matches(rule.group, object.group) && matches(rule.kind, object.kind) && matches(rule.name, object.name) && matches(rule.namespace, object.namespace);
}

/** Why a rule cannot be used, or undefined. */
export function ruleProblem(rule: IgnoreRule): string | undefined {
  const count = (rule.jsonPointers?.length ?? 0) + (rule.jqPathExpressions?.length ?? 0) + (rule.managedFieldsManagers?.length ?? 0);
  if (count === 0) return 'An ignore rule needs at least one JSON pointer, jq path expression or field manager.';
  for (const pointer of rule.jsonPointers ?? []) {
    if (!parsePointer(pointer) || pointer === '') return `"${pointer}" is not a JSON pointer: it must start with "/" (for example /spec/replicas).`;
  }
  for (const expression of rule.jqPathExpressions ?? []) {
    try {
      parseJq(expression);
    } catch (error) {
      if (error instanceof JqSyntaxError) return error.message;
      throw error;
    }
  }
  return undefined;
}

function sameTarget(a: IgnoreRule, b: IgnoreRule): boolean {
  return a.group === b.group && a.kind === b.kind && a.name === b.name && a.namespace === b.namespace;
}

const union = (a: string[] | undefined, b: string[] | undefined) => {
  const all = [...new Set([...(a ?? []), ...(b ?? [])])];
  return all.length ? all : undefined;
};

/** Adds a rule, merging it into a rule for the same objects when there is one. */
export function addRule(rules: readonly IgnoreRule[], rule: IgnoreRule): IgnoreRule[] {
  const index = rules.findIndex((existing) => sameTarget(existing, rule));
  if (index < 0) return [...rules, rule];
  const existing = rules[index] as IgnoreRule;
  const merged: IgnoreRule = { group: existing.group, kind: existing.kind };
  if (existing.name !== undefined) merged.name = existing.name;
  if (existing.namespace !== undefined) merged.namespace = existing.namespace;
  const pointers = union(existing.jsonPointers, rule.jsonPointers);
  const jq = union(existing.jqPathExpressions, rule.jqPathExpressions);
  const managers = union(existing.managedFieldsManagers, rule.managedFieldsManagers);
  if (pointers) merged.jsonPointers = pointers;
  if (jq) merged.jqPathExpressions = jq;
  if (managers) merged.managedFieldsManagers = managers;
  return rules.map((r, i) => (i === index ? merged : r));
}

function removeAt(root: unknown, path: readonly (string | number)[]): void {
  let parent: unknown = root;
  for (const key of path.slice(0, -1)) parent = Array.isArray(parent) ? parent[Number(key)] : isObject(parent) ? parent[String(key)] : undefined;
  const last = path[path.length - 1];
  if (last === undefined) return;
  if (Array.isArray(parent)) {
    const index = Number(last);
    if (Number.isInteger(index) && index < parent.length) parent.splice(index, 1);
  } else if (isObject(parent)) delete parent[String(last)];
}

/** Removes paths deepest and highest-index first, so earlier removals do not shift later ones. */
function removeAll(root: unknown, paths: JqPath[]): void {
  const sorted = [...paths].sort((a, b) => {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      if (a[i] !== b[i]) return typeof a[i] === 'number' && typeof b[i] === 'number' ? (b[i] as number) - (a[i] as number) : 0;
    }
    return b.length - a.length;
  });
  for (const path of sorted) removeAt(root, path);
}

function pointerPaths(pointer: string, root: unknown): JqPath[] {
  const keys = parsePointer(pointer);
  if (!keys || keys.length === 0) return [];
  let current: unknown = root;
  for (const key of keys) {
    if (Array.isArray(current)) current = current[Number(key)];
    else if (isObject(current) && Object.hasOwn(current, key)) current = current[key];
    else return [];
    if (current === undefined) return [];
  }
  return [keys];
}

function setAt(root: JsonObject, segments: readonly Segment[], value: unknown, present: boolean): void {
  const path = segments.map((segment) => ('key' in segment ? segment.key : segment.index));
  let parent: unknown = root;
  for (const key of path.slice(0, -1)) parent = Array.isArray(parent) ? parent[key as number] : isObject(parent) ? parent[key as string] : undefined;
  const last = path[path.length - 1];
  if (last === undefined || !(isObject(parent) || Array.isArray(parent))) return;
  if (!present) removeAt(root, path);
  else (parent as Record<string | number, unknown>)[last] = structuredClone(value);
}

/**
 * Copies of `live` and `predicted` with every field the applicable rules ignore taken out.
 * `managedFields` are the live object's (for `managedFieldsManagers`); `lists` the kind's list schema.
 */
export function applyIgnores(rules: readonly IgnoreRule[], live: JsonObject, predicted: JsonObject, managedFields: readonly ManagedFieldsEntry[], lists?: ListSchema): { live: JsonObject; predicted: JsonObject } {
  const outLive = structuredClone(live);
  const outPredicted = structuredClone(predicted);
  const managers = new Set<string>();
  for (const rule of rules) {
    for (const side of [outLive, outPredicted]) {
      const paths = [...(rule.jsonPointers ?? []).flatMap((pointer) => pointerPaths(pointer, side)), ...(rule.jqPathExpressions ?? []).flatMap((expression) => evaluateJq(parseJq(expression), side))];
      removeAll(side, paths.filter((path) => path.length > 0));
    }
    for (const manager of rule.managedFieldsManagers ?? []) managers.add(manager);
  }
  if (managers.size > 0) {
    const owned = managedFields.filter((entry) => entry.manager !== undefined && managers.has(entry.manager));
    for (const difference of compareObjects(outLive, outPredicted, lists)) {
      if (difference.op === 'added') continue;
      if (owned.some((entry) => ownsField(entry.fieldsV1, difference.segments, outLive))) setAt(outPredicted, difference.segments, difference.live, true);
    }
  }
  return { live: outLive, predicted: outPredicted };
}

/** The rules as Argo CD `spec.ignoreDifferences` YAML. */
export function exportArgoYaml(rules: readonly IgnoreRule[], context: string | null): string {
  const header = `# Argo CD Application spec.ignoreDifferences, exported by Kubedrift${context ? ` for context "${context}"` : ''}.\n# Paste under the Application's spec.\n`;
  if (rules.length === 0) return `${header}ignoreDifferences: []\n`;
  const ordered = rules.map((rule) => {
    const out: Record<string, unknown> = { group: rule.group, kind: rule.kind };
    if (rule.name !== undefined) out['name'] = rule.name;
    if (rule.namespace !== undefined) out['namespace'] = rule.namespace;
    if (rule.jsonPointers?.length) out['jsonPointers'] = rule.jsonPointers;
    if (rule.jqPathExpressions?.length) out['jqPathExpressions'] = rule.jqPathExpressions;
    if (rule.managedFieldsManagers?.length) out['managedFieldsManagers'] = rule.managedFieldsManagers;
    return out;
  });
  return header + stringify({ ignoreDifferences: ordered }, { lineWidth: 0 });
}
