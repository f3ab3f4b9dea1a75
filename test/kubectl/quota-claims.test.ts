/**
 * The real kubectl against the simulated ResourceQuota and PersistentVolumeClaim: `create quota`
 * is stored and its usage kept current, a `create deployment` past the quota leaves the
 * ReplicaSet's FailedCreate Event with the admission plugin's words, and a claim of an unknown
 * StorageClass stays Pending with the PV controller's ProvisioningFailed Event.
 */
import { describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import { eventually, MINORS, parseTable, useKubectlTest, type KubectlSession } from './session.ts';

describe.skipIf(kubectlMissing !== undefined)(`real kubectl with quotas and claims${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'quota', (state) => ({ k, ns } = state));

    it('create quota, then a deployment past it: FailedCreate with "exceeded quota"', async () => {
      const quota = await k.run(['create', 'quota', 'compute', '--hard=pods=2', '-n', ns]);
      expect([quota.code, quota.stdout, quota.stderr]).toEqual([0, 'resourcequota/compute created\n', '']);
      const created = await k.run(['create', 'deployment', 'web', '--image=nginx:1.27.2', '--replicas=3', '-n', ns]);
      expect(created.code, created.stderr).toBe(0);
      let last = '';
      const message = await eventually(
        async () => {
          const res = await k.run(['get', 'events', '-n', ns, '--field-selector', 'reason=FailedCreate', '-o', 'jsonpath={.items[0].message}']);
          last = res.stdout + res.stderr;
          return res.stdout === '' ? undefined : res.stdout;
        },
        { what: 'a FailedCreate event', last: () => last },
      );
      expect(message).toMatch(/^Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2$/);
      const used = await eventually(
        async () => {
          const res = await k.run(['get', 'quota', 'compute', '-n', ns, '-o', 'jsonpath={.status.used.pods}']);
          return res.stdout === '2' ? res.stdout : undefined;
        },
        { what: 'the quota to count 2 pods' },
      );
      expect(used).toBe('2');
      const table = await k.run(['get', 'quota', '-n', ns]);
      expect(parseTable(table.stdout)).toEqual([{ NAME: 'compute', AGE: expect.stringMatching(/^\d+s$/), REQUEST: 'pods: 2/2', LIMIT: '' }]);
    });

    it('a claim of an unknown StorageClass stays Pending with ProvisioningFailed', async () => {
      const manifest = `apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: uploads\nspec:\n  storageClassName: fast\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n`;
      const applied = await k.run(['apply', '-n', ns, '-f', '-'], manifest);
      expect([applied.code, applied.stdout, applied.stderr]).toEqual([0, 'persistentvolumeclaim/uploads created\n', '']);
      const message = await eventually(
        async () => {
          const res = await k.run(['get', 'events', '-n', ns, '--field-selector', 'reason=ProvisioningFailed', '-o', 'jsonpath={.items[0].message}']);
          return res.stdout === '' ? undefined : res.stdout;
        },
        { what: 'a ProvisioningFailed event' },
      );
      expect(message).toBe('storageclass.storage.k8s.io "fast" not found');
      const got = await k.run(['get', 'pvc', 'uploads', '-n', ns, '-o', 'jsonpath={.status.phase}']);
      expect([got.code, got.stdout]).toEqual([0, 'Pending']);
      expect(parseTable((await k.run(['get', 'pvc', '-n', ns])).stdout)[0]).toMatchObject({ NAME: 'uploads' });
    });
  });
});
