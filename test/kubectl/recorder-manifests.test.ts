/**
 * The in-cluster recorder's manifests (deploy/recorder/) pass the real kubectl's server-side dry
 * run against the simulated cluster, ask only for read access, run one replica with the Recreate
 * strategy, and pass the recorder flags the `kubedrift record` command accepts.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli } from '../helpers/cli.ts';
import { kubectlMissing } from './kubectl.ts';
import { useKubectlTest, type KubectlSession } from './session.ts';

const DIR = fileURLToPath(new URL('../../deploy/recorder/', import.meta.url));
const NAMESPACE = `${DIR}namespace.yaml`;
const RECORDER = `${DIR}recorder.yaml`;

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
});
