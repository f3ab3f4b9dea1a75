/**
 * Kubernetes protobuf bodies captured from kubectl 1.32 (`kubectl create ...`), decoded and
 * compared with what the same kubectl prints for `--dry-run=client -o json`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf, isKubernetesProtobuf } from '../../../../electron/engine/simcluster/server/protobuf.ts';
import { call, startTestCluster, type TestCluster } from './helpers.ts';

/** kubectl create deployment web --image=nginx:1.27 --replicas=0 --port=80 -- sleep 10 */
const DEPLOYMENT = 'azhzAAoVCgdhcHBzL3YxEgpEZXBsb3ltZW50EsgBCh8KA3dlYhIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViEpYBCAASDAoKCgNhcHASA3dlYhp8ChwKABIAGgAiACoAMgA4AEIAWgoKA2FwcBIDd2ViElwSPgoFbmdpbngSCm5naW54OjEuMjcaBXNsZWVwGgIxMCoAMgoKABAAGFAiACoAQgBqAHIAgAEAiAEAkAEAogEAGgAyAEIASgBSAFgAYABoAIIBAIoBAJoBAMIBACICCgAoADgAGgwIABAAGAAgACgAOAAaACIA';
/** kubectl create service nodeport np --tcp=80:8080 */
const SERVICE = 'azhzAAoNCgJ2MRIHU2VydmljZRJlCh0KAm5wEgAaACIAKgAyADgAQgBaCQoDYXBwEgJucBJAChsKBzgwLTgwODASA1RDUBhQIgcIABCQPxoAKAASCQoDYXBwEgJucBoAIghOb2RlUG9ydDoAQgBSAFoAYABoABoCCgAaACIA';
/** kubectl create secret generic s1 --from-literal=pw=hunter2 */
const SECRET = 'azhzAAoMCgJ2MRIGU2VjcmV0EiUKEgoCczESABoAIgAqADIAOABCABINCgJwdxIHaHVudGVyMhoAGgAiAA==';

const bytes = (base64: string): Buffer => Buffer.from(base64, 'base64');

let cluster: TestCluster | undefined;
afterEach(async () => {
  await cluster?.server.close();
  cluster = undefined;
});

describe('decodeKubernetesProtobuf', () => {
  it('decodes a Deployment exactly as kubectl renders it in JSON', () => {
    expect(decodeKubernetesProtobuf(bytes(DEPLOYMENT))).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { name: 'web', creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { creationTimestamp: null, labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', command: ['sleep', '10'], ports: [{ containerPort: 80 }], resources: {} }] },
        },
        strategy: {},
      },
      status: {},
    });
  });

  it('decodes int-or-string ports and byte maps', () => {
    expect(decodeKubernetesProtobuf(bytes(SERVICE))).toEqual({
      kind: 'Service',
      apiVersion: 'v1',
      metadata: { name: 'np', creationTimestamp: null, labels: { app: 'np' } },
      spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'np' }, type: 'NodePort' },
      status: { loadBalancer: {} },
    });
    expect(decodeKubernetesProtobuf(bytes(SECRET))).toEqual({ kind: 'Secret', apiVersion: 'v1', metadata: { name: 's1', creationTimestamp: null }, data: { pw: 'aHVudGVyMg==' } });
  });

  it('refuses bodies it cannot decode with 415 instead of losing fields', () => {
    expect(isKubernetesProtobuf(bytes(SECRET))).toBe(true);
    expect(() => decodeKubernetesProtobuf(Buffer.from('{}'))).toThrow(expect.objectContaining({ code: 415 }));
    const field = (n: number, value: Buffer): Buffer => Buffer.concat([Buffer.from([(n << 3) | 2, value.length]), value]);
    const text = (value: string): Buffer => Buffer.from(value);
    const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
      Buffer.concat([Buffer.from('k8s\0'), field(1, Buffer.concat([field(1, text(apiVersion)), field(2, text(kind))])), field(2, raw)]);
    const metadata = field(1, field(1, text('s1')));
    expect(decodeKubernetesProtobuf(envelope('v1', 'Secret', metadata))).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    // Zero values of fields it does not know are what upstream writes for unset non-pointer fields.
    expect(decodeKubernetesProtobuf(envelope('v1', 'Secret', Buffer.concat([metadata, Buffer.from([0x48, 0x00])])))).toEqual({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } });
    expect(() => decodeKubernetesProtobuf(envelope('v1', 'Secret', Buffer.concat([metadata, Buffer.from([0x48, 0x01])])))).toThrow(/field 9 of Secret is not supported/);
    expect(() => decodeKubernetesProtobuf(envelope('v1', 'Endpoints', metadata))).toThrow(/Endpoints in version "v1" is not supported/);
  });
});

describe('protobuf request bodies over HTTP', () => {
  it('creates objects that kubectl 1.32+ sends as protobuf', async () => {
    cluster = await startTestCluster();
    const { server } = cluster;
    const res = await call(server, 'POST', '/apis/apps/v1/namespaces/default/deployments?fieldManager=kubectl-create&fieldValidation=Strict', {
      body: bytes(DEPLOYMENT),
      headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf,application/json' },
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json).toMatchObject({ kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 0 } });
  });
});
