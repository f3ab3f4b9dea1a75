import { describe, expect, it } from 'vitest';
import { applyMergePatch } from '../../../../electron/engine/simcluster/patch/merge-patch.ts';

describe('applyMergePatch (RFC 7386)', () => {
  // RFC 7386 appendix A, every example.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('merges %j with %j into %j', (target, patch, expected) => {
    expect(applyMergePatch(target, patch)).toEqual(expected);
  });

  it('deletes a label with null and keeps the others, as `kubectl patch --type merge` does', () => {
    const live = { metadata: { name: 'web', labels: { app: 'web', tier: 'front' } }, spec: { replicas: 2 } };
    expect(applyMergePatch(live, { metadata: { labels: { tier: null } }, spec: { replicas: 3 } })).toEqual({
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: { replicas: 3 },
    });
  });

  it('replaces a list of containers whole: merge patch knows no merge keys', () => {
    const live = { spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'y' }] } };
    expect(applyMergePatch(live, { spec: { containers: [{ name: 'a', image: 'z' }] } })).toEqual({ spec: { containers: [{ name: 'a', image: 'z' }] } });
  });

  it('mutates neither input and shares no structure with them', () => {
    const target = { a: { b: 1 }, keep: { deep: [1] } };
    const patch = { a: { c: { d: 2 } } };
    const before = structuredClone({ target, patch });
    const result = applyMergePatch(target, patch) as { keep: { deep: number[] }; a: { c: object } };
    expect({ target, patch }).toEqual(before);
    result.keep.deep.push(2);
    expect(target.keep.deep).toEqual([1]);
    expect(result.a.c).not.toBe(patch.a.c);
  });
});
