import { describe, expect, it } from 'vitest';
import { CrdIndex, crdFacts, versionHasStatus } from '../../../../../electron/engine/cluster/discovery/crd-info.ts';

/** cert-manager's Certificate CRD, trimmed to what the status facts read. */
const CERTIFICATE_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'certificates.cert-manager.io' },
  spec: {
    group: 'cert-manager.io',
    names: { kind: 'Certificate', listKind: 'CertificateList', plural: 'certificates', shortNames: ['cert', 'certs'], singular: 'certificate', categories: ['cert-manager'] },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: { openAPIV3Schema: { type: 'object', required: ['spec'], properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { type: 'object' }, status: { type: 'object' } } } },
      },
    ],
  },
};

describe('CRD status facts', () => {
  it('reads a status subresource or a status property as status', () => {
    expect(versionHasStatus({ subresources: { status: {} } })).toBe(true);
    expect(versionHasStatus({ schema: { openAPIV3Schema: { properties: { spec: {}, status: {} } } } })).toBe(true);
  });

  it('reads a schema listing its properties without status as no status', () => {
    expect(versionHasStatus({ schema: { openAPIV3Schema: { properties: { spec: {} } } } })).toBe(false);
  });

  it('knows nothing without a schema or when the root keeps unknown fields', () => {
    expect(versionHasStatus({})).toBeUndefined();
    expect(versionHasStatus({ schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } })).toBeUndefined();
  });

  it('keys a CRD by plural.group with facts per version', () => {
    expect(crdFacts(CERTIFICATE_CRD)).toEqual({ key: 'certificates.cert-manager.io', versions: new Map([['v1', true]]) });
    expect(crdFacts({ kind: 'Status' })).toBeUndefined();
    expect(crdFacts(null)).toBeUndefined();
  });

  it('forgets a deleted CRD', () => {
    const index = new CrdIndex();
    expect(index.apply({ type: 'ADDED', object: CERTIFICATE_CRD })).toBe(true);
    expect(index.hasStatus('certificates.cert-manager.io', 'v1')).toBe(true);
    expect(index.hasStatus('certificates.cert-manager.io', 'v2')).toBeUndefined();
    index.apply({ type: 'DELETED', object: CERTIFICATE_CRD });
    expect(index.has('certificates.cert-manager.io')).toBe(false);
  });
});
