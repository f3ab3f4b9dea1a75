import { X509Certificate, createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubeconfigFor, kubeconfigObjectFor } from '../../../../electron/engine/simcluster/server/kubeconfig.ts';
import { createCertificates } from '../../../../electron/engine/simcluster/server/tls.ts';

describe('createCertificates', () => {
  it('issues a serving certificate for 127.0.0.1, ::1 and localhost from a fresh CA', async () => {
    const now = Date.parse('2025-06-01T12:00:00Z');
    const { caPem, certPem, keyPem } = await createCertificates({ now: () => now });
    const ca = new X509Certificate(caPem);
    const cert = new X509Certificate(certPem);
    expect(ca.ca).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    expect(cert.checkIssued(ca)).toBe(true);
    expect(cert.verify(ca.publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(keyPem))).toBe(true);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(Date.parse(cert.validFrom)).toBeLessThanOrEqual(now);
    expect(Date.parse(cert.validTo)).toBeGreaterThan(now + 300 * 86_400_000);
    const other = await createCertificates();
    expect(other.caPem).not.toBe(caPem);
  });
});

describe('kubeconfigFor', () => {
  it('embeds the CA and token for an HTTPS server under the kubedrift-demo context', () => {
    const config = parse(kubeconfigFor({ server: 'https://127.0.0.1:6443', caPem: 'PEM', token: 't0k', namespace: 'shop' }));
    expect(config).toEqual({
      apiVersion: 'v1',
      kind: 'Config',
      preferences: {},
      clusters: [{ name: 'kubedrift-demo', cluster: { server: 'https://127.0.0.1:6443', 'certificate-authority-data': Buffer.from('PEM').toString('base64') } }],
      users: [{ name: 'kubedrift-demo', user: { token: 't0k' } }],
      contexts: [{ name: 'kubedrift-demo', context: { cluster: 'kubedrift-demo', user: 'kubedrift-demo', namespace: 'shop' } }],
      'current-context': 'kubedrift-demo',
    });
  });

  it('marks plain HTTP servers insecure-skip-tls-verify, which client-node requires', () => {
    const config = kubeconfigObjectFor({ server: 'http://127.0.0.1:8080', contextName: 'sim' });
    expect(config.clusters[0]?.cluster).toEqual({ server: 'http://127.0.0.1:8080', 'insecure-skip-tls-verify': true });
    expect(config['current-context']).toBe('sim');
    expect(config.users[0]?.user).toEqual({});
  });
});
