import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readLaunchFlags, userDataDir } from '../../../electron/desktop/launch.ts';

describe('readLaunchFlags', () => {
  it('reads --kubeconfig and --context in both spellings, resolving the file', () => {
    expect(readLaunchFlags(['/opt/electron', '.', '--kubeconfig', 'conf/dev.yaml', '--context=kind-dev'])).toEqual({
      kubeconfig: path.resolve('conf/dev.yaml'),
      context: 'kind-dev',
    });
    expect(readLaunchFlags(['/Applications/Kubedrift', '--kubeconfig=/k/config', '--context', 'prod'])).toEqual({
      kubeconfig: '/k/config',
      context: 'prod',
    });
  });

  it('ignores Chromium switches, the app path and flags without a value', () => {
    expect(readLaunchFlags(['/opt/electron', '/app', '--enable-logging', '--context', '--no-sandbox', '--kubeconfig='])).toEqual({});
  });

  it('lets the last occurrence win', () => {
    expect(readLaunchFlags(['--context', 'a', '--context=b'])).toEqual({ context: 'b' });
  });

  it('reads --smoke-test and --smoke-timeout among Chromium switches', () => {
    expect(readLaunchFlags(['/opt/Kubedrift/kubedrift', '--no-sandbox', '--smoke-test', '--smoke-timeout', '90'])).toEqual({ smokeTest: true, smokeTimeout: '90' });
    expect(readLaunchFlags(['/opt/Kubedrift/kubedrift', '--smoke-timeout=5', '--smoke-test'])).toEqual({ smokeTest: true, smokeTimeout: '5' });
    expect(readLaunchFlags(['/opt/Kubedrift/kubedrift', '--smoke-testing'])).toEqual({});
  });
});

describe('userDataDir', () => {
  it('is "Kubedrift" in the app data folder, as for kubedrift serve', () => {
    expect(userDataDir({ appData: '/home/me/.config', env: {} })).toBe(path.join('/home/me/.config', 'Kubedrift'));
  });

  it('honours KUBEDRIFT_DATA_DIR', () => {
    expect(userDataDir({ appData: '/home/me/.config', env: { KUBEDRIFT_DATA_DIR: 'data' } })).toBe(path.resolve('data'));
  });
});
