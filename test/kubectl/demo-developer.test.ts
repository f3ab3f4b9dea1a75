/**
 * The demo's developer as the real kubectl sees it (both kubectl builds): the kubedrift-demo-dev
 * kubeconfig's context namespace is shop, `auth can-i` says dev may list and watch namespaces and
 * read shop and payments but nothing in platform, and `get namespaces` lists them while
 * `get pods -n platform` carries the apiserver's 403 message.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { startDemoWithDeveloper } from '../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { kubectl, kubectlMissing, type KubectlResult } from './kubectl.ts';
import { MINORS, parseTable } from './session.ts';

const DEV = 'kubedrift-demo-dev';

describe.skipIf(kubectlMissing !== undefined)(`real kubectl and the demo's developer${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster | undefined;
    let home = '';
    const asDev = (...args: string[]): Promise<KubectlResult> => kubectl(args, { kubeconfig: join(home, 'kubeconfig.yaml'), home });

    beforeAll(async () => {
      cluster = await startDemoWithDeveloper({ controllers: false, kubernetesMinor: minor, onError: (message) => console.error(`[simcluster 1.${minor}] ${message}`) });
      home = await mkdtemp(join(tmpdir(), 'kubedrift-kubectl-demo-dev-'));
      await writeFile(join(home, 'kubeconfig.yaml'), stringify(cluster.userKubeconfigObject('dev', DEV)));
    });
    afterAll(async () => {
      await cluster?.stop();
      if (home) await rm(home, { recursive: true, force: true });
    });

    it.each([
      [['list', 'namespaces'], 'yes'],
      [['watch', 'namespaces'], 'yes'],
      [['delete', 'namespaces'], 'no'],
      [['list', 'pods'], 'yes'],
      [['list', 'pods', '-n', 'payments'], 'yes'],
      [['list', 'pods', '-n', 'platform'], 'no'],
      [['list', 'pods', '--all-namespaces'], 'no'],
      [['list', 'nodes'], 'no'],
    ])('auth can-i %j answers %s for dev', async (args, answer) => {
      const res = await asDev('auth', 'can-i', ...args);
      expect([res.stdout, res.code]).toEqual([`${answer}\n`, answer === 'yes' ? 0 : 1]);
    });

    it('lists the namespaces, reads its context namespace shop, and gets the 403 in platform', async () => {
      const namespaces = await asDev('get', 'namespaces');
      expect(namespaces.code).toBe(0);
      expect(parseTable(namespaces.stdout).map((row) => row['NAME'])).toEqual(expect.arrayContaining(['shop', 'payments', 'platform']));
      const here = await asDev('get', 'deployments');
      expect([here.code, here.stderr]).toEqual([0, '']);
      expect(parseTable(here.stdout).length).toBeGreaterThan(0);
      const platform = await asDev('get', 'pods', '-n', 'platform');
      expect([platform.code, platform.stderr]).toEqual([1, 'Error from server (Forbidden): pods is forbidden: User "dev" cannot list resource "pods" in API group "" in the namespace "platform"\n']);
    });
  });
});
