import { describe, expect, it } from 'vitest';
import { FieldSet, compareTokens, keyToken, pathToString, valueToken } from '../../../../electron/engine/simcluster/patch/fieldpath.ts';

/** fieldsV1 of a kubectl-client-side-apply entry as kube-apiserver 1.30 writes it for a new Deployment. */
const CLIENT_SIDE_APPLY = {
  'f:metadata': {
    'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} },
    'f:labels': { '.': {}, 'f:app': {} },
  },
  'f:spec': {
    'f:progressDeadlineSeconds': {},
    'f:replicas': {},
    'f:selector': {},
    'f:template': {
      'f:spec': {
        'f:containers': {
          'k:{"name":"nginx"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
            'f:resources': {},
          },
        },
        'f:dnsPolicy': {},
      },
    },
  },
};

describe('FieldSet', () => {
  it('round-trips a real FieldsV1 document, `.` and key order included', () => {
    const set = FieldSet.fromFieldsV1(CLIENT_SIDE_APPLY);
    expect(JSON.stringify(set.toFieldsV1())).toBe(JSON.stringify(CLIENT_SIDE_APPLY));
  });

  it('marks a node owned both itself and through children with `.` first', () => {
    const set = FieldSet.fromPaths([['f:metadata', 'f:labels'], ['f:metadata', 'f:labels', 'f:app']]);
    expect(Object.keys((set.toFieldsV1()['f:metadata'] as Record<string, object>)['f:labels']!)).toEqual(['.', 'f:app']);
  });

  it('lists member paths in structured-merge-diff order: members, then children, each sorted', () => {
    const set = FieldSet.fromFieldsV1(CLIENT_SIDE_APPLY);
    const paths = set.paths().map(pathToString);
    expect(paths.slice(0, 4)).toEqual([
      '.metadata.annotations',
      '.metadata.labels',
      '.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration',
      '.metadata.labels.app',
    ]);
    expect(paths).toContain('.spec.template.spec.containers[name="nginx"].ports[containerPort=80,protocol="TCP"].protocol');
  });

  it('sorts tokens as structured-merge-diff sorts path elements', () => {
    const tokens = ['v:"b"', 'i:10', 'k:{"name":"b"}', 'f:z', 'i:9', 'k:{"name":"a"}', 'f:a', 'v:1', 'v:"a"'];
    expect([...tokens].sort(compareTokens)).toEqual(['f:a', 'f:z', 'k:{"name":"a"}', 'k:{"name":"b"}', 'v:1', 'v:"a"', 'v:"b"', 'i:9', 'i:10']);
  });

  it('writes key tokens with the key fields sorted by name', () => {
    expect(keyToken([['protocol', 'TCP'], ['containerPort', 80]])).toBe('k:{"containerPort":80,"protocol":"TCP"}');
    expect(valueToken('example.com/finalizer')).toBe('v:"example.com/finalizer"');
    expect(pathToString(['f:metadata', 'f:finalizers', valueToken('x')])).toBe('.metadata.finalizers[="x"]');
  });

  it('computes union, intersection and member-wise difference', () => {
    const a = FieldSet.fromPaths([['f:spec', 'f:replicas'], ['f:spec', 'f:paused']]);
    const b = FieldSet.fromPaths([['f:spec', 'f:replicas'], ['f:metadata', 'f:labels', 'f:x']]);
    expect(a.union(b).paths().map(pathToString)).toEqual(['.metadata.labels.x', '.spec.paused', '.spec.replicas']);
    expect(a.intersection(b).paths().map(pathToString)).toEqual(['.spec.replicas']);
    expect(a.difference(b).paths().map(pathToString)).toEqual(['.spec.paused']);
    expect(b.difference(b).isEmpty()).toBe(true);
  });

  it('removes whole subtrees in recursiveDifference but only members in difference', () => {
    const owned = FieldSet.fromPaths([['f:status', 'f:replicas'], ['f:spec', 'f:replicas']]);
    const reset = FieldSet.fromPaths([['f:status']]);
    expect(owned.difference(reset).paths().map(pathToString)).toEqual(['.spec.replicas', '.status.replicas']);
    expect(owned.recursiveDifference(reset).paths().map(pathToString)).toEqual(['.spec.replicas']);
  });

  it('answers membership, not prefixes, in has()', () => {
    const set = FieldSet.fromPaths([['f:spec', 'f:replicas']]);
    expect(set.has(['f:spec', 'f:replicas'])).toBe(true);
    expect(set.has(['f:spec'])).toBe(false);
  });
});
