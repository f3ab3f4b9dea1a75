import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inspectPath, loadManifests } from '../../../../electron/engine/diff/load/index.ts';
import { parseManifestText } from '../../../../electron/engine/diff/load/parse.ts';
import { findKubectl } from '../../../../electron/engine/diff/kubectl-bin.ts';
import { withTempDir } from '../../../helpers/tmp.ts';
import { fixture } from './fixtures.ts';

const kubectl = await findKubectl();
let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir('kubedrift-diff-load-')));
afterEach(() => cleanup());

const names = (result: Awaited<ReturnType<typeof loadManifests>>) => result.manifests.map((m) => `${String(m.object['kind'])}/${String((m.object['metadata'] as { name: string }).name)}`);

describe('loading manifests', () => {
  it('reads multi-document files with anchors, one object per document, each with its line', async () => {
    const result = await loadManifests([fixture('shop')], { kubectl: null });
    expect(result.errors).toEqual([]);
    expect(names(result)).toEqual(['ConfigMap/checkout-config', 'Deployment/checkout', 'Service/checkout', 'HorizontalPodAutoscaler/checkout', 'Namespace/shop', 'CronJob/nightly-report']);
    const lines = result.manifests.map((m) => `${path.basename(m.source.file)}:${m.source.line}`);
    expect(lines).toEqual(['checkout.yaml:2', 'checkout.yaml:15', 'checkout.yaml:59', 'checkout.yaml:74', 'namespace.yaml:1', 'nightly-report.yml:1']);
    // The anchor's labels reach the pod template.
    const deployment = result.manifests[1]?.object as { spec: { template: { metadata: { labels: Record<string, string> } } } };
    expect(deployment.spec.template.metadata.labels).toEqual({ 'app.kubernetes.io/name': 'checkout', 'app.kubernetes.io/part-of': 'shop' });
  });

  it('expands v1 List (JSON) and typed lists (ServiceList) into their items, with item lines', async () => {
    const result = await loadManifests([fixture('lists')], { kubectl: null });
    expect(names(result)).toEqual(['ConfigMap/listed-one', 'ConfigMap/listed-two', 'Service/listed-svc']);
    expect(result.manifests.map((m) => m.source.line)).toEqual([5, 11, 4]);
  });

  it('turns every bad document into a precise error and still loads its good neighbours', async () => {
    const result = await loadManifests([fixture('bad')], { kubectl: null });
    expect(names(result)).toEqual(['ConfigMap/twice', 'ConfigMap/twice', 'ConfigMap/good-neighbour', 'Frobnicator/frob']);
    const errors = result.errors.map((e) => `${path.basename(e.source.file)}:${e.source.line} ${e.message}`);
    expect(errors).toEqual([
      'broken-indent.yaml:6 invalid YAML: Nested mappings are not allowed in compact mappings',
      'broken.json:5 invalid JSON: Expected double-quoted property name',
      'mixed.yaml:8 the document has neither apiVersion nor kind, so it is not a Kubernetes object',
      'mixed.yaml:13 ConfigMap has no metadata.name',
      'mixed.yaml:24 Job uses metadata.generateName ("migrate-"): the server picks its name at creation, so there is no live object to compare it with',
    ]);
    // README.md is not a manifest and is not read.
    expect(result.files).toBe(5);
  });

  it('reports a Helm chart as out of scope instead of parsing its templates', async () => {
    const result = await loadManifests([fixture('charts')], { kubectl: null });
    expect(result.manifests).toEqual([]);
    expect(result.errors).toEqual([]);
    expect(result.notices).toEqual([expect.objectContaining({ level: 'warning', path: fixture('charts', 'podinfo'), message: expect.stringMatching(/^Helm chart skipped: .*helm template/) })]);
  });

  it('says a kustomization needs kubectl when kubectl is not on PATH', async () => {
    const result = await loadManifests([fixture('kustomize')], { kubectl: null });
    expect(result.manifests).toEqual([]);
    expect(result.errors).toEqual([expect.objectContaining({ source: { file: fixture('kustomize', 'app', 'kustomization.yaml'), line: 1 }, message: expect.stringMatching(/kustomization; rendering it needs kubectl .*not on PATH/) })]);
  });

  it.skipIf(!kubectl)('renders a kustomization with kubectl kustomize', async () => {
    const result = await loadManifests([fixture('kustomize')], { kubectl: kubectl ?? null });
    expect(result.errors).toEqual([]);
    expect(result.manifests).toHaveLength(1);
    expect(result.manifests[0]?.object).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'feature-flags', namespace: 'kustomized', labels: { 'app.kubernetes.io/managed-by': 'kustomize' } } });
    expect(result.manifests[0]?.source.file).toBe(fixture('kustomize', 'app', 'kustomization.yaml'));
  });

  it.skipIf(!kubectl)('reports what kustomize says about a broken kustomization', async () => {
    await writeFile(path.join(dir, 'kustomization.yaml'), 'resources:\n  - missing.yaml\n');
    const result = await loadManifests([dir], { kubectl: kubectl ?? null });
    expect(result.errors[0]?.message).toMatch(/^"kubectl kustomize" failed: .*missing\.yaml/);
  });

  it('walks folders recursively, skipping hidden folders and node_modules, and survives a symlink loop', async () => {
    await mkdir(path.join(dir, 'a', 'b'), { recursive: true });
    await mkdir(path.join(dir, '.git'));
    await mkdir(path.join(dir, 'node_modules', 'x'), { recursive: true });
    const cm = (name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;
    await writeFile(path.join(dir, 'a', 'b', 'deep.yml'), cm('deep'));
    await writeFile(path.join(dir, 'top.yaml'), cm('top'));
    await writeFile(path.join(dir, '.git', 'hidden.yaml'), cm('hidden'));
    await writeFile(path.join(dir, 'node_modules', 'x', 'dep.yaml'), cm('dep'));
    await symlink(dir, path.join(dir, 'a', 'loop'));
    const result = await loadManifests([dir], { kubectl: null });
    expect(names(result)).toEqual(['ConfigMap/deep', 'ConfigMap/top']);
  });

  it('parses documents separated by --- including empty ones and comments only', () => {
    const parsed = parseManifestText('# header\n---\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# trailing comment\n', '/x.yaml');
    expect(parsed.errors).toEqual([]);
    expect(parsed.manifests.map((m) => m.source.line)).toEqual([4]);
  });

  it('names a document that is a list, not an object, and one with no apiVersion', () => {
    const parsed = parseManifestText('- a\n- b\n---\nkind: Service\nmetadata: {name: s}\n---\napiVersion: v1\nmetadata: {name: s}\n', '/x.yaml');
    expect(parsed.errors.map((e) => `${e.source.line} ${e.message}`)).toEqual([
      '1 a document must be a mapping (a Kubernetes object), got a list',
      '4 the Service has no apiVersion',
      '7 the document (apiVersion v1) has no kind',
    ]);
  });

  it('reports duplicate keys as invalid YAML with their line', () => {
    const parsed = parseManifestText('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  name: b\n', '/x.yaml');
    expect(parsed.errors).toEqual([{ source: { file: '/x.yaml', line: 5 }, message: 'invalid YAML: Map keys must be unique' }]);
  });
});

describe('inspecting a path', () => {
  it('describes a folder by what it holds', async () => {
    const info = await inspectPath(fixture());
    expect(info).toMatchObject({ ok: true, type: 'folder', kustomizations: 1, helmCharts: 1 });
    expect(info.message).toMatch(/^Folder with \d+ manifest files, 1 kustomization, 1 Helm chart \(skipped/);
  });

  it('refuses a missing path, a folder without manifests and a file that is not a manifest', async () => {
    expect(await inspectPath(path.join(dir, 'nope'))).toMatchObject({ ok: false, type: 'missing', message: 'No such file or folder.' });
    expect(await inspectPath(dir)).toMatchObject({ ok: false, type: 'folder', message: 'No .yaml, .yml or .json files in this folder or below it.' });
    await writeFile(path.join(dir, 'notes.txt'), 'x');
    expect(await inspectPath(path.join(dir, 'notes.txt'))).toMatchObject({ ok: false, type: 'file', message: 'Not a manifest file: Kubedrift reads .yaml, .yml and .json files.' });
    expect(await inspectPath(fixture('charts'))).toMatchObject({ ok: false, helmCharts: 1, message: expect.stringMatching(/^Only Helm charts here/) });
  });

  it('accepts a single manifest file', async () => {
    expect(await inspectPath(fixture('guestbook', 'guestbook-ui-svc.yaml'))).toMatchObject({ ok: true, type: 'file', files: 1, message: 'A manifest file (1 KB).' });
  });
});
