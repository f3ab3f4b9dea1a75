/**
 * Guards around the renderer. Even if a bug lets a page run hostile script, it cannot navigate
 * the app window elsewhere, open new windows, get device permissions, or hand the OS anything
 * but an https link. Each guard takes its Electron object as a parameter so tests pass fakes.
 */
import { pathToFileURL } from 'node:url';

/** Whether a URL may be handed to the OS: https only (no file:, no custom schemes, no http). */
export function isSafeExternalUrl(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export interface ExternalOpenerOptions {
  /** `shell.openExternal`. */
  openExternal: (url: string) => Promise<void>;
  log?: (message: string) => void;
}

/**
 * Returns the only way the app opens links: https URLs go to the user's browser, anything else
 * is refused and logged. Returns whether the URL was passed on.
 */
export function createExternalOpener(options: ExternalOpenerOptions): (url: string) => boolean {
  const log = options.log ?? ((message: string) => console.error(message));
  return (url) => {
    if (!isSafeExternalUrl(url)) {
      log(`[kubedrift] refused to open ${url.slice(0, 200)}: only https links open outside the app`);
      return false;
    }
    options.openExternal(url).catch((error: unknown) => {
      log(`[kubedrift] could not open ${url}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return true;
  };
}

/**
 * Matches the app's own page (the file URL of out/renderer/index.html), ignoring query and hash
 * so client-side routing stays inside the app.
 */
export function createAppUrlMatcher(indexHtmlPath: string): (url: string) => boolean {
  const expected = pathToFileURL(indexHtmlPath).href;
  return (url) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'file:') return false;
    parsed.hash = '';
    parsed.search = '';
    return parsed.href === expected;
  };
}

/** The parts of `WebContents` the navigation guard uses. */
export interface GuardedContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface NavigationGuardOptions {
  /** True for the app's own page; see `createAppUrlMatcher`. */
  isAppUrl: (url: string) => boolean;
  /** The https-only opener from `createExternalOpener`. */
  openExternal: (url: string) => boolean;
}

/**
 * Keeps the window on the app's page: other navigations are cancelled and new windows denied.
 * A link the user follows (an https one) opens in their browser instead, which is what they meant.
 */
export function guardNavigation(contents: GuardedContents, options: NavigationGuardOptions): void {
  contents.on('will-navigate', (event, url) => {
    if (options.isAppUrl(url)) return;
    event.preventDefault();
    options.openExternal(url);
  });
  contents.setWindowOpenHandler(({ url }) => {
    options.openExternal(url);
    return { action: 'deny' };
  });
}

/** The parts of `Session` the permission lock uses. */
export interface PermissionSession {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string) => boolean): void;
}

/**
 * Denies every permission (camera, notifications, clipboard read, HID, ...): a cluster dashboard
 * needs none, and Electron grants them all by default.
 */
export function denyAllPermissions(session: PermissionSession): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** The parts of `Session` the CSP injection uses. */
export interface HeaderSession {
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { url: string; responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Record<string, string | string[]> }) => void,
      ) => void,
    ): void;
  };
}

/**
 * Sends `csp` as the Content-Security-Policy of every file: response, i.e. the app's own pages.
 * Other schemes (DevTools' own pages among them) keep their headers.
 */
export function applyContentSecurityPolicy(session: HeaderSession, csp: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!details.url.startsWith('file:')) {
      callback({});
      return;
    }
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(details.responseHeaders ?? {})) {
      if (name.toLowerCase() !== 'content-security-policy') headers[name] = value;
    }
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
}
