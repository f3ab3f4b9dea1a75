/**
 * The promise the issue makes: no token, client key, password or Secret value ever ends up in an
 * export. A cluster full of Secrets and credential-bearing annotations is exported in every
 * format and scope, and every output (the snapshot unpacked, the YAML in both modes, the HTML
 * report) is searched for each secret value and for the kubeconfig's credentials.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTempDir } from '../../../helpers/tmp.ts';
import { decodeSnapshot } from '../../../../electron/engine/snapshot/file.ts';
import { LAST_APPLIED_ANNOTATION } from '../../../../electron/engine/cluster/informers/slim.ts';
import { exportBytes, startFixture, waitForKinds, type Fixture } from './engine-fixture.ts';

const PEM = '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA-PEM-SECRET-BODY\n-----END RSA PRIVATE KEY-----';
const JWT = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJKV1QtU0VDUkVUIn0.c2lnbmF0dXJlLVNFQ1JFVA';

/** Every value that must not appear in any output. */
const SECRETS = [
  'SECRET-DATA-PLAIN',
  Buffer.from('SECRET-DATA-PLAIN').toString('base64'),
  'STRINGDATA-SECRET',
  'ANNOT-DB-PASSWORD',
  'LAST-APPLIED-SECRET',
  'VAULT-TOKEN-VALUE',
  'URL-PASSWORD-VALUE',
  'TEMPLATE-API-KEY',
  'ENV-SECRET-VALUE',
  'ARGS-SECRET-VALUE',
  'SVC-AUTH-VALUE',
  'PEM-SECRET-BODY',
  JWT,
  'EVENT-PASSWORD-VALUE',
];

const SCENARIO = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata:
  name: secrets
  description: Secrets and credential-bearing annotations everywhere.
spec:
  speed: 20
  kubelet: { pullDelay: 100ms, startDelay: 100ms, readinessDelay: 100ms }
  nodes:
    - { name: node-1, cpu: "4", memory: 8Gi }
---
apiVersion: v1
kind: Namespace
metadata:
  name: vault
  annotations:
    example.com/ca-bundle-key: ${JSON.stringify(PEM)}
    example.com/notes: ${JSON.stringify(`signing key: ${PEM}`)}
---
apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: vault
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"LAST-APPLIED-SECRET"}}'
type: Opaque
data:
  password: ${Buffer.from('SECRET-DATA-PLAIN').toString('base64')}
stringData:
  token: STRINGDATA-SECRET
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  namespace: vault
  annotations:
    example.com/db-password: ANNOT-DB-PASSWORD
    vault.hashicorp.com/agent-inject-token: VAULT-TOKEN-VALUE
    example.com/dsn: postgres://admin:URL-PASSWORD-VALUE@db.vault:5432/app
    example.com/ci-identity: ${JWT}
    kubectl.kubernetes.io/last-applied-configuration: '{"metadata":{"annotations":{"p":"LAST-APPLIED-SECRET"}}}'
spec:
  replicas: 1
  selector: { matchLabels: { app: api } }
  template:
    metadata:
      labels: { app: api }
      annotations:
        team.example.com/api-key: TEMPLATE-API-KEY
    spec:
      containers:
        - name: api
          image: api:1.0
          args: ["--password=ARGS-SECRET-VALUE"]
          env:
            - { name: DB_PASSWORD, value: ENV-SECRET-VALUE }
---
apiVersion: v1
kind: Service
metadata:
  name: api
  namespace: vault
  annotations:
    proxy.example.com/auth: SVC-AUTH-VALUE
spec:
  selector: { app: api }
  ports: [{ port: 80 }]
---
apiVersion: v1
kind: Event
metadata:
  name: api.login
  namespace: vault
involvedObject: { kind: Deployment, name: api, namespace: vault }
reason: LoginFailed
message: "probe login failed: password=EVENT-PASSWORD-VALUE rejected"
type: Warning
source: { component: prober }
`;

let fixture: Fixture;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tmp = await withTempDir('kubedrift-secrets-');
  cleanup = tmp.cleanup;
  const scenario = path.join(tmp.dir, 'secrets.yaml');
  await writeFile(scenario, SCENARIO);
  fixture = await startFixture(tmp.dir, scenario);
  // Secrets are a discovered kind, watched once discovery found it: wait for the one above.
  await waitForKinds(fixture.engine, ['secrets']);
});

afterAll(async () => {
  await fixture?.stop();
  await cleanup?.();
});

function leaks(text: string, extra: readonly string[] = []): string[] {
  return [...SECRETS, ...extra].filter((secret) => text.includes(secret));
}

describe('exports never contain a secret', () => {
  it('holds the objects the secrets were attached to (so the test can fail)', async () => {
    const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'namespace', namespace: 'vault' }, at: null });
    const text = gunzipSync(bytes).toString('utf8');
    expect(text).toContain('"example.com/db-password"');
    expect(text).toContain('team.example.com/api-key');
    expect(text).toContain('LoginFailed');
    expect(text).toContain('db.vault:5432');
  });

  it('holds Secrets as metadata only, as the engine reads them, and its kind table says so', async () => {
    const { bytes } = await exportBytes(fixture.engine, { format: 'snapshot', scope: { type: 'namespace', namespace: 'vault' }, at: null });
    const file = await decodeSnapshot(bytes);
    const secret = file.objects.find((object) => object.kind === 'Secret' && object.metadata.name === 'db');
    expect(secret).toBeDefined();
    expect(Object.keys(secret ?? {}).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(secret?.metadata.annotations?.[LAST_APPLIED_ANNOTATION]).toBeUndefined();
    expect(file.kinds).toContainEqual({ apiVersion: 'v1', kind: 'Secret', key: 'secrets', plural: 'secrets', namespaced: true, custom: false, metadataOnly: true });
    // The YAML bundle has no Secret to apply: it would come back empty.
    const yaml = (await exportBytes(fixture.engine, { format: 'yaml', scope: { type: 'namespace', namespace: 'vault' }, at: null })).bytes.toString('utf8');
    expect(yaml).toMatch(/^# Left out: .*1 Secrets read as metadata only/m);
    expect(yaml).not.toMatch(/^kind: Secret$/m);
  });

  for (const scope of [{ type: 'cluster' }, { type: 'namespace', namespace: 'vault' }] as const) {
    it(`in the snapshot file, the YAML bundle and the HTML report (${scope.type})`, async () => {
      const config = JSON.stringify(fixture.cluster.kubeconfigObject());
      const tokens = [...config.matchAll(/"token":"([^"]+)"/g)].map((match) => match[1] as string);
      const keys = [...config.matchAll(/"client-key-data":"([^"]+)"/g)].map((match) => match[1] as string);
      const outputs: Array<[string, string]> = [];
      const snapshot = await exportBytes(fixture.engine, { format: 'snapshot', scope, at: null });
      outputs.push(['snapshot', gunzipSync(snapshot.bytes).toString('utf8')]);
      for (const keepStatus of [false, true]) {
        const yaml = await exportBytes(fixture.engine, { format: 'yaml', scope, at: null, keepStatus });
        outputs.push([`yaml keepStatus=${keepStatus}`, yaml.bytes.toString('utf8')]);
      }
      const html = await exportBytes(fixture.engine, { format: 'html', scope, at: null });
      outputs.push(['html', html.bytes.toString('utf8')]);
      for (const [name, text] of outputs) {
        expect(text.length, name).toBeGreaterThan(500);
        expect(leaks(text, [...tokens, ...keys]), name).toEqual([]);
      }
    });
  }
});
