/**
 * Label and field selectors in the string forms clients send (`app=web,tier!=db,env in (a,b)`,
 * `status.phase=Running`). Parse once, match many.
 */
import { badRequest } from './errors.ts';
import type { KubeObject } from './types.ts';

export type LabelRequirement =
  | { op: '=' | '!='; key: string; value: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'exists' | '!'; key: string };

export type LabelSelector = LabelRequirement[];

const KEY = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** Splits on commas that are not inside a parenthesised set. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '(') depth += 1;
    else if (c === ')') depth -= 1;
    else if (c === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

function checkKey(key: string, selector: string): string {
  if (!KEY.test(key)) throw badRequest(`unable to parse requirement: invalid label key "${key}" in selector "${selector}"`);
  return key;
}

export function parseLabelSelector(text: string | null | undefined): LabelSelector {
  if (!text) return [];
  const out: LabelSelector = [];
  for (const term of splitTerms(text)) {
    let m = /^(\S+?)\s+(in|notin)\s*\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = (m[3] ?? '').split(',').map((v) => v.trim()).filter((v) => v !== '');
      out.push({ op: m[2] as 'in' | 'notin', key: checkKey(m[1] ?? '', text), values });
      continue;
    }
    m = /^(\S+?)\s*(==|!=|=)\s*(\S*)$/.exec(term);
    if (m) {
      out.push({ op: m[2] === '!=' ? '!=' : '=', key: checkKey(m[1] ?? '', text), value: m[3] ?? '' });
      continue;
    }
    m = /^!\s*(\S+)$/.exec(term);
    if (m) {
      out.push({ op: '!', key: checkKey(m[1] ?? '', text) });
      continue;
    }
    out.push({ op: 'exists', key: checkKey(term, text) });
  }
  return out;
}

/** A structured selector (`matchLabels` + `matchExpressions`) as Deployments and Services carry. */
export function fromLabelSelectorObject(selector: { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> } | undefined): LabelSelector {
  const out: LabelSelector = [];
  for (const [key, value] of Object.entries(selector?.matchLabels ?? {})) out.push({ op: '=', key, value });
  for (const expr of selector?.matchExpressions ?? []) {
    if (expr.operator === 'In') out.push({ op: 'in', key: expr.key, values: expr.values ?? [] });
    else if (expr.operator === 'NotIn') out.push({ op: 'notin', key: expr.key, values: expr.values ?? [] });
    else if (expr.operator === 'Exists') out.push({ op: 'exists', key: expr.key });
    else if (expr.operator === 'DoesNotExist') out.push({ op: '!', key: expr.key });
  }
  return out;
}

export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  for (const r of selector) {
    const has = Object.hasOwn(l, r.key);
    const value = l[r.key];
    switch (r.op) {
      case '=':
        if (!has || value !== r.value) return false;
        break;
      case '!=':
        if (has && value === r.value) return false;
        break;
      case 'in':
        if (!has || !r.values.includes(value ?? '')) return false;
        break;
      case 'notin':
        if (has && r.values.includes(value ?? '')) return false;
        break;
      case 'exists':
        if (!has) return false;
        break;
      case '!':
        if (has) return false;
        break;
    }
  }
  return true;
}

export interface FieldRequirement {
  field: string;
  op: '=' | '!=';
  value: string;
}

/** Fields each kind can be selected by, beyond metadata.name and metadata.namespace. */
const FIELD_SETS: Record<string, string[]> = {
  Pod: ['spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName', 'spec.serviceAccountName', 'status.phase', 'status.podIP', 'status.nominatedNodeName'],
  Event: [
    'involvedObject.kind',
    'involvedObject.namespace',
    'involvedObject.name',
    'involvedObject.uid',
    'involvedObject.apiVersion',
    'involvedObject.resourceVersion',
    'involvedObject.fieldPath',
    'reason',
    'reportingComponent',
    'source',
    'type',
    'regarding.kind',
    'regarding.namespace',
    'regarding.name',
    'regarding.uid',
    'reportingController',
  ],
  Node: ['spec.unschedulable'],
  Secret: ['type'],
  Namespace: ['status.phase'],
};

export function parseFieldSelector(text: string | null | undefined, kind: string): FieldRequirement[] {
  if (!text) return [];
  const allowed = new Set(['metadata.name', 'metadata.namespace', ...(FIELD_SETS[kind] ?? [])]);
  const out: FieldRequirement[] = [];
  for (const term of splitTerms(text)) {
    const m = /^([^=!\s]+)\s*(==|!=|=)\s*(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    const field = m[1] ?? '';
    if (!allowed.has(field)) throw badRequest(`field label not supported: ${field}`);
    out.push({ field, op: m[2] === '!=' ? '!=' : '=', value: m[3] ?? '' });
  }
  return out;
}

function fieldValue(object: KubeObject, field: string): string {
  if (field === 'source') {
    const source = (object as { source?: { component?: string } }).source;
    return source?.component ?? '';
  }
  let current: unknown = object;
  for (const part of field.split('.')) {
    if (current === null || typeof current !== 'object') return '';
    current = (current as Record<string, unknown>)[part];
  }
  if (current === undefined || current === null) return '';
  return String(current);
}

export function matchesFields(requirements: FieldRequirement[], object: KubeObject): boolean {
  for (const r of requirements) {
    const value = fieldValue(object, r.field);
    if (r.op === '=' ? value !== r.value : value === r.value) return false;
  }
  return true;
}
