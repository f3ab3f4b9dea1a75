import { describe, expect, it } from 'vitest';
import { copyJson, copyOnto, sameJson } from '../../../../electron/engine/simcluster/json-values.ts';

function pod(): Record<string, unknown> {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-7d9f8-x7k2p', namespace: 'shop', labels: { app: 'web' }, resourceVersion: '42', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d9f8', uid: 'u-1', controller: true }] },
    spec: { containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80, protocol: 'TCP' }] }], nodeName: 'node-1' },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' },
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2026-01-01T00:00:00Z' },
      ],
      containerStatuses: [{ name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: '2026-01-01T00:00:01Z' } } }],
    },
  };
}

/** Every object and array inside `value`, to check what two values share. */
function objectsIn(value: unknown, out = new Set<object>()): Set<object> {
  if (typeof value === 'object' && value !== null) {
    out.add(value);
    for (const child of Object.values(value)) objectsIn(child, out);
  }
  return out;
}

describe('copyJson', () => {
  it('returns what structuredClone returns for JSON data, sharing no object with the input', () => {
    const input = { ...pod(), extra: { kept: undefined, list: [1, 'two', null, true, { deep: [[]] }] } };
    const copy = copyJson(input);
    expect(copy).toStrictEqual(structuredClone(input));
    expect(Object.keys(copy)).toEqual(Object.keys(input));
    const shared = [...objectsIn(copy)].filter((o) => objectsIn(input).has(o));
    expect(shared).toEqual([]);
  });

  it('keeps a "__proto__" member of parsed JSON as an own member', () => {
    const input = JSON.parse('{"metadata":{"__proto__":{"polluted":true},"name":"x"}}') as { metadata: Record<string, unknown> };
    const copy = copyJson(input);
    expect(Object.keys(copy.metadata)).toEqual(['__proto__', 'name']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(input));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('copies what is not plain JSON as structuredClone does, and refuses functions as it does', () => {
    const when = new Date(Date.UTC(2026, 0, 1));
    const copy = copyJson({ when, sizes: new Map([['a', 1]]) });
    expect(copy.when).toBeInstanceOf(Date);
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(copy.sizes.get('a')).toBe(1);
    expect(() => copyJson({ run: () => 1 })).toThrow(/could not be cloned/);
  });
});

describe('copyOnto', () => {
  it('shares the subtrees a caller took from the stored object and copies the rest', () => {
    const stored = pod();
    const status = stored['status'] as { conditions: Array<Record<string, unknown>> };
    const incoming: Record<string, unknown> & { status: { conditions: unknown[] } } = { ...stored, status: { ...status, conditions: [{ ...status.conditions[0], status: 'False' }, status.conditions[1]] } };
    const result = copyOnto(incoming, stored);
    expect(result).toStrictEqual(incoming);
    expect(result['spec']).toBe(stored['spec']);
    expect(result['metadata']).toBe(stored['metadata']);
    const conditions = (result['status'] as { conditions: unknown[] }).conditions;
    expect(conditions[1]).toBe(status.conditions[1]);
    expect(conditions[0]).not.toBe(incoming.status.conditions[0]);
    expect(result['status']).not.toBe(incoming.status);
  });

  it('shares what is equal to the stored object even when the caller built it afresh', () => {
    const stored = pod();
    const parsed = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
    (parsed['metadata'] as { labels: Record<string, string> }).labels = { app: 'web', tier: 'front' };
    const result = copyOnto(parsed, stored);
    expect(result['spec']).toBe(stored['spec']);
    expect(result['status']).toBe(stored['status']);
    expect((result['metadata'] as { ownerReferences: unknown }).ownerReferences).toBe((stored['metadata'] as { ownerReferences: unknown }).ownerReferences);
    expect((result['metadata'] as { labels: unknown }).labels).toEqual({ app: 'web', tier: 'front' });
    expect(copyOnto(JSON.parse(JSON.stringify(stored)), stored)).toBe(stored);
  });

  it('gives back nothing the caller can still change', () => {
    const stored = pod();
    const incoming = JSON.parse(JSON.stringify(stored)) as Record<string, unknown>;
    (incoming['spec'] as { nodeName: string }).nodeName = 'node-2';
    const result = copyOnto(incoming, stored);
    const storedObjects = objectsIn(stored);
    const leaked = [...objectsIn(result)].filter((o) => objectsIn(incoming).has(o) && !storedObjects.has(o));
    expect(leaked).toEqual([]);
    (incoming['spec'] as { nodeName: string }).nodeName = 'node-3';
    expect((result['spec'] as { nodeName: string }).nodeName).toBe('node-2');
  });

  it('treats a different key order as a difference, as the serialised JSON differs', () => {
    const stored = { metadata: { name: 'a', namespace: 'b' } };
    const result = copyOnto({ metadata: { namespace: 'b', name: 'a' } }, stored);
    expect(result.metadata).not.toBe(stored.metadata);
    expect(Object.keys(result.metadata)).toEqual(['namespace', 'name']);
  });
});

describe('sameJson', () => {
  const cases: Array<[string, object, object]> = [
    ['equal objects built apart', pod(), pod()],
    ['a changed leaf deep down', pod(), { ...pod(), status: { phase: 'Pending' } }],
    ['the same members in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
    ['an undefined member against a missing one', { a: 1, b: undefined }, { a: 1 }],
    ['undefined in an array against null', { list: [undefined] }, { list: [null] }],
    ['NaN against null', { n: Number.NaN }, { n: null }],
    ['a number against its string', { n: 1 }, { n: '1' }],
    ['an empty object against an empty array', { v: {} }, { v: [] }],
    ['arrays of different length', { v: [1, 2] }, { v: [1] }],
    ['a Date against its JSON string', { at: new Date(0) }, { at: '1970-01-01T00:00:00.000Z' }],
    ['a member that is a function against none', { a: 1, f: () => 2 }, { a: 1 }],
  ];
  it.each(cases)('agrees with comparing JSON.stringify output: %s', (_name, a, b) => {
    expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
    expect(sameJson(b, a)).toBe(JSON.stringify(b) === JSON.stringify(a));
  });

  it('ignores the top-level keys it is told to, as a spec comparison needs', () => {
    const a = { ...pod(), status: { phase: 'Failed' } };
    expect(sameJson(a, pod(), { ignoreKeys: new Set(['metadata', 'status']) })).toBe(true);
    expect(sameJson({ ...a, spec: {} }, pod(), { ignoreKeys: new Set(['metadata', 'status']) })).toBe(false);
  });
});
