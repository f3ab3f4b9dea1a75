/**
 * `kubedrift diff` as a script or CI job runs it: a child process against the simulated cluster,
 * judged by its exit code (0 same, 1 different, 2 error), stdout (unified diffs or one JSON
 * object) and stderr (problems and a summary).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimCluster, type SimCluster } from '../../../electron/engine/simcluster/index.ts';
import { runCli } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { applyManifests } from '../engine/diff/apply.ts';
import { copyFixtures } from '../engine/diff/fixtures.ts';

let cluster: SimCluster;
let dir: string;
let cleanup: () => Promise<void>;
let kubeconfig: string;
let guestbook: string;
let secrets: string;

beforeAll(async () => {
  cluster = await startSimCluster({ scenario: 'minimal', controllers: false });
  ({ dir, cleanup } = await withTempDir('kubedrift-cli-diff-'));
  kubeconfig = path.join(dir, 'kubeconfig.yaml');
  await writeFile(kubeconfig, cluster.kubeconfig('sim'));
  const copies = await copyFixtures(dir, 'guestbook', 'secrets');
  guestbook = copies[0] as string;
  secrets = copies[1] as string;
  await applyManifests(cluster.kubeconfigObject(), [guestbook, secrets]);
});
afterAll(async () => {
  await cluster?.stop();
  await cleanup?.();
});

const diff = (...args: string[]) => runCli(['diff', '--kubeconfig', kubeconfig, ...args], { KUBECONFIG: undefined });

describe('kubedrift diff', () => {
  it('exits 0 with nothing on stdout when the cluster matches the files', async () => {
    const { code, stdout, stderr } = await diff(guestbook, secrets);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^kubedrift diff: 0 out of sync, 0 missing, 0 errors, 3 in sync \(context "sim", \d+ ms\)\n$/);
    expect(code).toBe(0);
  });

  it('exits 1 with kubectl-style unified diffs for a changed and a new object, never showing Secret values', async () => {
    const edited = path.join(dir, 'edited');
    await copyFixtures(edited, 'guestbook', 'secrets');
    const deployment = path.join(edited, 'guestbook', 'guestbook-ui-deployment.yaml');
    await writeFile(deployment, (await readFile(deployment, 'utf8')).replace('ks-guestbook-demo:0.2', 'ks-guestbook-demo:0.3'));
    const secret = path.join(edited, 'secrets', 'db-credentials.yaml');
    await writeFile(secret, (await readFile(secret, 'utf8')).replace('czNjcjN0', 'bmV3LXBhc3M='));
    await writeFile(path.join(edited, 'guestbook', 'new.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: brand-new\ndata:\n  a: "1"\n');
    const { code, stdout, stderr } = await diff(path.join(edited, 'guestbook'), path.join(edited, 'secrets'));
    expect(code).toBe(1);
    expect(stdout).toMatch(/^diff -u -N LIVE\/apps\.v1\.Deployment\.default\.guestbook-ui MERGED\/apps\.v1\.Deployment\.default\.guestbook-ui\n--- LIVE\/.*\n\+\+\+ MERGED\/.*\n@@ /);
    expect(stdout.split('\n').filter((line) => /^[-+] /.test(line))).toEqual(expect.arrayContaining(['-      - image: gcr.io/heptio-images/ks-guestbook-demo:0.2', '+      - image: gcr.io/heptio-images/ks-guestbook-demo:0.3', '-  password: "*** (before)"', '+  password: "*** (after)"', '+  name: brand-new']));
    expect(stdout).not.toMatch(/czNjcjN0|bmV3LXBhc3M=|YXBw/);
    expect(stderr).toMatch(/kubedrift diff: 2 out of sync, 1 missing, 0 errors, 1 in sync/);
  });

  it('prints one JSON object with statuses, fields and owners', async () => {
    const edited = path.join(dir, 'json');
    const [copy] = await copyFixtures(edited, 'guestbook');
    const deployment = path.join(copy as string, 'guestbook-ui-deployment.yaml');
    await writeFile(deployment, (await readFile(deployment, 'utf8')).replace('replicas: 1', 'replicas: 2'));
    const { code, stdout, stderr } = await diff(copy as string, '--json');
    expect([code, stderr]).toEqual([1, '']);
    const document = JSON.parse(stdout) as { context: string; counts: unknown; objects: Array<Record<string, unknown>> };
    expect(document).toMatchObject({ context: 'sim', counts: { InSync: 1, OutOfSync: 1, Missing: 0, Error: 0 }, total: 2 });
    const changed = document.objects.find((o) => o['status'] === 'OutOfSync');
    expect(changed).toMatchObject({ kind: 'Deployment', name: 'guestbook-ui', namespace: 'default', source: { file: deployment, line: 2 }, fields: [{ path: 'spec.replicas', op: 'changed', live: '1', predicted: '2', owner: { kind: 'kubectl', manager: 'kubectl' } }] });
    expect(changed?.['diff']).toMatch(/^- {2}replicas: 1$/m);
  });

  it('honours an Argo CD ignoreDifferences file', async () => {
    const edited = path.join(dir, 'ignored');
    const [copy] = await copyFixtures(edited, 'guestbook');
    const deployment = path.join(copy as string, 'guestbook-ui-deployment.yaml');
    await writeFile(deployment, (await readFile(deployment, 'utf8')).replace('replicas: 1', 'replicas: 5'));
    const rules = path.join(dir, 'ignore.yaml');
    await writeFile(rules, 'ignoreDifferences:\n  - group: apps\n    kind: Deployment\n    jsonPointers:\n      - /spec/replicas\n');
    expect((await diff(copy as string, '--ignore', rules)).code).toBe(0);
    await writeFile(rules, 'ignoreDifferences:\n  - group: apps\n    kind: Deployment\n    jqPathExpressions:\n      - .spec | keys\n');
    const bad = await diff(copy as string, '--ignore', rules);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringMatching(/--ignore .*ignore\.yaml: unexpected "k"/)]);
  });

  it('exits 2 on bad input, reporting each problem with file and line, and still prints the other diffs', async () => {
    const mixed = path.join(dir, 'mixed');
    const [copy] = await copyFixtures(mixed, 'guestbook');
    await writeFile(path.join(copy as string, 'broken.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a: b\n');
    await writeFile(path.join(copy as string, 'new.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fresh\n');
    const { code, stdout, stderr } = await diff(copy as string);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^error: ${path.join(copy as string, 'broken.yaml').replaceAll('/', '\\/')}:4: invalid YAML: `, 'm'));
    expect(stdout).toMatch(/^\+ {2}name: fresh$/m);
  });

  it('exits 2 with a clear message for an unknown context, a missing path and an unreachable cluster', async () => {
    const unknown = await diff(guestbook, '--context', 'prod');
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringMatching(/^kubedrift diff: context "prod" is not in the kubeconfig \(contexts: sim\)/)]);
    const missing = await diff(path.join(dir, 'nope'));
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringMatching(/nope: No such file or folder\./)]);
    const offline = path.join(dir, 'offline.yaml');
    await writeFile(offline, cluster.kubeconfig('sim').replace(/server: https:\/\/127\.0\.0\.1:\d+/, 'server: https://127.0.0.1:9'));
    const unreachable = await runCli(['diff', '--kubeconfig', offline, guestbook]);
    expect([unreachable.code, unreachable.stdout]).toEqual([2, '']);
    expect(unreachable.stderr).toMatch(/^kubedrift diff: cannot reach the cluster of context "sim" \(https:\/\/127\.0\.0\.1:9\): .*ECONNREFUSED/);
  });
});
