/**
 * The real kubectl writes to the simulated cluster as to a real one: client-side `apply`
 * (created / unchanged / configured), `apply --server-side` and its server dry run, `diff`
 * (exit 0 when equal, 1 with a unified diff otherwise), dry-run `create` printing a defaulted
 * object that is not stored, and the `create` generators.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { kubectlMissing } from './kubectl.ts';
import { eventually, MINORS, parseTable, uniqueNamespace, useKubectlTest, type KubectlSession } from './session.ts';

/** A Deployment manifest as a user writes it: no defaults. */
function webManifest(image: string): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: nginx
          image: ${image}
          ports:
            - containerPort: 80
`;
}

describe.skipIf(kubectlMissing !== undefined)(`real kubectl writes to the simulated cluster${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'apply', (state) => ({ k, ns } = state));

    const image = async () => (await k.run(['get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.template.spec.containers[0].image}'])).stdout;

    it('apply -f creates, then leaves unchanged, then configures after an edit', async () => {
      const first = await k.run(['apply', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      expect([first.code, first.stdout, first.stderr]).toEqual([0, 'deployment.apps/web created\n', '']);
      const again = await k.run(['apply', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      expect([again.code, again.stdout, again.stderr]).toEqual([0, 'deployment.apps/web unchanged\n', '']);
      const edited = await k.run(['apply', '-n', ns, '-f', '-'], webManifest('nginx:1.27.3'));
      expect([edited.code, edited.stdout, edited.stderr]).toEqual([0, 'deployment.apps/web configured\n', '']);
      expect(await image()).toBe('nginx:1.27.3');

      const live = parse((await k.run(['get', 'deploy', 'web', '-n', ns, '-o', 'yaml'])).stdout) as { metadata: { generation: number; annotations: Record<string, string> } };
      expect(live.metadata.generation).toBe(2);
      expect(JSON.parse(live.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '{}')).toMatchObject({
        metadata: { name: 'web', namespace: ns },
        spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx:1.27.3' }] } } },
      });
    });

    it('diff exits 0 when nothing differs and 1 with a unified diff of the changed image', async () => {
      const missing = await k.run(['diff', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      expect(missing.code).toBe(1);
      expect(missing.stdout).toMatch(/^\+ {2}name: web$/m);

      await k.run(['apply', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      const same = await k.run(['diff', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);

      const changed = await k.run(['diff', '-n', ns, '-f', '-'], webManifest('nginx:1.28.0'));
      expect([changed.code, changed.stderr]).toEqual([1, '']);
      expect(changed.stdout).toMatch(new RegExp(`^diff -u -N \\S+/LIVE-\\d+/apps\\.v1\\.Deployment\\.${ns}\\.web \\S+/MERGED-\\d+/apps\\.v1\\.Deployment\\.${ns}\\.web\\n`));
      expect(changed.stdout).toMatch(/^--- \S+LIVE-/m);
      expect(changed.stdout).toMatch(/^\+\+\+ \S+MERGED-/m);
      expect(changed.stdout).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@/m);
      const changedLines = changed.stdout.split('\n').filter((line) => /^[-+] /.test(line));
      // Exactly what a real apiserver's dry run changes: the image and the generation it bumps.
      expect(changedLines).toEqual(['-  generation: 1', '+  generation: 2', '-      - image: nginx:1.27.2', '+      - image: nginx:1.28.0']);
      expect(await image()).toBe('nginx:1.27.2');
    });

    it('apply --server-side creates and updates; --dry-run=server answers without storing', async () => {
      const created = await k.run(['apply', '--server-side', '-n', ns, '-f', '-'], webManifest('nginx:1.27.2'));
      expect([created.code, created.stdout, created.stderr]).toEqual([0, 'deployment.apps/web serverside-applied\n', '']);
      const managers = await k.run(['get', 'deploy', 'web', '-n', ns, '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}/{.metadata.managedFields[*].operation}']);
      expect(managers.stdout.split('/')[0]?.split(' ')).toContain('kubectl');
      expect(managers.stdout.split('/')[1]?.split(' ')).toContain('Apply');

      const dry = await k.run(['apply', '--server-side', '--dry-run=server', '-n', ns, '-f', '-'], webManifest('nginx:1.28.0'));
      expect([dry.code, dry.stdout, dry.stderr]).toEqual([0, 'deployment.apps/web serverside-applied (server dry run)\n', '']);
      expect(await image()).toBe('nginx:1.27.2');

      const dryObject = await k.run(['apply', '--server-side', '--dry-run=server', '-n', ns, '-f', '-', '-o', 'jsonpath={.spec.template.spec.containers[0].image}'], webManifest('nginx:1.28.0'));
      expect([dryObject.code, dryObject.stdout]).toEqual([0, 'nginx:1.28.0']);

      const updated = await k.run(['apply', '--server-side', '-n', ns, '-f', '-'], webManifest('nginx:1.28.0'));
      expect([updated.code, updated.stdout, updated.stderr]).toEqual([0, 'deployment.apps/web serverside-applied\n', '']);
      expect(await image()).toBe('nginx:1.28.0');

      const dryCreate = await k.run(['apply', '--server-side', '--dry-run=server', '-n', ns, '-f', '-'], webManifest('nginx:1.28.0').replace('name: web', 'name: web-dry'));
      expect([dryCreate.code, dryCreate.stdout]).toEqual([0, 'deployment.apps/web-dry serverside-applied (server dry run)\n']);
      const absent = await k.run(['get', 'deploy', 'web-dry', '-n', ns]);
      expect([absent.code, absent.stderr]).toEqual([1, 'Error from server (NotFound): deployments.apps "web-dry" not found\n']);
    });

    it('create deployment --dry-run=server -o yaml prints the defaulted object and stores nothing', async () => {
      const res = await k.run(['create', 'deployment', 'x', '--image=nginx:1.27', '-n', ns, '--dry-run=server', '-o', 'yaml']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      const object = parse(res.stdout) as { metadata: Record<string, unknown> };
      expect(object).toMatchObject({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'x', namespace: ns, labels: { app: 'x' }, generation: 1 },
        spec: {
          replicas: 1,
          revisionHistoryLimit: 10,
          progressDeadlineSeconds: 600,
          selector: { matchLabels: { app: 'x' } },
          strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
          template: {
            spec: {
              containers: [{ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
              dnsPolicy: 'ClusterFirst',
              restartPolicy: 'Always',
              schedulerName: 'default-scheduler',
              securityContext: {},
              terminationGracePeriodSeconds: 30,
            },
          },
        },
        status: {},
      });
      const { metadata } = object;
      expect(metadata['uid']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(metadata['creationTimestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      // Nothing was written, so nothing assigned a resourceVersion.
      expect(metadata).not.toHaveProperty('resourceVersion');

      const stored = await k.run(['get', 'deploy', 'x', '-n', ns]);
      expect([stored.code, stored.stdout, stored.stderr]).toEqual([1, '', 'Error from server (NotFound): deployments.apps "x" not found\n']);
      const rs = await k.run(['get', 'rs', '-n', ns]);
      expect(rs.stderr).toBe(`No resources found in ${ns} namespace.\n`);
    });

    it('create job, configmap and namespace create real objects; the job runs to completion', async () => {
      const job = await k.run(['create', 'job', 'once', '--image=busybox:1.36', '-n', ns, '--', 'echo', 'hi']);
      expect([job.code, job.stdout, job.stderr]).toEqual([0, 'job.batch/once created\n', '']);
      const configmap = await k.run(['create', 'configmap', 'settings', '--from-literal=mode=demo', '--from-literal=level=3', '-n', ns]);
      expect([configmap.code, configmap.stdout, configmap.stderr]).toEqual([0, 'configmap/settings created\n', '']);
      const other = uniqueNamespace('extra');
      const namespace = await k.run(['create', 'namespace', other]);
      expect([namespace.code, namespace.stdout]).toEqual([0, `namespace/${other} created\n`]);
      const again = await k.run(['create', 'namespace', other]);
      expect([again.code, again.stderr]).toEqual([1, `Error from server (AlreadyExists): namespaces "${other}" already exists\n`]);

      const cms = await k.run(['get', 'configmap', 'settings', '-n', ns]);
      expect(parseTable(cms.stdout)).toEqual([{ NAME: 'settings', DATA: '2', AGE: expect.stringMatching(/^\d+s$/) }]);
      const namespaces = await k.run(['get', 'namespace', other]);
      expect(parseTable(namespaces.stdout)).toEqual([{ NAME: other, STATUS: 'Active', AGE: expect.stringMatching(/^\d+s$/) }]);

      let last = '';
      const jobs = await eventually(
        async () => {
          const res = await k.run(['get', 'jobs', '-n', ns]);
          last = res.stdout + res.stderr;
          const row = parseTable(res.stdout)[0];
          return row?.['COMPLETIONS'] === '1/1' ? row : undefined;
        },
        { what: 'job once to complete', last: () => last },
      );
      expect(jobs).toMatchObject({ NAME: 'once', COMPLETIONS: '1/1' });
      // 1.28 added the STATUS column to the job table.
      if (minor >= 28) expect(jobs['STATUS']).toBe('Complete');
      const pods = await k.run(['get', 'pods', '-n', ns, '-l', 'job-name=once']);
      expect(parseTable(pods.stdout)).toEqual([expect.objectContaining({ NAME: expect.stringMatching(/^once-[a-z0-9]{5}$/), READY: '0/1', STATUS: 'Completed' })]);
    });
  });
});
