import { describe, expect, it } from 'vitest';
import { isCredentialAnnotation, redactObject, redactText, REDACTED } from '../../../../electron/engine/snapshot/redact.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';

describe('redaction', () => {
  it('recognises credential annotations by the words of their name', () => {
    for (const name of ['example.com/db-password', 'vault.hashicorp.com/agent-inject-token', 'x/api-key', 'x/apiKey', 'x/client_secret', 'kubectl.kubernetes.io/last-applied-configuration', 'x/auth'])
      expect(isCredentialAnnotation(name), name).toBe(true);
    for (const name of ['deployment.kubernetes.io/revision', 'checksum/config', 'prometheus.io/scrape', 'kubernetes.io/service-account.name', 'example.com/monkey', 'x/author'])
      expect(isCredentialAnnotation(name), name).toBe(false);
  });

  it('replaces credential-shaped text where it stands and leaves ordinary text alone', () => {
    expect(redactText('postgres://admin:pw123@db:5432/app')).toBe(`postgres://admin:${REDACTED}@db:5432/app`);
    expect(redactText('login failed: password=abc123 rejected')).toBe(`login failed: password=${REDACTED} rejected`);
    expect(redactText('Authorization: Bearer abcdefghijklmnop')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactText('key AKIAABCDEFGHIJKLMNOP')).toBe(`key ${REDACTED}`);
    for (const text of ['nginx:1.27.2', 'Scaled up replica set web-5d8f to 3', 'sha256:0123456789abcdef0123456789abcdef', 'https://prod.example.com:6443', 'Back-off pulling image "registry.io/app:v2"'])
      expect(redactText(text)).toBe(text);
  });

  it('drops the last-applied annotation and Secret data, everywhere in the object', () => {
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { uid: 'u', name: 's', resourceVersion: '1', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
      data: { password: 'cHc=' },
      stringData: { token: 't' },
    } as unknown as SlimObject;
    const out = redactObject(secret) as unknown as Record<string, unknown>;
    expect(out).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { uid: 'u', name: 's', resourceVersion: '1' } });
    const template = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { uid: 'd', name: 'd', resourceVersion: '1' }, spec: { template: { metadata: { annotations: { 'x/token': 'abc', keep: 'me' } } } } } as unknown as SlimObject;
    expect((redactObject(template) as unknown as { spec: unknown }).spec).toEqual({ template: { metadata: { annotations: { 'x/token': REDACTED, keep: 'me' } } } });
    expect(template).toMatchObject({ spec: { template: { metadata: { annotations: { 'x/token': 'abc' } } } } });
  });
});
