/**
 * The real kubectl reads the simulated cluster as it reads a real one: the build matching the
 * reported version is picked, `get` prints the server's Tables, events carry the controllers'
 * reasons, errors are the apiserver's Status messages, and `explain` finds its OpenAPI schemas.
 */
import { describe, expect, it } from 'vitest';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { kubectlMissing } from './kubectl.ts';
import { eventually, headerOf, MINORS, parseTable, useKubectlTest, type KubectlSession } from './session.ts';

describe.skipIf(kubectlMissing !== undefined)(`real kubectl reads the simulated cluster${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster;
    let k: KubectlSession;
    useKubectlTest(minor, undefined, (state) => ({ cluster, k } = state));

    it('is the build the server version selects', async () => {
      const res = await k.run(['version', '-o', 'json']);
      expect(res.code).toBe(0);
      const versions = JSON.parse(res.stdout) as { clientVersion: { minor: string }; serverVersion: { minor: string; gitVersion: string } };
      expect(versions.serverVersion).toMatchObject({ minor: String(minor), gitVersion: cluster.version });
      // The 1.32 build is the dispatcher itself and reports "32+".
      expect(versions.clientVersion.minor).toMatch(new RegExp(`^${minor}\\+?$`));
    });

    it('get nodes prints the node table', async () => {
      const res = await k.run(['get', 'nodes']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(headerOf(res.stdout)).toEqual(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
      expect(parseTable(res.stdout).map((row) => [row['NAME'], row['STATUS'], row['ROLES'], row['VERSION']])).toEqual([
        ['worker-1', 'Ready', '<none>', cluster.version],
        ['worker-2', 'Ready', '<none>', cluster.version],
      ]);
    });

    it('get deploy and get pods -A print the workload tables once the Deployment is rolled out', async () => {
      let last = '';
      const deployments = await eventually(
        async () => {
          const res = await k.run(['get', 'deploy', '-n', 'shop']);
          last = res.stdout + res.stderr;
          return res.code === 0 && parseTable(res.stdout)[0]?.['READY'] === '2/2' ? res.stdout : undefined;
        },
        { what: 'shop/cart to be 2/2 ready', last: () => last },
      );
      expect(headerOf(deployments)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
      expect(parseTable(deployments).map((row) => [row['NAME'], row['READY'], row['UP-TO-DATE'], row['AVAILABLE']])).toEqual([['cart', '2/2', '2', '2']]);
      expect(parseTable(deployments)[0]?.['AGE']).toMatch(/^\d+(s|m)$/);

      const pods = await k.run(['get', 'pods', '-A']);
      expect([pods.code, pods.stderr]).toEqual([0, '']);
      expect(headerOf(pods.stdout)).toEqual(['NAMESPACE', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
      const rows = parseTable(pods.stdout);
      expect(rows).toHaveLength(2);
      for (const row of rows) {
        expect(row).toMatchObject({ NAMESPACE: 'shop', READY: '1/1', STATUS: 'Running', RESTARTS: '0' });
        expect(row['NAME']).toMatch(/^cart-[a-z0-9]{8,10}-[a-z0-9]{5}$/);
      }

      const wide = await k.run(['get', 'pods', '-n', 'shop', '-o', 'wide']);
      expect(headerOf(wide.stdout)).toEqual(['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']);
      expect(parseTable(wide.stdout).map((row) => row['NODE']).sort()).toEqual(['worker-1', 'worker-2']);
    });

    it('get events shows what the controllers and the kubelet did', async () => {
      const wanted = ['ScalingReplicaSet', 'SuccessfulCreate', 'Scheduled', 'Pulling', 'Pulled', 'Created', 'Started'];
      let last = '';
      const stdout = await eventually(
        async () => {
          const res = await k.run(['get', 'events', '-n', 'shop']);
          last = res.stdout + res.stderr;
          const reasons = new Set(parseTable(res.stdout).map((row) => row['REASON']));
          return res.code === 0 && wanted.every((reason) => reasons.has(reason)) ? res.stdout : undefined;
        },
        { what: `events ${wanted.join(', ')}`, last: () => last },
      );
      expect(headerOf(stdout)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
      const rows = parseTable(stdout);
      const scaled = rows.find((row) => row['REASON'] === 'ScalingReplicaSet');
      expect(scaled).toMatchObject({ TYPE: 'Normal', OBJECT: 'deployment/cart' });
      // 1.27's deployment-controller says "to 2"; later ones "from 0 to 2".
      expect(scaled?.['MESSAGE']).toMatch(minor >= 29 ? /^Scaled up replica set cart-[a-z0-9]+ from 0 to 2$/ : /^Scaled up replica set cart-[a-z0-9]+ to 2$/);
      expect(rows.filter((row) => row['REASON'] === 'SuccessfulCreate').map((row) => row['MESSAGE'])).toEqual(
        expect.arrayContaining([expect.stringMatching(/^Created pod: cart-[a-z0-9]+-[a-z0-9]{5}$/)]),
      );
      expect(rows.find((row) => row['REASON'] === 'Scheduled')?.['MESSAGE']).toMatch(/^Successfully assigned shop\/cart-[a-z0-9]+-[a-z0-9]{5} to worker-[12]$/);
      expect(rows.find((row) => row['REASON'] === 'Started')?.['MESSAGE']).toBe('Started container cart');
      // Event names carry the time they were recorded, so each pod's events list in the order they happened.
      const pods = [...new Set(rows.map((row) => row['OBJECT'] ?? '').filter((object) => object.startsWith('pod/')))];
      expect(pods).toHaveLength(2);
      for (const pod of pods) {
        expect(rows.filter((row) => row['OBJECT'] === pod).map((row) => row['REASON'])).toEqual(['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']);
      }

      const bySource = await k.run(['get', 'events', '-n', 'shop', '--field-selector', 'reason=Scheduled', '-o', 'jsonpath={.items[*].source.component}']);
      expect(bySource.code).toBe(0);
      expect(new Set(bySource.stdout.split(' '))).toEqual(new Set(['default-scheduler']));
    });

    it('get of a missing object prints the NotFound Status and exits 1', async () => {
      const res = await k.run(['get', 'deploy', 'nope', '-n', 'shop']);
      expect(res).toEqual({ code: 1, stdout: '', stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n' });
      const ns = await k.run(['get', 'pods', '-n', 'no-such-namespace']);
      expect([ns.code, ns.stdout, ns.stderr]).toEqual([0, '', 'No resources found in no-such-namespace namespace.\n']);
    });

    it('explain deployment.spec prints the schema fields with their descriptions', async () => {
      const res = await k.run(['explain', 'deployment.spec']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(res.stdout).toMatch(/^GROUP:\s+apps\nKIND:\s+Deployment\nVERSION:\s+v1\n/);
      expect(res.stdout).toMatch(/FIELD: spec <DeploymentSpec>/);
      expect(res.stdout).toMatch(/\nFIELDS:\n/);
      expect(res.stdout).toMatch(/\n {2}replicas\t<integer>\n {4}Number of desired pods\./);
      expect(res.stdout).toMatch(/\n {2}selector\t<LabelSelector> -required-\n {4}Label selector for pods\./);
      expect(res.stdout).toMatch(/\n {2}template\t<PodTemplateSpec> -required-\n/);
      expect(res.stdout).toMatch(/\n {2}strategy\t<DeploymentStrategy>\n {4}The deployment strategy to use to replace existing pods with new ones\./);
    });

    it('explain pod.spec.containers prints the container fields', async () => {
      const res = await k.run(['explain', 'pod.spec.containers']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(res.stdout).toMatch(/^KIND:\s+Pod\nVERSION:\s+v1\n/);
      expect(res.stdout).toMatch(/FIELD: containers <\[\]Container>/);
      expect(res.stdout).toMatch(/\n {2}image\t<string>\n {4}Container image name\./);
      expect(res.stdout).toMatch(/\n {2}name\t<string> -required-\n {4}Name of the container specified as a DNS_LABEL\./);
      expect(res.stdout).toMatch(/\n {2}ports\t<\[\]ContainerPort>\n/);
      expect(res.stdout).toMatch(/\n {2}imagePullPolicy\t<string>\n/);
    });
  });
});
