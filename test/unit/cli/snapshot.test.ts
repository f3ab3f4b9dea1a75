/**
 * `kubedrift snapshot export` and `inspect` as a user runs them: against `kubedrift sim` through
 * a kubeconfig file, in a child process, with the exit codes and messages a script relies on.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { runCli, startSim, stop } from '../../helpers/cli.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { SNAPSHOT_SCHEMA_VERSION } from '../../../shared/contracts/snapshot.ts';

let dir: string;
let cleanup: () => Promise<void>;
let sim: ChildProcess;
let kubeconfig: string;
/** stderr without Node's notice that node:sqlite (the history store) is experimental. */
const problems = (stderr: string) => stderr.split('\n').filter(Boolean);
const env = () => ({ KUBECONFIG: '', HOME: dir, KUBEDRIFT_DATA_DIR: path.join(dir, 'data') });

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-cli-snapshot-'));
  kubeconfig = path.join(dir, 'kubeconfig.yaml');
  ({ child: sim } = await startSim(['--scenario', 'minimal', '--write-kubeconfig', kubeconfig]));
}, 40_000);

afterAll(async () => {
  if (sim) await stop(sim);
  await cleanup();
});

describe('kubedrift snapshot', () => {
  it('exports a snapshot file of the kubeconfig\'s current context, which inspect summarises', async () => {
    const out = path.join(dir, 'sim.kubedrift.json.gz');
    const exported = await runCli(['snapshot', 'export', '--out', out, '--kubeconfig', kubeconfig], env());
    expect(problems(exported.stderr)).toEqual([]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(new RegExp(`^Wrote ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: \\d+ objects of "\\S+" at \\d{4}-`, 'm'));
    const file = JSON.parse(gunzipSync(await readFile(out)).toString('utf8'));
    expect(file).toMatchObject({ kind: 'KubedriftSnapshot', schemaVersion: SNAPSHOT_SCHEMA_VERSION, scope: { type: 'cluster' } });
    expect(file.kinds).toContainEqual({ apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', plural: 'deployments', namespaced: true, custom: false, metadataOnly: false });
    // The export waited for discovery: kinds beyond the built-in ones are in it, named in its table.
    expect(file.kinds).toContainEqual(expect.objectContaining({ key: 'clusterroles.rbac.authorization.k8s.io', metadataOnly: true }));
    expect(file.objects.some((o: { kind: string; metadata: { name: string } }) => o.kind === 'Deployment' && o.metadata.name === 'web')).toBe(true);
    expect(JSON.stringify(file)).not.toMatch(/"token"|client-key/);

    const inspected = await runCli(['snapshot', 'inspect', out], env());
    expect(inspected.code).toBe(0);
    expect(inspected.stdout).toMatch(new RegExp(`^File: {7}sim\\.kubedrift\\.json\\.gz \\([\\d.]+ KB, format version ${SNAPSHOT_SCHEMA_VERSION}, written by Kubedrift \\d`, 'm'));
    expect(inspected.stdout).toMatch(/^Scope: {6}whole cluster$/m);
    expect(inspected.stdout).toMatch(/^ {2}Deployment +1$/m);
    expect(inspected.stdout).toMatch(/^Workloads: {2}\d+, \d+ drifting at this time$/m);
    expect(inspected.stdout).toMatch(/^Window: {5}(none \(no history was recorded\)|\d{4}-.* drift episodes\))$/m);
  }, 60_000);

  it('exports one namespace as YAML manifests', async () => {
    const out = path.join(dir, 'default.yaml');
    const exported = await runCli(['snapshot', 'export', '--out', out, '--kubeconfig', kubeconfig, '--namespace', 'default', '--format', 'yaml'], env());
    expect(exported.code).toBe(0);
    const docs = parseAllDocuments(await readFile(out, 'utf8')).map((doc) => doc.toJS() as { kind: string; metadata: { namespace?: string }; status?: unknown });
    expect(docs.map((doc) => doc.kind)).toContain('Deployment');
    expect(docs.every((doc) => doc.status === undefined && (doc.kind === 'Namespace' || doc.metadata.namespace === 'default'))).toBe(true);
  }, 60_000);

  it('refuses bad flags and unknown contexts with exit 2, and broken files with exit 1 and the reason', async () => {
    const format = await runCli(['snapshot', 'export', '--out', path.join(dir, 'x'), '--format', 'pdf'], env());
    expect([format.code, format.stderr]).toEqual([2, expect.stringContaining('--format must be one of snapshot, yaml, html, got "pdf"')]);
    const noOut = await runCli(['snapshot', 'export'], env());
    expect([noOut.code, noOut.stderr]).toEqual([2, expect.stringContaining('--out FILE is required')]);
    const context = await runCli(['snapshot', 'export', '--out', path.join(dir, 'x'), '--kubeconfig', kubeconfig, '--context', 'nope'], env());
    expect([context.code, context.stderr]).toEqual([2, expect.stringContaining('there is no context named "nope"')]);

    const broken = path.join(dir, 'broken.kubedrift.json.gz');
    await writeFile(broken, (await readFile(path.join(dir, 'sim.kubedrift.json.gz'))).subarray(0, 64));
    const truncated = await runCli(['snapshot', 'inspect', broken], env());
    expect([truncated.code, truncated.stderr]).toEqual([1, expect.stringContaining('broken.kubedrift.json.gz is incomplete')]);
    const missing = await runCli(['snapshot', 'inspect', path.join(dir, 'missing.gz')], env());
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('there is no file')]);
    const verb = await runCli(['snapshot', 'import'], env());
    expect([verb.code, verb.stderr]).toEqual([2, expect.stringContaining('unknown snapshot command "import"')]);
  }, 60_000);
});
