import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { applyJsonPatch } from '../../../../electron/engine/simcluster/patch/json-patch.ts';

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

/** The Status kube-apiserver answers when a JSON patch operation fails. */
function rejected(cause: string) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server rejected our request due to an error in our request',
    reason: 'Invalid',
    details: { causes: [{ message: cause }] },
    code: 422,
  };
}

describe('applyJsonPatch (RFC 6902, as kube-apiserver applies it)', () => {
  // RFC 6902 appendix A.
  it.each([
    ['adds an object member', { foo: 'bar' }, [{ op: 'add', path: '/baz', value: 'qux' }], { baz: 'qux', foo: 'bar' }],
    ['adds an array element before an index', { foo: ['bar', 'baz'] }, [{ op: 'add', path: '/foo/1', value: 'qux' }], { foo: ['bar', 'qux', 'baz'] }],
    ['removes an object member', { baz: 'qux', foo: 'bar' }, [{ op: 'remove', path: '/baz' }], { foo: 'bar' }],
    ['removes an array element', { foo: ['bar', 'qux', 'baz'] }, [{ op: 'remove', path: '/foo/1' }], { foo: ['bar', 'baz'] }],
    ['replaces a value', { baz: 'qux', foo: 'bar' }, [{ op: 'replace', path: '/baz', value: 'boo' }], { baz: 'boo', foo: 'bar' }],
    [
      'moves a value',
      { foo: { bar: 'baz', waldo: 'fred' }, qux: { corge: 'grault' } },
      [{ op: 'move', from: '/foo/waldo', path: '/qux/thud' }],
      { foo: { bar: 'baz' }, qux: { corge: 'grault', thud: 'fred' } },
    ],
    ['moves an array element', { foo: ['all', 'grass', 'cows', 'eat'] }, [{ op: 'move', from: '/foo/1', path: '/foo/3' }], { foo: ['all', 'cows', 'eat', 'grass'] }],
    ['passes a test', { baz: 'qux', foo: ['a', 2, 'c'] }, [{ op: 'test', path: '/baz', value: 'qux' }, { op: 'test', path: '/foo/1', value: 2 }], { baz: 'qux', foo: ['a', 2, 'c'] }],
    ['adds a nested member object', { foo: 'bar' }, [{ op: 'add', path: '/child', value: { grandchild: {} } }], { foo: 'bar', child: { grandchild: {} } }],
    ['appends with -', { foo: ['bar'] }, [{ op: 'add', path: '/foo/-', value: ['abc', 'def'] }], { foo: ['bar', ['abc', 'def']] }],
    ['unescapes ~0 and ~1', { '/': 9, '~1': 10 }, [{ op: 'test', path: '/~01', value: 10 }, { op: 'add', path: '/a~1b', value: 1 }], { '/': 9, '~1': 10, 'a/b': 1 }],
    ['compares values structurally in test', { a: { x: 1, y: [1, { z: true }] } }, [{ op: 'test', path: '/a', value: { y: [1, { z: true }], x: 1 } }], { a: { x: 1, y: [1, { z: true }] } }],
    ['copies a value', { spec: { replicas: 3 } }, [{ op: 'copy', from: '/spec/replicas', path: '/spec/min' }], { spec: { replicas: 3, min: 3 } }],
  ])('%s', (_name, target, operations, expected) => {
    expect(applyJsonPatch(target, operations)).toEqual(expected);
  });

  it('patches a Deployment the way `kubectl patch --type json` does', () => {
    const live = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.26' }] } } },
    };
    const result = applyJsonPatch(live, [
      { op: 'test', path: '/spec/replicas', value: 2 },
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.27' },
      { op: 'add', path: '/metadata/labels/app.kubernetes.io~1version', value: '1.27' },
    ]);
    expect(result).toEqual({
      ...live,
      metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web', 'app.kubernetes.io/version': '1.27' } },
      spec: { replicas: 2, template: { spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
    });
  });

  it('answers a failed test with 422 Invalid and the library message as the cause', () => {
    const error = failure(() => applyJsonPatch({ spec: { replicas: 3 } }, [{ op: 'test', path: '/spec/replicas', value: 2 }]));
    expect(error.toStatus()).toEqual(rejected('testing value /spec/replicas failed: test failed'));
  });

  it.each([
    ['removing a missing member', { a: {} }, [{ op: 'remove', path: '/a/b' }], "error in remove for path: '/a/b': Unable to remove nonexistent key: b: missing value"],
    ['removing below a missing parent', { a: {} }, [{ op: 'remove', path: '/x/y' }], 'remove operation does not apply: doc is missing path: "/x/y": missing value'],
    ['adding below a missing parent', {}, [{ op: 'add', path: '/spec/replicas', value: 1 }], 'add operation does not apply: doc is missing path: "/spec/replicas": missing value'],
    ['adding past the end of an array', { a: [1] }, [{ op: 'add', path: '/a/3', value: 2 }], "error in add for path: '/a/3': Unable to access invalid index: 3: invalid index referenced"],
    [
      'adding at a non-numeric array index',
      { a: [1] },
      [{ op: 'add', path: '/a/x', value: 2 }],
      `error in add for path: '/a/x': value was not a proper array index: 'x': strconv.Atoi: parsing "x": invalid syntax`,
    ],
    ['replacing a missing array element', { a: [1] }, [{ op: 'replace', path: '/a/4', value: 2 }], 'replace operation does not apply: doc is missing key: /a/4: missing value'],
    ['moving from a missing member', { a: {} }, [{ op: 'move', from: '/a/b', path: '/c' }], "error in move for path: 'b': Unable to remove nonexistent key: b: missing value"],
    ['an operation without a path', {}, [{ op: 'add', value: 1 }], 'add operation failed to decode path: missing value'],
    ['an unknown operation', {}, [{ op: 'frobnicate', path: '/a' }], 'Unexpected kind: frobnicate'],
    ['an operation without op', {}, [{ path: '/a' }], 'Unexpected kind: unknown'],
    ['testing a missing member', { a: {} }, [{ op: 'test', path: '/a/b', value: 1 }], 'testing value /a/b failed: test failed'],
  ])('answers %s with 422 and the library message', (_name, target, operations, cause) => {
    expect(failure(() => applyJsonPatch(target, operations)).toStatus()).toEqual(rejected(cause));
  });

  it('replaces a missing object member by adding it, as json-patch v4 in kube-apiserver does', () => {
    expect(applyJsonPatch({ spec: {} }, [{ op: 'replace', path: '/spec/paused', value: true }])).toEqual({ spec: { paused: true } });
  });

  it('passes a test for null against a missing member, as json-patch v4 does', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'test', path: '/b', value: null }])).toEqual({ a: 1 });
  });

  it('replaces the whole document with path ""', () => {
    expect(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: { b: 2 } }])).toEqual({ b: 2 });
  });

  it('is atomic: a failing operation leaves the target as it was', () => {
    const target = { spec: { replicas: 1 } };
    expect(() => applyJsonPatch(target, [{ op: 'replace', path: '/spec/replicas', value: 5 }, { op: 'test', path: '/spec/replicas', value: 1 }])).toThrow(ApiError);
    expect(target).toEqual({ spec: { replicas: 1 } });
  });

  it('does not alias inserted values to the patch document', () => {
    const value = { nested: [1] };
    const result = applyJsonPatch({}, [{ op: 'add', path: '/v', value }]) as { v: { nested: number[] } };
    result.v.nested.push(2);
    expect(value.nested).toEqual([1]);
  });

  it.each([
    [{ op: 'add', path: '/a', value: 1 }, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch'],
    ['add', 'json: cannot unmarshal string into Go value of type jsonpatch.Patch'],
    [['add'], 'json: cannot unmarshal string into Go value of type jsonpatch.Operation'],
  ])('answers the malformed document %j with 400 BadRequest', (operations, message) => {
    const error = failure(() => applyJsonPatch({}, operations));
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toBe(message);
  });
});

describe('applyJsonPatch: json-patch v4 array indexes', () => {
  it('counts negative indexes from the end', () => {
    expect(applyJsonPatch({ a: [1, 2, 3] }, [{ op: 'remove', path: '/a/-1' }])).toEqual({ a: [1, 2] });
    expect(applyJsonPatch({ a: [1, 2] }, [{ op: 'add', path: '/a/-1', value: 9 }])).toEqual({ a: [1, 2, 9] });
    expect(applyJsonPatch({ a: [{ x: 1 }, { x: 2 }] }, [{ op: 'replace', path: '/a/-2/x', value: 5 }])).toEqual({ a: [{ x: 5 }, { x: 2 }] });
  });

  it('refuses negative indexes beyond the start', () => {
    expect(() => applyJsonPatch({ a: [1] }, [{ op: 'remove', path: '/a/-2' }])).toThrow(ApiError);
  });
});
