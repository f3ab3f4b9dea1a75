import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { toYaml } from '../../../../electron/engine/snapshot/yaml-emit.ts';
import { deployment } from './sample-file.ts';

const TRICKY = {
  strings: ['yes', 'No', 'on', 'OFF', 'y', 'null', '~', '123', '1.0', '0x1f', '1e3', '', ' lead', 'trail ', 'a: b', 'a #b', '#c', '- d', '? e', '*f', '&g', '!h', '%i', '@j', '`k', '|l', '>m', "'n'", '"o"', '{p}', '[q]', 'r,s', 'multi\nline', 'tab\there', 'ünïcödé', '\u2028', 'c:\\path', '2024-05-01', '12:30', '.5', '-'],
  numbers: [0, -1, 3.25, 1e21, -0.5],
  flags: [true, false, null],
  empty: { object: {}, array: [] },
  nested: [[1, [2, []]], [{ a: 1 }, { b: [{ c: {} }] }]],
  'app.kubernetes.io/name': 'web',
  '80': 'port key',
  'key with space': 1,
  'on': 'reserved key',
};

describe('YAML writer', () => {
  it('writes what YAML 1.2 and YAML 1.1 parsers read back unchanged', () => {
    const text = toYaml(TRICKY);
    expect(parse(text)).toEqual(TRICKY);
    expect(parse(text, { version: '1.1' })).toEqual(TRICKY);
  });

  it('writes Kubernetes objects in the usual block style', () => {
    const object = deployment('web', 3, 3) as unknown as Record<string, unknown>;
    const text = toYaml(object);
    expect(parse(text)).toEqual(object);
    expect(text).toContain('metadata:\n  uid: uid-web\n  name: web\n');
    expect(text).toContain('      containers:\n      - name: app\n        image: "web:1.0"\n');
  });
});
