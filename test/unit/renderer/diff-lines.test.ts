import { describe, expect, it } from 'vitest';
import { changeCounts, sideBySideRows, splitLines, unifiedRows } from '../../../renderer/components/diff/diff-lines.ts';
import { tokenizeYamlLine } from '../../../renderer/components/diff/yaml-tokens.ts';
import { changesText, filterRows } from '../../../renderer/components/diff/diff-rows.ts';
import type { DiffRow, EditRun } from '../../../shared/contracts/diff.ts';

const live = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
const predicted = [...live.slice(0, 9), 'line 10 changed', ...live.slice(10)];
const EDITS: EditRun[] = [['=', 9], ['-', 1], ['+', 1], ['=', 10]];

describe('diff view rows', () => {
  it('folds unchanged lines beyond three of context, numbering both sides', () => {
    const rows = unifiedRows(live, predicted, EDITS);
    expect(rows.map((row) => (row.kind === 'fold' ? `fold ${row.count} from ${row.a}` : `${row.kind} ${row.a ?? '-'} ${row.b ?? '-'} ${row.text}`))).toEqual([
      'fold 6 from 1',
      'same 7 7 line 7',
      'same 8 8 line 8',
      'same 9 9 line 9',
      'del 10 - line 10',
      'add - 10 line 10 changed',
      'same 11 11 line 11',
      'same 12 12 line 12',
      'same 13 13 line 13',
      'fold 7 from 14',
    ]);
  });

  it('opens a fold the user expanded and keeps short unchanged stretches open', () => {
    const rows = unifiedRows(live, predicted, EDITS, { expanded: new Set([0]) });
    expect(rows.filter((row) => row.kind === 'fold')).toEqual([{ kind: 'fold', id: 3, count: 7, a: 14, b: 14 }]);
    expect(rows[0]).toEqual({ kind: 'same', a: 1, b: 1, text: 'line 1' });
    // Four unchanged lines between two changes stay visible (folding them would hide nothing worth it).
    const close = unifiedRows(['a', '1', '2', '3', '4', 'b'], ['A', '1', '2', '3', '4', 'B'], [['-', 1], ['+', 1], ['=', 4], ['-', 1], ['+', 1]]);
    expect(close.some((row) => row.kind === 'fold')).toBe(false);
  });

  it('pairs deletions with the insertions that replace them side by side, leaving gaps empty', () => {
    const rows = sideBySideRows(['a', 'old1', 'old2', 'z'], ['a', 'new1', 'z'], [['=', 1], ['-', 2], ['+', 1], ['=', 1]]);
    expect(rows).toEqual([
      { kind: 'same', left: { n: 1, text: 'a' }, right: { n: 1, text: 'a' } },
      { kind: 'change', left: { n: 2, text: 'old1' }, right: { n: 2, text: 'new1' } },
      { kind: 'change', left: { n: 3, text: 'old2' } },
      { kind: 'same', left: { n: 4, text: 'z' }, right: { n: 3, text: 'z' } },
    ]);
  });

  it('shows a missing object as all additions, and an object in sync as one fold', () => {
    expect(sideBySideRows([], ['apiVersion: v1', 'kind: ConfigMap'], [['+', 2]])).toEqual([
      { kind: 'change', right: { n: 1, text: 'apiVersion: v1' } },
      { kind: 'change', right: { n: 2, text: 'kind: ConfigMap' } },
    ]);
    expect(unifiedRows(live, live, [['=', 20]])).toEqual([{ kind: 'fold', id: 0, count: 20, a: 1, b: 1 }]);
    expect(changeCounts(EDITS)).toEqual({ added: 1, removed: 1 });
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines(null)).toEqual([]);
  });
});

describe('YAML highlighting', () => {
  const types = (line: string) => tokenizeYamlLine(line).map((token) => `${token.type}:${token.text}`);

  it('splits keys, list dashes and typed values', () => {
    expect(types('  replicas: 3')).toEqual(['space:  ', 'key:replicas', 'colon::', 'space: ', 'number:3']);
    expect(types('- name: web')).toEqual(['dash:- ', 'key:name', 'colon::', 'space: ', 'string:web']);
    expect(types('    - --port=8080')).toEqual(['space:    ', 'dash:- ', 'string:--port=8080']);
    expect(types('  enabled: true')).toContain('bool:true');
    expect(types('  creationTimestamp: null')).toContain('null:null');
    expect(types('  password: "*** (after)"')).toContain('mask:"*** (after)"');
    expect(types('  app.kubernetes.io/name: web')).toContain('key:app.kubernetes.io/name');
    expect(types('  "quoted key": v')).toContain('key:"quoted key"');
    expect(types('  url: http://cart:8080')).toEqual(['space:  ', 'key:url', 'colon::', 'space: ', 'string:http://cart:8080']);
    expect(types('  script: |')).toContain('indicator:|');
    expect(types('    echo a: b')).toEqual(['space:    ', 'key:echo a', 'colon::', 'space: ', 'string:b']);
  });

  it('keeps markup as text', () => {
    expect(tokenizeYamlLine('  note: <img src=x onerror=alert(1)>').map((t) => t.text).join('')).toBe('  note: <img src=x onerror=alert(1)>');
  });
});

describe('the result list', () => {
  const row = (over: Partial<DiffRow>): DiffRow => ({ id: 'x', status: 'OutOfSync', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: 'web', source: { file: '/repo/web.yaml', line: 1 }, changed: 7, ignored: 0, approximate: false, fields: ['spec.replicas', 'spec.template.spec.containers[name=web].image'], ...over });

  it('summarises differences and filters by status and text', () => {
    expect(changesText(row({}))).toBe('spec.replicas, spec.template.spec.containers[name=web].image +5 more');
    expect(changesText(row({ status: 'Error', reason: 'kind "Frob" is not served' }))).toBe('kind "Frob" is not served');
    expect(changesText(row({ status: 'InSync', changed: 0, ignored: 2, fields: [] }))).toBe('2 ignored');
    const rows = [row({ id: 'a' }), row({ id: 'b', status: 'InSync', name: 'api' }), row({ id: 'c', status: 'Error', kind: '', name: '', reason: 'invalid YAML' })];
    expect(filterRows(rows, 'InSync', '').map((r) => r.id)).toEqual(['b']);
    expect(filterRows(rows, null, 'yaml').map((r) => r.id)).toEqual(['a', 'b', 'c']);
    expect(filterRows(rows, null, 'invalid').map((r) => r.id)).toEqual(['c']);
    expect(filterRows(rows, null, 'shop/api').map((r) => r.id)).toEqual(['b']);
  });
});
