/**
 * RBAC in the simulated cluster, checked with the real kubectl: `auth can-i` (one question and
 * `--list`) answers for a user who may only view namespace `shop`, that user's 403s carry the
 * apiserver's message, and `kubectl create token` issues a ServiceAccount token that then works
 * exactly as far as the account's bindings reach.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { kubectl, kubectlMissing, type KubectlResult } from './kubectl.ts';
import { headerOf, MINORS, parseTable } from './session.ts';

const SCENARIO = fileURLToPath(new URL('../../electron/engine/simcluster/scenarios/kubectl-test.yaml', import.meta.url));
const DEV = 'kubedrift-demo-dev';

describe.skipIf(kubectlMissing !== undefined)(`real kubectl and the simulated cluster's RBAC${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster | undefined;
    let home = '';
    const run = (args: readonly string[]): Promise<KubectlResult> => kubectl(args, { kubeconfig: join(home, 'kubeconfig.yaml'), home });
    const asDev = (...args: string[]) => run(['--context', DEV, ...args]);

    beforeAll(async () => {
      cluster = await startSimCluster({
        scenario: SCENARIO,
        kubernetesMinor: minor,
        users: [{ name: 'dev', role: 'view', namespaces: ['shop'] }],
        onError: (message) => console.error(`[simcluster 1.${minor}] ${message}`),
      });
      home = await mkdtemp(join(tmpdir(), 'kubedrift-kubectl-rbac-'));
      await writeFile(join(home, 'kubeconfig.yaml'), cluster.kubeconfigWithUsers());
      const created = await run(['create', 'namespace', 'payments']);
      expect(created.stdout).toBe('namespace/payments created\n');
    });
    afterAll(async () => {
      await cluster?.stop();
      if (home) await rm(home, { recursive: true, force: true });
    });

    it.each([
      [['list', 'pods', '-n', 'shop'], 'yes'],
      [['watch', 'deployments.apps', '-n', 'shop'], 'yes'],
      [['get', 'configmaps', '-n', 'shop'], 'yes'],
      [['get', 'horizontalpodautoscalers', '-n', 'shop'], 'yes'],
      [['get', 'secrets', '-n', 'shop'], 'no'],
      [['create', 'deployments', '-n', 'shop'], 'no'],
      [['delete', 'pods', '-n', 'shop'], 'no'],
      [['list', 'pods', '-n', 'payments'], 'no'],
      [['list', 'pods', '--all-namespaces'], 'no'],
      [['list', 'nodes'], 'no'],
      [['create', 'selfsubjectrulesreviews'], 'yes'],
    ])('auth can-i %j answers %s for the shop viewer', async (args, answer) => {
      const res = await asDev('auth', 'can-i', ...args);
      expect([res.stdout, res.code]).toEqual([`${answer}\n`, answer === 'yes' ? 0 : 1]);
    });

    it('auth can-i --list -n shop lists the view role, the self reviews and discovery', async () => {
      const res = await asDev('auth', 'can-i', '--list', '-n', 'shop');
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(headerOf(res.stdout)).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
      const rows = parseTable(res.stdout).map((row) => `${row['Resources']} ${row['Non-Resource URLs']} ${row['Verbs']}`);
      expect(rows).toEqual(
        expect.arrayContaining([
          'selfsubjectaccessreviews.authorization.k8s.io [] [create]',
          'selfsubjectrulesreviews.authorization.k8s.io [] [create]',
          'pods [] [get list watch]',
          'deployments.apps [] [get list watch]',
          'deployments.apps/scale [] [get list watch]',
          'jobs.batch [] [get list watch]',
          ' [/api/*] [get]',
          ' [/version] [get]',
        ]),
      );
      expect(rows.filter((row) => row.startsWith('secrets'))).toEqual([]);
      const payments = await asDev('auth', 'can-i', '--list', '-n', 'payments');
      const resources = parseTable(payments.stdout).map((row) => row['Resources']).filter((r) => r !== '');
      expect(resources).toEqual(['selfsubjectreviews.authentication.k8s.io', 'selfsubjectaccessreviews.authorization.k8s.io', 'selfsubjectrulesreviews.authorization.k8s.io']);
    });

    it('the admin can ask as the user with --as', async () => {
      expect((await run(['--as', 'dev', 'auth', 'can-i', 'list', 'pods', '-n', 'shop'])).stdout).toBe('yes\n');
      const all = await run(['--as', 'dev', 'get', 'pods', '-A']);
      expect(all.stderr).toBe('Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope\n');
    });

    it('get pods -A is forbidden for the shop viewer with the apiserver\'s message; -n shop works', async () => {
      const all = await asDev('get', 'pods', '-A');
      expect([all.code, all.stdout, all.stderr]).toEqual([1, '', 'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" at the cluster scope\n']);
      const shop = await asDev('get', 'pods', '-n', 'shop');
      expect([shop.code, shop.stderr]).toEqual([0, '']);
      expect(headerOf(shop.stdout)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      const denied = await asDev('get', 'deployment', 'web', '-n', 'payments');
      expect(denied.stderr).toBe('Error from server (Forbidden): deployments.apps "web" is forbidden: User "dev" cannot get resource "deployments" in API group "apps" in the namespace "payments"\n');
    });

    it('get clusterroles and rolebindings print the RBAC tables', async () => {
      const roles = await run(['get', 'clusterroles']);
      expect(headerOf(roles.stdout)).toEqual(['NAME', 'CREATED AT']);
      expect(parseTable(roles.stdout).map((row) => row['NAME'])).toEqual(expect.arrayContaining(['admin', 'cluster-admin', 'edit', 'view', 'system:basic-user', 'system:discovery']));
      const bindings = await run(['get', 'rolebindings', '-n', 'shop', '-o', 'wide']);
      expect(headerOf(bindings.stdout)).toEqual(['NAME', 'ROLE', 'AGE', 'USERS', 'GROUPS', 'SERVICEACCOUNTS']);
      expect(parseTable(bindings.stdout).find((row) => row['NAME'] === 'dev-view')).toMatchObject({ ROLE: 'ClusterRole/view', USERS: 'dev' });
    });

    it('create token issues a ServiceAccount token that authenticates as the account and reaches as far as its bindings', async () => {
      expect((await run(['create', 'serviceaccount', 'bot', '-n', 'shop'])).stdout).toBe('serviceaccount/bot created\n');
      const token = await run(['create', 'token', 'bot', '-n', 'shop', '--duration', '15m']);
      expect([token.code, token.stderr]).toEqual([0, '']);
      const bearer = token.stdout.trim();
      expect(bearer.split('.')).toHaveLength(3);
      const before = await run(['--token', bearer, 'get', 'pods', '-n', 'shop']);
      expect(before.stderr).toBe('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:shop:bot" cannot list resource "pods" in API group "" in the namespace "shop"\n');
      expect((await run(['--token', bearer, 'auth', 'can-i', 'list', 'pods', '-n', 'shop'])).stdout).toBe('no\n');
      expect((await run(['create', 'rolebinding', 'bot-view', '--clusterrole', 'view', '--serviceaccount', 'shop:bot', '-n', 'shop'])).stdout).toBe('rolebinding.rbac.authorization.k8s.io/bot-view created\n');
      const after = await run(['--token', bearer, 'get', 'pods', '-n', 'shop']);
      expect([after.code, after.stderr]).toEqual([0, '']);
      expect((await run(['--token', bearer, 'auth', 'can-i', 'list', 'pods', '-n', 'payments'])).stdout).toBe('no\n');
      // The dev user (view) may not mint tokens.
      const devToken = await asDev('create', 'token', 'bot', '-n', 'shop');
      expect(devToken.stderr).toBe('error: failed to create token: serviceaccounts "bot" is forbidden: User "dev" cannot create resource "serviceaccounts/token" in API group "" in the namespace "shop"\n');
    });

    it('create role and rolebinding give a user exactly what the role says', async () => {
      expect((await run(['create', 'role', 'cm-reader', '--verb', 'get,list', '--resource', 'configmaps', '-n', 'payments'])).stdout).toBe('role.rbac.authorization.k8s.io/cm-reader created\n');
      expect((await run(['create', 'rolebinding', 'dev-cm', '--role', 'cm-reader', '--user', 'dev', '-n', 'payments'])).stdout).toBe('rolebinding.rbac.authorization.k8s.io/dev-cm created\n');
      expect((await asDev('auth', 'can-i', 'list', 'configmaps', '-n', 'payments')).stdout).toBe('yes\n');
      expect((await asDev('auth', 'can-i', 'watch', 'configmaps', '-n', 'payments')).stdout).toBe('no\n');
      expect((await asDev('auth', 'can-i', 'list', 'pods', '-n', 'payments')).stdout).toBe('no\n');
    });
  });
});
