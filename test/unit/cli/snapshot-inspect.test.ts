import { describe, expect, it } from 'vitest';
import { describeFile } from '../../../electron/cli/snapshot-inspect.ts';
import type { SlimObject } from '../../../shared/cluster.ts';
import { sampleFile } from '../engine/snapshot/sample-file.ts';

const certificate = (name: string, conditions: unknown[]): SlimObject =>
  ({ apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: { uid: `uid-${name}`, name, namespace: 'shop', resourceVersion: '4' }, spec: {}, status: { conditions } }) as SlimObject;

describe('kubedrift snapshot inspect', () => {
  it('counts custom resources and lists those not current with the cluster\'s own words', () => {
    const base = sampleFile();
    const file = sampleFile({
      objects: [
        ...base.objects,
        certificate('web-tls', [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date' }]),
        certificate('api-tls', [{ type: 'Ready', status: 'False', reason: 'Failed', message: 'issuer letsencrypt is not ready' }]),
      ],
      kinds: [...base.kinds, { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', key: 'certificates.cert-manager.io', plural: 'certificates', namespaced: true, custom: true, metadataOnly: false }],
    });
    const text = describeFile(file, 'prod.kubedrift.json.gz', 2048);
    expect(text).toMatch(/^Custom: {5}2 custom resources, 1 not current$/m);
    expect(text).toMatch(/^ {2}Certificate\.cert-manager\.io shop\/api-tls {2}failed: Failed \(issuer letsencrypt is not ready\)$/m);
    expect(text).not.toContain('web-tls');
    expect(describeFile(base, 'prod.kubedrift.json.gz', 2048)).not.toContain('Custom:');
  });
});
