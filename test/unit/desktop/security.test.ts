import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  applyContentSecurityPolicy,
  createAppUrlMatcher,
  createExternalOpener,
  denyAllPermissions,
  guardNavigation,
  isSafeExternalUrl,
  type GuardedContents,
  type HeaderSession,
  type PermissionSession,
} from '../../../electron/desktop/security.ts';

const INDEX = path.resolve('/opt/Kubedrift/out/renderer/index.html');
const APP_URL = pathToFileURL(INDEX).href;

function fakeContents() {
  let navigate: ((event: { preventDefault(): void }, url: string) => void) | undefined;
  let windowOpen: ((details: { url: string }) => { action: 'deny' }) | undefined;
  const contents: GuardedContents = {
    on: (_event, listener) => (navigate = listener),
    setWindowOpenHandler: (handler) => (windowOpen = handler),
  };
  return {
    contents,
    navigateTo(url: string) {
      const event = { preventDefault: vi.fn() };
      navigate?.(event, url);
      return event.preventDefault.mock.calls.length > 0 ? 'prevented' : 'allowed';
    },
    open: (url: string) => windowOpen?.({ url }),
  };
}

describe('isSafeExternalUrl', () => {
  it.each(['https://kubernetes.io/docs/', 'HTTPS://example.com'])('passes %s', (url) => expect(isSafeExternalUrl(url)).toBe(true));
  it.each(['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'not a url', ''])(
    'refuses %s',
    (url) => expect(isSafeExternalUrl(url)).toBe(false),
  );
});

describe('createExternalOpener', () => {
  it('hands https URLs to the OS', () => {
    const openExternal = vi.fn(async () => {});
    expect(createExternalOpener({ openExternal, log: () => {} })('https://kubernetes.io/')).toBe(true);
    expect(openExternal).toHaveBeenCalledExactlyOnceWith('https://kubernetes.io/');
  });

  it.each(['http://kubernetes.io/', 'file:///etc/passwd', 'javascript:alert(1)'])('never hands %s to the OS', (url) => {
    const openExternal = vi.fn(async () => {});
    const log = vi.fn();
    expect(createExternalOpener({ openExternal, log })(url)).toBe(false);
    expect(openExternal).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledOnce();
  });

  it('logs when the OS fails to open a link', async () => {
    const log = vi.fn();
    createExternalOpener({ openExternal: async () => Promise.reject(new Error('no browser')), log })('https://x.example/');
    await vi.waitFor(() => expect(log).toHaveBeenCalledWith(expect.stringContaining('no browser')));
  });
});

describe('createAppUrlMatcher', () => {
  const isAppUrl = createAppUrlMatcher(INDEX);
  it('matches the app page, with any route in hash or query', () => {
    expect(isAppUrl(APP_URL)).toBe(true);
    expect(isAppUrl(`${APP_URL}#/timeline`)).toBe(true);
    expect(isAppUrl(`${APP_URL}?view=diff`)).toBe(true);
  });
  it('refuses other files and other schemes', () => {
    expect(isAppUrl(pathToFileURL(path.resolve('/opt/Kubedrift/out/renderer/other.html')).href)).toBe(false);
    expect(isAppUrl(pathToFileURL(path.resolve('/tmp/index.html')).href)).toBe(false);
    expect(isAppUrl('https://evil.example/out/renderer/index.html')).toBe(false);
    expect(isAppUrl('garbage')).toBe(false);
  });
});

describe('guardNavigation', () => {
  function guarded() {
    const fake = fakeContents();
    const openExternal = vi.fn((url: string) => isSafeExternalUrl(url));
    guardNavigation(fake.contents, { isAppUrl: createAppUrlMatcher(INDEX), openExternal });
    return { ...fake, openExternal };
  }

  it('lets the window load its own page', () => {
    const { navigateTo, openExternal } = guarded();
    expect(navigateTo(`${APP_URL}#/settings`)).toBe('allowed');
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('prevents navigation to any other URL and sends it to the opener instead', () => {
    const { navigateTo, openExternal } = guarded();
    expect(navigateTo('https://evil.example/')).toBe('prevented');
    expect(navigateTo('file:///etc/passwd')).toBe('prevented');
    expect(navigateTo('http://127.0.0.1:8001/')).toBe('prevented');
    expect(openExternal.mock.calls.map(([url]) => url)).toEqual(['https://evil.example/', 'file:///etc/passwd', 'http://127.0.0.1:8001/']);
  });

  it('denies every window.open, passing the URL to the https-only opener', () => {
    const { open, openExternal } = guarded();
    expect(open('https://kubernetes.io/')).toEqual({ action: 'deny' });
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(open(APP_URL)).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(3);
  });

  it('with the real opener, only https reaches the OS', () => {
    const fake = fakeContents();
    const shellOpen = vi.fn(async (_url: string) => {});
    const openExternal = createExternalOpener({ openExternal: shellOpen, log: () => {} });
    guardNavigation(fake.contents, { isAppUrl: createAppUrlMatcher(INDEX), openExternal });
    fake.open('https://kubernetes.io/');
    fake.open('http://kubernetes.io/');
    fake.open('file:///etc/passwd');
    fake.navigateTo('javascript:alert(1)');
    fake.navigateTo('https://github.com/');
    expect(shellOpen.mock.calls.map(([url]) => url)).toEqual(['https://kubernetes.io/', 'https://github.com/']);
  });
});

describe('denyAllPermissions', () => {
  it('answers every permission request and check with no', () => {
    let request: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let check: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    denyAllPermissions({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) });
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal', 'hid']) {
      const callback = vi.fn();
      request?.({}, permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
      expect(check?.({}, permission)).toBe(false);
    }
  });
});

describe('applyContentSecurityPolicy', () => {
  function install() {
    let listener: Parameters<HeaderSession['webRequest']['onHeadersReceived']>[0] | undefined;
    applyContentSecurityPolicy({ webRequest: { onHeadersReceived: (l) => (listener = l) } }, "default-src 'self'");
    return (details: { url: string; responseHeaders?: Record<string, string[]> }) => {
      const callback = vi.fn();
      listener?.(details, callback);
      return callback.mock.calls[0]?.[0];
    };
  }

  it('sets the policy on the app page, replacing any other', () => {
    const respond = install();
    expect(respond({ url: APP_URL, responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } })).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': ["default-src 'self'"] },
    });
    expect(respond({ url: APP_URL })).toEqual({ responseHeaders: { 'Content-Security-Policy': ["default-src 'self'"] } });
  });

  it('leaves responses of other schemes (DevTools among them) unchanged', () => {
    const respond = install();
    expect(respond({ url: 'devtools://devtools/bundled/devtools_app.html', responseHeaders: { a: ['b'] } })).toEqual({});
  });
});
