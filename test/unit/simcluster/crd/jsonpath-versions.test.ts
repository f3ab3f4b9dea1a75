import { describe, expect, it } from 'vitest';
import { evaluateJsonPath, isSimpleJsonPath, setAtJsonPath } from '../../../../electron/engine/simcluster/crd/jsonpath.ts';
import { compareVersionPriority, sortByVersionPriority } from '../../../../electron/engine/simcluster/crd/versions.ts';

const certificate = {
  metadata: { name: 'web', labels: { 'app.kubernetes.io/name': 'web' }, creationTimestamp: '2025-06-01T12:00:00Z' },
  spec: { secretName: 'web-tls', dnsNames: ['a.example.com', 'b.example.com'], replicas: 3 },
  status: {
    conditions: [
      { type: 'Issuing', status: 'False' },
      { type: 'Ready', status: 'True', message: 'Certificate is up to date and has not expired' },
    ],
  },
};

describe('printer column JSONPath', () => {
  it('reads simple fields, indexes, wildcards and quoted keys', () => {
    expect(evaluateJsonPath(certificate, '.spec.secretName')).toEqual(['web-tls']);
    expect(evaluateJsonPath(certificate, '.spec.dnsNames[1]')).toEqual(['b.example.com']);
    expect(evaluateJsonPath(certificate, '.spec.dnsNames[*]')).toEqual(['a.example.com', 'b.example.com']);
    expect(evaluateJsonPath(certificate, ".metadata.labels['app.kubernetes.io/name']")).toEqual(['web']);
    expect(evaluateJsonPath(certificate, '.metadata.labels.app\\.kubernetes\\.io/name')).toEqual(['web']);
  });

  it('filters conditions by type, as cert-manager and Flux columns do', () => {
    expect(evaluateJsonPath(certificate, '.status.conditions[?(@.type=="Ready")].status')).toEqual(['True']);
    expect(evaluateJsonPath(certificate, '.status.conditions[?(@.type=="Ready")].message')).toEqual(['Certificate is up to date and has not expired']);
    expect(evaluateJsonPath(certificate, '.status.conditions[?(@.type=="Stalled")].status')).toEqual([]);
  });

  it('gives nothing for missing keys and rejects paths that do not start with a dot', () => {
    expect(evaluateJsonPath(certificate, '.spec.issuerRef.name')).toEqual([]);
    expect(isSimpleJsonPath('.spec.replicas')).toBe(true);
    expect(isSimpleJsonPath('spec.replicas')).toBe(false);
    expect(isSimpleJsonPath('.spec[')).toBe(false);
  });

  it('writes a value at a field path, creating the objects on the way', () => {
    const object: Record<string, unknown> = {};
    expect(setAtJsonPath(object, '.spec.replicas', 4)).toBe(true);
    expect(object).toEqual({ spec: { replicas: 4 } });
    expect(setAtJsonPath(object, '.spec.items[0]', 1)).toBe(false);
  });
});

describe('Kubernetes version priority', () => {
  it('orders GA before beta before alpha, higher first, and other names last alphabetically', () => {
    expect(sortByVersionPriority(['v1alpha1', 'foo1', 'v1', 'v2beta1', 'v1beta2', 'v2', 'v1beta1', 'bar', 'v10alpha1'])).toEqual([
      'v2',
      'v1',
      'v2beta1',
      'v1beta2',
      'v1beta1',
      'v10alpha1',
      'v1alpha1',
      'bar',
      'foo1',
    ]);
    expect(compareVersionPriority('v1', 'v1')).toBe(0);
  });
});
