import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { describeExecPlugins, lookUpCommand, redactArgs } from '../../../../electron/engine/cluster/exec-plugins.ts';
import { loadKubeconfigs } from '../../../../electron/engine/cluster/kubeconfig.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await withTempDir()));
afterEach(async () => cleanup());

async function file(relative: string, mode: number, text = '#!/bin/sh\nexit 0\n'): Promise<string> {
  const full = path.join(dir, relative);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, text, { mode });
  return full;
}

async function kubeconfigWithUsers(users: Array<{ name: string; user: object }>, contexts: Array<[string, string]> = []) {
  const config = path.join(dir, 'config');
  await writeFile(
    config,
    stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: 'https://c.example' } }],
      users,
      contexts: contexts.map(([name, user]) => ({ name, context: { cluster: 'c', user } })),
    }),
  );
  return { config, merged: await loadKubeconfigs([config]) };
}

describe('describeExecPlugins', () => {
  it('names the binary PATH would run for each exec user, first match on PATH winning', async () => {
    const early = path.join(dir, 'early');
    const late = path.join(dir, 'late');
    const gke = await file('early/gke-gcloud-auth-plugin', 0o755);
    await file('late/gke-gcloud-auth-plugin', 0o755);
    const { config, merged } = await kubeconfigWithUsers(
      [
        { name: 'gke-user', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1beta1', command: 'gke-gcloud-auth-plugin', provideClusterInfo: true, interactiveMode: 'IfAvailable' } } },
        { name: 'token-user', user: { token: 'abc' } },
      ],
      [['gke-prod', 'gke-user'], ['gke-dev', 'gke-user'], ['other', 'token-user']],
    );
    expect(describeExecPlugins(merged, `${path.join(dir, 'missing')}:${early}:${late}`)).toEqual([
      {
        user: 'gke-user',
        source: config,
        contexts: ['gke-dev', 'gke-prod'],
        command: 'gke-gcloud-auth-plugin',
        resolved: gke,
        status: 'ok',
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        args: [],
        env: [],
        interactiveMode: 'IfAvailable',
      },
    ]);
  });

  it('says when a plugin is not on PATH, or found but not executable', async () => {
    const plain = await file('bin/kubelogin', 0o644);
    const { merged } = await kubeconfigWithUsers([
      { name: 'aws', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'aws', args: ['eks', 'get-token', '--cluster-name', 'prod'] } } },
      { name: 'azure', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'kubelogin' } } },
      { name: 'blank', user: { exec: { apiVersion: 'client.authentication.k8s.io/v1' } } },
    ]);
    const plugins = describeExecPlugins(merged, path.join(dir, 'bin'));
    expect(plugins.map(({ user, status, resolved }) => ({ user, status, resolved }))).toEqual([
      { user: 'aws', status: 'not-found', resolved: null },
      { user: 'azure', status: 'not-executable', resolved: plain },
      { user: 'blank', status: 'no-command', resolved: null },
    ]);
  });

  it('keeps secrets out: flag values that look like credentials are redacted, env values are never listed', async () => {
    const { merged } = await kubeconfigWithUsers([
      {
        name: 'azure',
        user: {
          exec: {
            command: 'kubelogin',
            args: ['get-token', '--client-id', 'app-123', '--client-secret', 's3cr3t', '--password=hunter2', '--token-cache-dir', '/tmp/cache'],
            env: [{ name: 'AAD_SERVICE_PRINCIPAL_CLIENT_SECRET', value: 'also-secret' }, { name: 'AZURE_TENANT', value: 't' }],
          },
        },
      },
    ]);
    const [plugin] = describeExecPlugins(merged, '');
    expect(plugin?.args).toEqual(['get-token', '--client-id', 'app-123', '--client-secret', '<redacted>', '--password=<redacted>', '--token-cache-dir', '/tmp/cache']);
    expect(plugin?.env).toEqual(['AAD_SERVICE_PRINCIPAL_CLIENT_SECRET', 'AZURE_TENANT']);
    expect(JSON.stringify(plugin)).not.toMatch(/s3cr3t|hunter2|also-secret/);
  });

  it('looks the command up on the PATH exec.env sets, since the plugin is spawned with it', async () => {
    const special = await file('special/aws', 0o755);
    const { merged } = await kubeconfigWithUsers([
      { name: 'aws', user: { exec: { command: 'aws', env: [{ name: 'PATH', value: path.join(dir, 'special') }] } } },
    ]);
    expect(describeExecPlugins(merged, '/usr/bin')[0]).toMatchObject({ resolved: special, status: 'ok', env: ['PATH'] });
  });
});

describe('lookUpCommand', () => {
  it('takes a command with a slash as a path from the working directory, not from PATH', async () => {
    const local = await file('tools/auth.sh', 0o755);
    await file('onpath/tools/auth.sh', 0o755);
    expect(lookUpCommand('./tools/auth.sh', path.join(dir, 'onpath'), { cwd: dir })).toEqual({ resolved: local, status: 'ok' });
    expect(lookUpCommand(local, '', {})).toEqual({ resolved: local, status: 'ok' });
    expect(lookUpCommand('./nope', dir, { cwd: dir })).toEqual({ resolved: null, status: 'not-found' });
  });

  it('skips a folder of the same name on PATH', async () => {
    await mkdir(path.join(dir, 'a', 'aws'), { recursive: true });
    const real = await file('b/aws', 0o755);
    expect(lookUpCommand('aws', `${path.join(dir, 'a')}:${path.join(dir, 'b')}`)).toEqual({ resolved: real, status: 'ok' });
  });

  it('tries the PATHEXT extensions on Windows', async () => {
    const exe = await file('win/kubelogin.exe', 0o644);
    expect(lookUpCommand('kubelogin', path.join(dir, 'win'), { platform: 'win32', pathExt: '.COM;.EXE' })).toEqual({ resolved: exe, status: 'ok' });
  });
});

describe('redactArgs', () => {
  it('leaves ordinary flags, subcommands and a following flag alone', () => {
    expect(redactArgs(['eks', 'get-token', '--region', 'eu-west-1', '--role-arn', 'arn:aws:iam::1:role/x'])).toEqual(['eks', 'get-token', '--region', 'eu-west-1', '--role-arn', 'arn:aws:iam::1:role/x']);
    expect(redactArgs(['--token', '--verbose'])).toEqual(['--token', '--verbose']);
    expect(redactArgs(['--api-key', 'k', '-secret', 'v'])).toEqual(['--api-key', '<redacted>', '-secret', '<redacted>']);
  });
});
