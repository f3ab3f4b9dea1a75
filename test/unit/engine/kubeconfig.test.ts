import { mkdir, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  describeContexts,
  loadKubeconfigs,
  resolveKubeconfigPaths,
  singleContextConfig,
} from '../../../electron/engine/cluster/kubeconfig.ts';
import { withTempDir } from '../../helpers/tmp.ts';
import { writeKubeconfig } from '../../helpers/kubeconfig.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

describe('resolveKubeconfigPaths', () => {
  it('uses ~/.kube/config when KUBECONFIG is unset or empty', () => {
    for (const env of [{}, { KUBECONFIG: '' }, { KUBECONFIG: '  ' }]) {
      expect(resolveKubeconfigPaths({ env, homeDir: '/home/u' })).toEqual({ paths: ['/home/u/.kube/config'], explicit: false });
    }
  });

  it('splits KUBECONFIG on the platform separator, skipping empties and repeats', () => {
    const unix = resolveKubeconfigPaths({ env: { KUBECONFIG: '/a:/b::/a:/c' }, homeDir: '/h', platform: 'linux' });
    expect(unix.paths).toEqual(['/a', '/b', '/c']);
    const win = resolveKubeconfigPaths({ env: { KUBECONFIG: '/a;/b' }, homeDir: '/h', platform: 'win32' });
    expect(win.paths).toHaveLength(2);
  });

  it('lets --kubeconfig override KUBECONFIG', () => {
    const result = resolveKubeconfigPaths({ explicit: '/x/config', env: { KUBECONFIG: '/a:/b' }, homeDir: '/h' });
    expect(result).toEqual({ paths: ['/x/config'], explicit: true });
  });
});

describe('loadKubeconfigs', () => {
  it('merges like kubectl: the first file to define a name wins, current-context from the first that sets it', async () => {
    const first = await writeKubeconfig(dir, 'first', [{ name: 'prod', server: 'https://first.example:6443' }], '');
    const second = await writeKubeconfig(
      dir,
      'second',
      [
        { name: 'prod', server: 'https://second.example:6443' },
        { name: 'staging', server: 'https://staging.example:6443', namespace: 'web' },
      ],
      'staging',
    );
    const merged = await loadKubeconfigs([first, second]);
    const contexts = describeContexts(merged);
    expect(contexts.map((c) => c.name)).toEqual(['prod', 'staging']);
    expect(contexts[0]).toMatchObject({ server: 'https://first.example:6443', source: first });
    expect(contexts[1]).toMatchObject({ namespace: 'web', server: 'https://staging.example:6443', source: second });
    expect(merged.currentContext).toBe('staging');
    expect(merged.sources.map((s) => s.state)).toEqual(['loaded', 'loaded']);
  });

  it('reports invalid YAML with the file and line, and still loads the other files', async () => {
    const good = await writeKubeconfig(dir, 'good', [{ name: 'ok', server: 'https://ok.example' }]);
    const bad = path.join(dir, 'bad');
    await writeFile(bad, 'apiVersion: v1\nclusters:\n  - name: x\n    cluster: {server: "https://x\n  bad: [\n', 'utf8');
    const merged = await loadKubeconfigs([bad, good]);
    expect(merged.sources[0]).toMatchObject({ path: bad, state: 'error' });
    expect(merged.sources[0]?.message).toMatch(/invalid YAML/);
    expect(merged.sources[0]?.line).toBeGreaterThanOrEqual(4);
    expect(describeContexts(merged).map((c) => c.name)).toEqual(['ok']);
  });

  it('reports a file that is not a kubeconfig', async () => {
    const file = path.join(dir, 'list');
    await writeFile(file, '- just\n- a list\n', 'utf8');
    const merged = await loadKubeconfigs([file]);
    expect(merged.sources[0]).toMatchObject({ state: 'error', message: expect.stringMatching(/not a kubeconfig/) });
  });

  it('skips a missing file from KUBECONFIG but calls a missing --kubeconfig file an error', async () => {
    const missing = path.join(dir, 'nope');
    expect((await loadKubeconfigs([missing])).sources[0]).toMatchObject({ state: 'missing', message: 'not found (skipped)' });
    expect((await loadKubeconfigs([missing], { explicit: true })).sources[0]).toMatchObject({ state: 'missing', message: 'file not found' });
  });

  it.skipIf(process.getuid?.() === 0)('reports an unreadable file', async () => {
    const file = await writeKubeconfig(dir, 'locked', [{ name: 'a', server: 'https://a' }]);
    await chmod(file, 0o000);
    expect((await loadKubeconfigs([file])).sources[0]).toMatchObject({ state: 'error', message: expect.stringMatching(/EACCES/) });
  });

  it('reports a directory given as a kubeconfig as unreadable', async () => {
    const folder = path.join(dir, 'folder');
    await mkdir(folder);
    expect((await loadKubeconfigs([folder])).sources[0]).toMatchObject({ state: 'error', message: expect.stringMatching(/EISDIR/) });
  });

  it('flags a context naming a missing cluster or user', async () => {
    const file = path.join(dir, 'dangling');
    await writeFile(
      file,
      [
        'contexts:',
        '- name: lost',
        '  context: {cluster: ghost, user: nobody}',
        '- name: no-server',
        '  context: {cluster: empty}',
        'clusters:',
        '- name: empty',
        '  cluster: {}',
      ].join('\n'),
      'utf8',
    );
    const contexts = describeContexts(await loadKubeconfigs([file]));
    expect(contexts.find((c) => c.name === 'lost')?.problem).toBe(
      'Context "lost" cluster "ghost" is not defined in any kubeconfig file; user "nobody" is not defined in any kubeconfig file',
    );
    expect(contexts.find((c) => c.name === 'no-server')?.problem).toMatch(/has no server/);
  });

  it('resolves relative certificate paths against the kubeconfig file that names them', async () => {
    const sub = path.join(dir, 'sub');
    await mkdir(sub);
    const file = path.join(sub, 'config');
    await writeFile(
      file,
      [
        'clusters: [{name: c, cluster: {server: "https://c", certificate-authority: ca.crt}}]',
        'users: [{name: u, user: {client-certificate: certs/u.crt, client-key: /abs/u.key}}]',
        'contexts: [{name: ctx, context: {cluster: c, user: u}}]',
      ].join('\n'),
      'utf8',
    );
    const merged = await loadKubeconfigs([file]);
    const single = singleContextConfig(merged, 'ctx') as { clusters: Array<{ cluster: Record<string, string> }>; users: Array<{ user: Record<string, string> }> };
    expect(single.clusters[0]?.cluster['certificate-authority']).toBe(path.join(sub, 'ca.crt'));
    expect(single.users[0]?.user['client-certificate']).toBe(path.join(sub, 'certs/u.crt'));
    expect(single.users[0]?.user['client-key']).toBe('/abs/u.key');
  });
});
