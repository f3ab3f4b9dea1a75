/**
 * The diff feature behind the contract: per-context settings on disk, path validation, runs with
 * progress on `diff:changed`, paging, one object's diff, ignore rules re-evaluating the last run,
 * the watched folder refreshing it, and `kubectl diff` with the same context.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DiffState } from '../../../../shared/contracts/diff.ts';
import type { Result } from '../../../../shared/result.ts';
import { createDiffFeature } from '../../../../electron/engine/diff/index.ts';
import { configFile } from '../../../../electron/engine/diff/config-store.ts';
import { findKubectl } from '../../../../electron/engine/diff/kubectl-bin.ts';
import { demoManifestsDir } from '../../../../electron/engine/simcluster/scenarios/demo-manifests.ts';
import { DEMO_CONTEXT, DEMO_DEV_CONTEXT } from '../../../../shared/model.ts';
import { startSimCluster, type SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { fakeEngineContext } from '../../../helpers/engine-context.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { applyManifests } from './apply.ts';
import { copyFixtures } from './fixtures.ts';
import { kubectl as runKubectl } from '../../../kubectl/kubectl.ts';

const kubectl = await findKubectl();
let cluster: SimCluster;
beforeAll(async () => (cluster = await startSimCluster({ scenario: 'minimal', controllers: false })));
afterAll(() => cluster?.stop());

let dir: string;
let cleanup: () => Promise<void>;
let states: DiffState[];
let feature: ReturnType<typeof createDiffFeature>;
let switchTo: (name: string | null, readOnly?: boolean) => void;
let fake: ReturnType<typeof fakeEngineContext>;

function value<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.value;
}

beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-diff-feature-'));
  fake = fakeEngineContext({
    dataDir: path.join(dir, 'data'),
    selected: null,
    clientConfig: (selected) => (selected ? cluster.kubeconfigObject(selected.name) : undefined),
  });
  states = fake.collect('diff:changed');
  feature = createDiffFeature(fake.context);
  switchTo = (name, readOnly) => fake.switchTo(name, readOnly ? { readOnly } : {});
});
afterEach(async () => {
  await feature.dispose();
  await cleanup();
});

const h = () => feature.handlers;

describe('the diff feature', () => {
  it('asks for a context and for paths before it runs', async () => {
    expect(value(await h()['diff:config']({}))).toMatchObject({ context: null, paths: [], ignores: [] });
    expect(await h()['diff:run']({})).toEqual({ ok: false, error: { code: 'kubeconfig', message: 'No context is selected.' } });
    switchTo('sim-a');
    expect(await h()['diff:run']({})).toEqual({ ok: false, error: { code: 'invalid-request', message: 'Choose a folder or file of manifests first.' } });
  });

  it("offers the demo's own manifests on the demo context only", async () => {
    switchTo('sim-a');
    expect(value(await h()['diff:config']({})).demoManifests).toBeUndefined();
    fake.switchTo(DEMO_CONTEXT, { demo: true });
    const demo = value(await h()['diff:config']({}));
    expect(demo).toMatchObject({ context: DEMO_CONTEXT, demoManifests: demoManifestsDir() });
    expect(value(await h()['diff:inspect']({ path: demo.demoManifests as string }))).toMatchObject({ ok: true, type: 'folder', files: 7 });
    // As the restricted demo user most of those objects cannot be read: not offered.
    fake.switchTo(DEMO_DEV_CONTEXT, { demo: true });
    expect(value(await h()['diff:config']({})).demoManifests).toBeUndefined();
  });

  it('refuses to diff or run kubectl diff on an offline snapshot context', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    switchTo('sim-a');
    value(await h()['diff:paths']({ paths: [guestbook as string] }));
    switchTo('sim-a', true);
    for (const channel of ['diff:run', 'diff:kubectl'] as const) {
      const refused = await h()[channel]({});
      expect(refused.ok).toBe(false);
      if (!refused.ok) expect(refused.error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/offline snapshot/) });
    }
  });

  it('validates paths, keeps them per context on disk and reports what each holds', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    switchTo('sim-a');
    const refused = await h()['diff:paths']({ paths: [path.join(dir, 'nope')] });
    expect(refused).toEqual({ ok: false, error: { code: 'invalid-request', message: `${path.join(dir, 'nope')}: No such file or folder.` } });
    const saved = value(await h()['diff:paths']({ paths: [guestbook as string] }));
    expect(saved.paths).toEqual([expect.objectContaining({ path: guestbook, ok: true, files: 2, message: 'Folder with 2 manifest files.' })]);
    expect(JSON.parse(await readFile(configFile(path.join(dir, 'data'), 'sim-a'), 'utf8'))).toEqual({ version: 1, paths: [guestbook], ignores: [] });
    switchTo('sim-b');
    await expect.poll(async () => value(await h()['diff:config']({})).paths).toEqual([]);
    switchTo('sim-a');
    await expect.poll(async () => value(await h()['diff:config']({})).paths.map((p) => p.path)).toEqual([guestbook]);
  });

  it('runs with progress, pages rows, opens one object and re-evaluates it under a new ignore rule', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    await applyManifests(cluster.kubeconfigObject(), [guestbook as string]);
    const file = path.join(guestbook as string, 'guestbook-ui-deployment.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('replicas: 1', 'replicas: 4'));
    switchTo('sim-a');
    value(await h()['diff:paths']({ paths: [guestbook as string] }));
    states.length = 0;
    const summary = value(await h()['diff:run']({}));
    expect(summary).toMatchObject({ context: 'sim-a', counts: { InSync: 1, OutOfSync: 1, Missing: 0, Error: 0 }, total: 2, approximate: 0, notices: [] });
    expect(states.map((s) => s.state)).toContain('running');
    expect(states.at(-1)).toMatchObject({ context: 'sim-a', state: 'done', trigger: 'manual', summary });
    expect(states.filter((s) => s.state === 'running').map((s) => s.phase)).toEqual(expect.arrayContaining(['loading', 'discovery', 'comparing']));

    const page = value(await h()['diff:rows']({ runId: summary.runId, offset: 0, limit: 1 }));
    expect(page).toMatchObject({ total: 2, offset: 0, rows: [{ kind: 'Deployment', status: 'OutOfSync', fields: ['spec.replicas'] }] });
    const second = value(await h()['diff:rows']({ runId: summary.runId, offset: 1, limit: 10 }));
    expect(second.rows.map((row) => row.kind)).toEqual(['Service']);
    const object = value(await h()['diff:object']({ runId: summary.runId, id: page.rows[0]!.id }));
    expect(object.fields.map((f) => [f.path, f.live, f.predicted])).toEqual([['spec.replicas', '1', '4']]);
    expect(await h()['diff:rows']({ runId: 'old', offset: 0, limit: 1 })).toMatchObject({ ok: false, error: { code: 'not-found' } });

    const config = value(await h()['diff:ignore']({ rule: object.fields[0]!.ignore }));
    expect(config.ignores).toEqual([{ group: 'apps', kind: 'Deployment', name: 'guestbook-ui', namespace: 'default', jsonPointers: ['/spec/replicas'] }]);
    expect(states.at(-1)).toMatchObject({ state: 'done', trigger: 'ignore', summary: { counts: { InSync: 2, OutOfSync: 0 } } });
    expect(value(await h()['diff:export']({})).yaml).toMatch(/ignoreDifferences:\n {2}- group: apps\n {4}kind: Deployment\n {4}name: guestbook-ui\n {4}namespace: default\n {4}jsonPointers:\n {6}- \/spec\/replicas\n/);
    expect(await h()['diff:ignore']({ rule: { group: 'apps', kind: 'Deployment', jsonPointers: ['spec'] } })).toMatchObject({ ok: false, error: { code: 'invalid-request', message: expect.stringMatching(/must start with "\/"/) } });
    value(await h()['diff:unignore']({ index: 0 }));
    expect(states.at(-1)).toMatchObject({ trigger: 'ignore', summary: { counts: { InSync: 1, OutOfSync: 1 } } });
  });

  it('re-runs on its own when a watched file changes', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    switchTo('sim-a');
    value(await h()['diff:paths']({ paths: [guestbook as string] }));
    value(await h()['diff:run']({}));
    await writeFile(path.join(guestbook as string, 'extra.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: added-later\n');
    await expect.poll(() => states.at(-1), { timeout: 10_000 }).toMatchObject({ state: 'done', trigger: 'files', summary: { total: 3 } });
  });

  it('forgets the run and shows idle when the context changes', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    switchTo('sim-a');
    value(await h()['diff:paths']({ paths: [guestbook as string] }));
    const summary = value(await h()['diff:run']({}));
    switchTo('sim-b');
    expect(states.at(-1)).toEqual({ context: 'sim-b', state: 'idle', done: 0, total: 0 });
    expect(await h()['diff:rows']({ runId: summary.runId, offset: 0, limit: 5 })).toMatchObject({ ok: false, error: { code: 'not-found' } });
  });

  it.skipIf(!kubectl)('runs the real kubectl diff on the same paths with the same context', async () => {
    const [guestbook] = await copyFixtures(dir, 'guestbook');
    // kubectl diff compares against a client-side apply (its last-applied annotation), so apply as kubectl does.
    const kubeconfig = path.join(dir, 'kubeconfig');
    await writeFile(kubeconfig, cluster.kubeconfig());
    const applied = await runKubectl(['apply', '-f', guestbook as string], { kubeconfig, home: dir });
    expect(applied.code, applied.stderr).toBe(0);
    switchTo('sim-a');
    value(await h()['diff:paths']({ paths: [guestbook as string] }));
    const same = value(await h()['diff:kubectl']({}));
    expect(same).toMatchObject({ exitCode: 0, stdout: '', truncated: false });
    expect(same.command).toMatch(/^kubectl diff -f .*guestbook-ui-deployment\.yaml -f .*guestbook-ui-svc\.yaml/);
    const file = path.join(guestbook as string, 'guestbook-ui-svc.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('port: 80\n', 'port: 8080\n'));
    const changed = value(await h()['diff:kubectl']({}));
    expect(changed.exitCode).toBe(1);
    expect(changed.stdout).toMatch(/^\+ {2}- port: 8080$/m);
  });
});
