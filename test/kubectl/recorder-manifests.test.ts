/**
 * The in-cluster recorder's manifests (deploy/recorder/) pass the real kubectl's server-side dry
 * run against the simulated cluster, ask only for read access, run one replica with the Recreate
 * strategy, and pass the recorder flags the `kubedrift record` command accepts. The serving
 * variant (deploy/recorder-listen/, a kustomization over them) adds `--listen` behind a token from
 * a Secret and a ClusterIP Service; its placeholder token is one the recorder refuses.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { kubectlMissing } from './kubectl.ts';
import { useKubectlTest, type KubectlSession } from './session.ts';

const DIR = fileURLToPath(new URL('../../deploy/recorder/', import.meta.url));
const NAMESPACE = `${DIR}namespace.yaml`;
const RECORDER = `${DIR}recorder.yaml`;
const LISTEN = fileURLToPath(new URL('../../deploy/recorder-listen/', import.meta.url));
const TOKEN_SECRET = `${LISTEN}token-secret.yaml`;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const documents = (): Json[] => parseAllDocuments(readFileSync(RECORDER, 'utf8')).map((doc) => doc.toJSON() as Json);
const byKind = (kind: string): Json => documents().find((doc) => doc['kind'] === kind) as Json;

describe('the recorder manifests', () => {
  it('grant only get, list and watch, on the kinds history reads', () => {
    const rules = byKind('ClusterRole')['rules'] as Array<{ apiGroups: string[]; resources: string[]; verbs: string[] }>;
    for (const rule of rules) expect(rule.verbs).toEqual(['get', 'list', 'watch']);
    const resources = rules.flatMap((rule) => rule.resources.map((resource) => `${resource}${rule.apiGroups[0] ? `.${rule.apiGroups[0]}` : ''}`));
    expect(resources.sort()).toEqual(['daemonsets.apps', 'deployments.apps', 'events', 'horizontalpodautoscalers.autoscaling', 'jobs.batch', 'nodes', 'pods', 'replicasets.apps', 'statefulsets.apps']);
  });

  it('run one replica with the Recreate strategy, history on the claim, both probes on the health port', () => {
    const deployment = byKind('Deployment');
    expect(deployment['spec']).toMatchObject({ replicas: 1, strategy: { type: 'Recreate' } });
    const pod = deployment['spec']['template']['spec'] as Json;
    expect(pod['volumes']).toContainEqual({ name: 'history', persistentVolumeClaim: { claimName: byKind('PersistentVolumeClaim')['metadata']['name'] } });
    const container = pod['containers'][0] as Json;
    expect(container['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'health' });
    expect(container['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'health' });
    expect(container['args']).toEqual(expect.arrayContaining(['--health-port=8080', '--retention-days=14', '--max-size=4Gi']));
  });

  it('pass flags kubedrift record accepts (outside a pod it stops at once, saying why)', async () => {
    const args = byKind('Deployment')['spec']['template']['spec']['containers'][0]['args'] as string[];
    const { code, stderr } = await runCli(['record', ...args], { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '' });
    expect(stderr).toMatch(/--in-cluster: KUBERNETES_SERVICE_HOST\/PORT are not set; this is not running in a pod/);
    expect(code).toBe(1);
  }, 30_000);

  it('build the image from node:22-slim and run it as a non-root user', () => {
    const containerfile = readFileSync(`${DIR}Containerfile`, 'utf8');
    expect(containerfile).toMatch(/^FROM node:22-slim$/m);
    expect(containerfile).toMatch(/^USER node$/m);
    expect(containerfile).toMatch(/^ENTRYPOINT \["node", "electron\/bin\/kubedrift\.mjs", "record"\]$/m);
  });
});

describe.skipIf(kubectlMissing !== undefined)(`the real kubectl accepts the recorder manifests${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  let k: KubectlSession;
  useKubectlTest(32, undefined, (state) => {
    k = state.k;
  });

  it('applies them in a server-side dry run', async () => {
    const namespace = await k.run(['apply', '-f', NAMESPACE]);
    expect([namespace.code, namespace.stderr]).toEqual([0, '']);
    const dry = await k.run(['apply', '--dry-run=server', '-f', RECORDER]);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout.trim().split('\n')).toEqual([
      'serviceaccount/kubedrift-recorder created (server dry run)',
      'clusterrole.rbac.authorization.k8s.io/kubedrift-recorder created (server dry run)',
      'clusterrolebinding.rbac.authorization.k8s.io/kubedrift-recorder created (server dry run)',
      'persistentvolumeclaim/kubedrift-history created (server dry run)',
      'deployment.apps/kubedrift-recorder created (server dry run)',
    ]);
    // A dry run stores nothing.
    const get = await k.run(['get', 'deployment', 'kubedrift-recorder', '-n', 'kubedrift']);
    expect(get.code).toBe(1);
    expect(get.stderr).toMatch(/deployments\.apps "kubedrift-recorder" not found/);
  }, 60_000);

  it('serves history with deploy/recorder-listen: the flags, the port, the token Secret as a file, a Service, probes unchanged', async () => {
    const rendered = await k.run(['kustomize', LISTEN]);
    expect([rendered.code, rendered.stderr]).toEqual([0, '']);
    const docs = parseAllDocuments(rendered.stdout).map((doc) => doc.toJSON() as Json);
    const deployment = docs.find((doc) => doc['kind'] === 'Deployment') as Json;
    const service = docs.find((doc) => doc['kind'] === 'Service') as Json;
    // The Secret is left out: applying again must not put the placeholder back over a real token.
    expect(docs.some((doc) => doc['kind'] === 'Secret')).toBe(false);
    const pod = deployment['spec']['template']['spec'] as Json;
    const container = pod['containers'][0] as Json;
    expect(container['args']).toEqual(expect.arrayContaining(['--listen=0.0.0.0:7443', '--token-file=/etc/kubedrift/token', '--health-port=8080']));
    expect(container['ports']).toEqual([{ name: 'health', containerPort: 8080 }, { name: 'history', containerPort: 7443 }]);
    expect(container['livenessProbe']['httpGet']).toEqual({ path: '/healthz', port: 'health' });
    expect(container['readinessProbe']['httpGet']).toEqual({ path: '/readyz', port: 'health' });
    const secret = parseAllDocuments(readFileSync(TOKEN_SECRET, 'utf8'))[0]?.toJSON() as Json;
    expect(container['volumeMounts']).toContainEqual({ name: 'token', mountPath: path.dirname('/etc/kubedrift/token'), readOnly: true });
    // Readable by the recorder's user through the pod's fsGroup.
    expect(pod['volumes']).toContainEqual({ name: 'token', secret: { secretName: secret['metadata']['name'], defaultMode: 0o440 } });
    expect(pod['securityContext']['fsGroup']).toBe(pod['securityContext']['runAsGroup']);
    expect(Object.keys(secret['stringData'])).toEqual([path.basename('/etc/kubedrift/token')]);
    expect(service['spec']).toMatchObject({ type: 'ClusterIP', selector: deployment['spec']['template']['metadata']['labels'], ports: [{ name: 'history', port: 7443, targetPort: 'history', protocol: 'TCP' }] });
    expect(service['metadata']['namespace']).toBe(deployment['metadata']['namespace']);
  }, 60_000);

  it("ships a placeholder token the recorder refuses, and the flags take a real one", async () => {
    const placeholder = (parseAllDocuments(readFileSync(TOKEN_SECRET, 'utf8'))[0]?.toJSON() as Json)['stringData']['token'] as string;
    const rendered = await k.run(['kustomize', LISTEN]);
    const args = (parseAllDocuments(rendered.stdout).map((doc) => doc.toJSON() as Json).find((doc) => doc['kind'] === 'Deployment') as Json)['spec']['template']['spec']['containers'][0]['args'] as string[];
    const { dir, cleanup } = await withTempDir();
    try {
      const file = path.join(dir, 'token');
      const withFile = args.map((arg) => (arg.startsWith('--token-file=') ? `--token-file=${file}` : arg.startsWith('--listen=') ? '--listen=127.0.0.1:0' : arg));
      const env = { KUBERNETES_SERVICE_HOST: '', KUBERNETES_SERVICE_PORT: '', KUBEDRIFT_RECORDER_TOKEN: '' };
      await writeFile(file, `${placeholder}\n`);
      const refused = await runCli(['record', ...withFile], env);
      expect(refused.stderr).toMatch(/every token in --token-file .* must be at least 16 characters/);
      expect(refused.code).toBe(2);
      await writeFile(file, 'a-real-token-of-forty-characters-0123456\n');
      const taken = await runCli(['record', ...withFile], env);
      expect(taken.stderr).toMatch(/--in-cluster: KUBERNETES_SERVICE_HOST\/PORT are not set/);
      expect(taken.code).toBe(1);
    } finally {
      await cleanup();
    }
  }, 60_000);

  it('applies the serving variant: a dry run, then for real, with the Service given a cluster IP', async () => {
    const namespace = await k.run(['apply', '-f', NAMESPACE]);
    expect(namespace.code).toBe(0);
    const secret = await k.run(['apply', '--dry-run=server', '-f', TOKEN_SECRET]);
    expect([secret.code, secret.stdout, secret.stderr]).toEqual([0, 'secret/kubedrift-recorder-token created (server dry run)\n', '']);
    const dry = await k.run(['apply', '--dry-run=server', '-k', LISTEN]);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('service/kubedrift-recorder created (server dry run)');
    expect(dry.stdout).toContain('deployment.apps/kubedrift-recorder created (server dry run)');
    // For real: the token Secret first (here the placeholder; in a cluster, `kubectl create secret` as token-secret.yaml says).
    expect((await k.run(['apply', '-f', TOKEN_SECRET])).code).toBe(0);
    const applied = await k.run(['apply', '-k', LISTEN]);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    const service = await k.run(['get', 'service', 'kubedrift-recorder', '-n', 'kubedrift', '-o', 'json']);
    expect(service.code).toBe(0);
    const spec = (JSON.parse(service.stdout) as Json)['spec'] as Json;
    expect(spec['clusterIP']).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(spec['ports']).toEqual([expect.objectContaining({ name: 'history', port: 7443, targetPort: 'history' })]);
    const deployment = await k.run(['get', 'deployment', 'kubedrift-recorder', '-n', 'kubedrift', '-o', 'jsonpath={.spec.template.spec.containers[0].ports[*].name}']);
    expect(deployment.stdout).toBe('health history');
  }, 60_000);
});
