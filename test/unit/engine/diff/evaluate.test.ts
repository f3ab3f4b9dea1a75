import { describe, expect, it } from 'vitest';
import { evaluate, MAX_TEXT_CHARS, objectDiff } from '../../../../electron/engine/diff/evaluate.ts';
import type { ComparedObject } from '../../../../electron/engine/diff/run.ts';

const base: ComparedObject = { id: '/ConfigMap/shop/big', apiVersion: 'v1', kind: 'ConfigMap', group: '', namespace: 'shop', name: 'big', source: { file: '/repo/big.yaml', line: 1 }, managedFields: [] };
const cm = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big', namespace: 'shop' }, data });

describe('evaluating one object', () => {
  it('gives each kind of outcome its status and reason', () => {
    expect(evaluate({ ...base, error: 'kind "Frob" is not served' }, []).row).toMatchObject({ status: 'Error', reason: 'kind "Frob" is not served', changed: 0 });
    expect(evaluate({ ...base, predicted: cm({ a: '1' }) }, []).row).toMatchObject({ status: 'Missing', reason: 'Not in the cluster: applying the files would create it.' });
    expect(evaluate({ ...base, live: cm({ a: '1' }), predicted: cm({ a: '1' }) }, []).row).toMatchObject({ status: 'InSync', changed: 0, fields: [] });
    expect(evaluate({ ...base, live: cm({ a: '1', b: '2' }), predicted: cm({ a: '9', b: '8' }), approximate: 'Approximate: 403' }, []).row).toMatchObject({ status: 'OutOfSync', changed: 2, fields: ['data.a', 'data.b'], approximate: true, reason: 'Approximate: 403' });
  });

  it('counts fields hidden by ignore rules and keeps them out of the texts', () => {
    const object = { ...base, live: cm({ a: '1', b: '2' }), predicted: cm({ a: '9', b: '2' }) };
    const rules = [{ group: '', kind: 'ConfigMap', jsonPointers: ['/data/a'] }];
    expect(evaluate(object, rules).row).toMatchObject({ status: 'InSync', changed: 0, ignored: 1 });
    const diff = objectDiff(object, rules, new Map());
    expect(diff.live).not.toMatch(/^ {2}a:/m);
    expect(diff.unified).toBe('');
  });

  it('sends only the unified diff of an object too large to show whole', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_TEXT_CHARS / 40 }, (_, i) => [`key-${i}`, 'a value of twenty chars']));
    const diff = objectDiff({ ...base, live: cm({ ...many, v: '1' }), predicted: cm({ ...many, v: '2' }) }, [], new Map());
    expect(diff).toMatchObject({ truncated: true, live: null, predicted: null, edits: [] });
    expect(diff.unified).toMatch(/^-\s+v: "1"$/m);
    expect(diff.unified.length).toBeLessThanOrEqual(MAX_TEXT_CHARS);
    expect(diff.fields.map((f) => f.path)).toEqual(['data.v']);
  });
});
