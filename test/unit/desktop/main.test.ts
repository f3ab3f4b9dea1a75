import { existsSync, readFileSync } from 'node:fs';
import type * as NodeFs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StreamHub } from '../../../electron/engine/hub.ts';
import { DEFAULT_SETTINGS } from '../../../electron/engine/settings.ts';
import { REQUEST_CHANNELS } from '../../../shared/contract.ts';
import { withTempDir } from '../../helpers/tmp.ts';

type Handler = (...args: unknown[]) => unknown;

/** A recording stand-in for the parts of Electron main.ts uses. */
function fakeElectron(options: { dataRoot: string; gotLock: boolean }) {
  const appEvents = new Map<string, Handler>();
  const powerEvents = new Map<string, Handler>();
  const paths = new Map<string, string>([['appData', options.dataRoot]]);
  const windows: FakeWindow[] = [];
  const trays: Array<{ setContextMenu: { mock: { calls: unknown[][] } }; destroy: () => void }> = [];
  const app = {
    name: 'Kubedrift',
    isPackaged: packaged.value,
    setName: vi.fn(),
    getPath: (name: string) => paths.get(name) ?? path.join(options.dataRoot, name),
    setPath: vi.fn((name: string, value: string) => paths.set(name, value)),
    enableSandbox: vi.fn(),
    requestSingleInstanceLock: () => options.gotLock,
    whenReady: () => Promise.resolve(),
    getVersion: () => '1.2.3',
    quit: vi.fn(),
    exit: vi.fn(),
    on: (event: string, handler: Handler) => appEvents.set(event, handler),
  };
  class FakeWindow {
    readonly events = new Map<string, Handler>();
    readonly webContents = {
      mainFrame: { url: '', processId: 1, frameToken: 'main' },
      on: vi.fn(),
      setWindowOpenHandler: vi.fn(),
      isDestroyed: () => false,
      send: vi.fn(),
      // What the renderer reports to a smoke test (shared/smoke.ts's probe).
      executeJavaScript: vi.fn(async (_code: string) => smokeReport.value),
    };
    readonly show = vi.fn();
    readonly maximize = vi.fn();
    readonly focus = vi.fn();
    readonly loadFile = vi.fn(async (_file: string) => {});
    readonly options: Record<string, unknown>;
    constructor(options: Record<string, unknown>) {
      this.options = options;
      windows.push(this);
    }
    static getAllWindows = () => windows.filter((win) => !win.closed);
    closed = false;
    on(event: string, handler: Handler) {
      this.events.set(event, handler);
      return this;
    }
    once(event: string, handler: Handler) {
      return this.on(event, handler);
    }
    isDestroyed = () => this.closed;
    isMinimized = () => false;
    restore = vi.fn();
    getNormalBounds = () => ({ x: 40, y: 30, width: 1100, height: 720 });
    isMaximized = () => false;
  }
  const handles = new Map<string, Handler>();
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    dialog: { showErrorBox: vi.fn(), showMessageBox: vi.fn(async () => ({ response: 1 })) },
    ipcMain: { handle: vi.fn((channel: string, h: Handler) => handles.set(channel, h)), removeHandler: vi.fn((c: string) => handles.delete(c)) },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => ({ template })), setApplicationMenu: vi.fn() },
    nativeTheme: { shouldUseDarkColors: true },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: {
      defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn(), webRequest: { onHeadersReceived: vi.fn() } },
    },
    shell: { openExternal: vi.fn(async () => {}) },
    powerMonitor: { on: (event: string, handler: Handler) => powerEvents.set(event, handler) },
    nativeImage: { createFromPath: vi.fn(() => ({ resize: () => ({ icon: true }) })) },
    Tray: class {
      constructor() {
        trays.push(this);
      }
      readonly setToolTip = vi.fn();
      readonly setContextMenu = vi.fn();
      readonly on = vi.fn();
      readonly destroy = vi.fn();
    },
  };
  return { electron, appEvents, windows, handles, powerEvents, trays };
}

/** Whether the fake app is packaged (a packaged app checks for updates). */
const packaged = { value: true };
/** What the window's renderer answers the smoke test's probe. */
const smokeReport: { value: unknown } = { value: null };
let fake: ReturnType<typeof fakeElectron>;
let dataRoot: string;
let cleanup: () => Promise<void>;
const engine = {
  hub: new StreamHub(),
  dispatch: vi.fn(async (channel: unknown) => (channel === 'settings:get' ? { ok: true, value: { ...DEFAULT_SETTINGS, updateChecks: false } } : { ok: false })),
  start: vi.fn(async () => {}), dispose: vi.fn(async () => {}), resume: vi.fn() };
const createEngine = vi.fn((_options: Record<string, unknown>) => engine);

// One stable module whose exports read the current test's fake: vi.resetModules re-runs
// main.ts but keeps the mocked module.
vi.mock('electron', () =>
  Object.fromEntries(
    ['app', 'BrowserWindow', 'dialog', 'ipcMain', 'Menu', 'nativeImage', 'nativeTheme', 'powerMonitor', 'screen', 'session', 'shell', 'Tray'].map((name) => [
      name,
      new Proxy(function () {}, {
        get: (_target, key) => Reflect.get(Reflect.get(fake.electron, name) as object, key),
        construct: (_target, args) => Reflect.construct(Reflect.get(fake.electron, name) as new (...a: unknown[]) => object, args),
      }),
    ]),
  ),
);
vi.mock('../../../electron/engine/engine.ts', () => ({ createEngine }));
// electron-updater stands in for the release feed; loadedUpdater counts how often main.ts loads it.
const updater = { autoDownload: true, autoInstallOnAppQuit: true, on: vi.fn(), checkForUpdates: vi.fn(async () => null), downloadUpdate: vi.fn(), quitAndInstall: vi.fn() };
const loadedUpdater = vi.fn();
vi.mock('electron-updater', () => {
  loadedUpdater();
  return { default: { autoUpdater: updater } };
});
// Under Vitest main.ts's __dirname is electron/desktop/, not out/main/: whether "the build" exists is
// decided here instead of by the files next to the source.
const build = { present: true };
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof NodeFs>();
  const existsSync = (file: string) => (/index\.html$/.test(file) ? build.present : actual.existsSync(file));
  return { ...actual, existsSync, default: { ...actual, existsSync } };
});

async function startMain(argv: string[] = [], gotLock = true): Promise<void> {
  fake = fakeElectron({ dataRoot, gotLock });
  const saved = process.argv;
  process.argv = [...saved.slice(0, 2), ...argv];
  try {
    await import('../../../electron/desktop/main.ts');
  } finally {
    process.argv = saved;
  }
  if (gotLock) await vi.waitFor(() => expect(fake.windows).toHaveLength(1));
}

beforeEach(async () => {
  ({ dir: dataRoot, cleanup } = await withTempDir());
  vi.resetModules();
  vi.clearAllMocks();
  vi.stubEnv('KUBEDRIFT_DATA_DIR', '');
  build.present = true;
  packaged.value = true;
  smokeReport.value = null;
  Object.assign(updater, { autoDownload: true, autoInstallOnAppQuit: true });
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await cleanup();
});

describe('electron/desktop/main.ts', () => {
  it('restarts every watch when the machine wakes from sleep', async () => {
    await startMain();
    expect(engine.resume).not.toHaveBeenCalled();
    fake.powerEvents.get('resume')?.();
    expect(engine.resume).toHaveBeenCalledOnce();
  });

  it('quits at once when another instance holds the lock', async () => {
    await startMain([], false);
    expect(fake.electron.app.quit).toHaveBeenCalledOnce();
    expect(fake.windows).toHaveLength(0);
    expect(createEngine).not.toHaveBeenCalled();
  });

  it('tells the user to build first when there is no renderer, and opens no window', async () => {
    build.present = false;
    fake = fakeElectron({ dataRoot, gotLock: true });
    await import('../../../electron/desktop/main.ts');
    await vi.waitFor(() => expect(fake.electron.app.exit).toHaveBeenCalledWith(1));
    expect(fake.electron.dialog.showErrorBox).toHaveBeenCalledWith('Kubedrift is not built', expect.stringContaining('npm run build'));
    expect(fake.windows).toHaveLength(0);
    expect(engine.start).not.toHaveBeenCalled();
  });

  it('starts the engine for the desktop shell with the command-line context', async () => {
    await startMain(['--context', 'kind-dev']);
    const userData = path.join(dataRoot, 'Kubedrift');
    expect(fake.electron.app.setPath).toHaveBeenCalledWith('userData', userData);
    expect(fake.electron.app.enableSandbox).toHaveBeenCalledOnce();
    expect(createEngine).toHaveBeenCalledWith(
      expect.objectContaining({ version: '1.2.3', dataDir: userData, shell: 'desktop', context: 'kind-dev', kubeconfig: undefined }),
    );
    expect(engine.start).toHaveBeenCalledOnce();
  });

  it('opens one sandboxed window on the built renderer, behind the IPC contract and the guards', async () => {
    await startMain();
    const [win] = fake.windows;
    const web = win?.options['webPreferences'] as Record<string, unknown>;
    expect(web).toMatchObject({ sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(String(web['preload'])).toMatch(/preload[\\/]preload\.cjs$/);
    expect(win?.options['backgroundColor']).toBe('#14161a');
    expect(String(win?.loadFile.mock.calls[0]?.[0])).toMatch(/renderer[\\/]index\.html$/);
    expect([...fake.handles.keys()]).toEqual(expect.arrayContaining(REQUEST_CHANNELS.map((channel) => `kubedrift:${channel}`)));
    expect(win?.webContents.setWindowOpenHandler).toHaveBeenCalledOnce();
    expect(win?.webContents.on).toHaveBeenCalledWith('will-navigate', expect.any(Function));
    const session = fake.electron.session.defaultSession;
    expect(session.setPermissionRequestHandler).toHaveBeenCalledOnce();
    expect(session.setPermissionCheckHandler).toHaveBeenCalledOnce();
    expect(session.webRequest.onHeadersReceived).toHaveBeenCalledOnce();
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalledOnce();
  });

  it('shows the window when ready and saves its bounds on close', async () => {
    await startMain();
    const [win] = fake.windows;
    expect(win?.show).not.toHaveBeenCalled();
    win?.events.get('ready-to-show')?.();
    expect(win?.show).toHaveBeenCalledOnce();
    win?.events.get('close')?.();
    const saved = JSON.parse(readFileSync(path.join(dataRoot, 'Kubedrift', 'window-state.json'), 'utf8'));
    expect(saved).toEqual({ x: 40, y: 30, width: 1100, height: 720, maximized: false });
  });

  it('removes the IPC handlers when the window is closed and re-creates it on activate', async () => {
    await startMain();
    const [win] = fake.windows;
    if (win) win.closed = true;
    win?.events.get('closed')?.();
    expect(fake.handles.size).toBe(0);
    fake.appEvents.get('activate')?.();
    expect(fake.windows).toHaveLength(2);
    expect(fake.handles.size).toBeGreaterThan(0);
  });

  it('disposes the engine before quitting', async () => {
    await startMain();
    const event = { preventDefault: vi.fn() };
    fake.appEvents.get('will-quit')?.(event);
    expect(event.preventDefault).toHaveBeenCalledOnce();
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalledOnce());
    expect(engine.dispose).toHaveBeenCalledOnce();
    const second = { preventDefault: vi.fn() };
    fake.appEvents.get('will-quit')?.(second);
    expect(second.preventDefault).not.toHaveBeenCalled();
  });

  it('a packaged app sets electron-updater to ask first: no automatic download, no install on quit', async () => {
    await startMain();
    await vi.waitFor(() => expect(updater.autoDownload).toBe(false));
    expect(updater.autoInstallOnAppQuit).toBe(false);
    expect(updater.on).toHaveBeenCalledWith('error', expect.any(Function));
    expect(engine.dispatch).toHaveBeenCalledWith('settings:get', {});
  });

  it('checks at once when "Check for updates" is switched back on in Settings', async () => {
    await startMain();
    await vi.waitFor(() => expect(updater.autoDownload).toBe(false));
    expect(updater.checkForUpdates).not.toHaveBeenCalled();
    engine.hub.emit('settings:changed', { ...DEFAULT_SETTINGS, updateChecks: true });
    await vi.waitFor(() => expect(updater.checkForUpdates).toHaveBeenCalled());
  });

  it('an app that is not packaged never loads electron-updater', async () => {
    packaged.value = false;
    await startMain();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(loadedUpdater).not.toHaveBeenCalled();
    expect(updater.autoDownload).toBe(true);
  });

  it('--smoke-test opens the window on the demo cluster with a fresh data dir, prints the line and exits 0 once the engine is disposed', async () => {
    const print = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    smokeReport.value = { context: 'kubedrift-demo', workloads: 18 };
    await startMain(['--smoke-test']);
    const options = createEngine.mock.calls[0]?.[0] ?? {};
    const dataDir = String(options['dataDir']);
    expect(path.basename(dataDir)).toMatch(/^kubedrift-smoke-/);
    expect(options).toMatchObject({ context: 'kubedrift-demo', kubeconfig: path.join(dataDir, 'no-kubeconfig'), watchKubeconfig: false });
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalledOnce());
    expect(print).toHaveBeenCalledWith(expect.stringMatching(/^kubedrift smoke-test: overview live on kubedrift-demo \(18 workloads\) in \d+ ms$/));

    fake.appEvents.get('will-quit')?.({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.electron.app.exit).toHaveBeenCalledWith(0));
    expect(engine.dispose).toHaveBeenCalledOnce();
    expect(existsSync(dataDir)).toBe(false);
    expect(loadedUpdater).not.toHaveBeenCalled();
    print.mockRestore();
  });

  it.skipIf(process.platform === 'darwin')('closing the last window quits, unless contexts record in the background: then a tray icon stays, whose menu reopens the window or quits', async () => {
    // A hub of its own: earlier tests' main.ts instances still listen on the shared one.
    engine.hub = new StreamHub();
    await startMain();
    fake.appEvents.get('window-all-closed')?.();
    expect(fake.electron.app.quit).toHaveBeenCalledOnce();
    expect(fake.trays).toHaveLength(0);
    engine.hub.emit('history:background', { contexts: [{ context: 'staging-eu', state: 'recording', recordingSince: 1, lastError: null, retryAt: null }] });
    expect(fake.trays).toHaveLength(1);
    fake.windows[0]?.events.get('closed')?.();
    fake.appEvents.get('window-all-closed')?.();
    expect(fake.electron.app.quit).toHaveBeenCalledOnce();
    const menu = (fake.trays[0]?.setContextMenu.mock.calls.at(-1)?.[0] as { template: Array<{ label?: string; click?: () => void }> }).template;
    menu.find((item) => item.label === 'Open Kubedrift')?.click?.();
    expect(fake.windows).toHaveLength(2);
    menu.find((item) => item.label === 'Quit Kubedrift')?.click?.();
    expect(fake.electron.app.quit).toHaveBeenCalledTimes(2);
  });

  it('--smoke-test exits 1 with the reason when the Overview does not go live in time', async () => {
    const printError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await startMain(['--smoke-test', '--smoke-timeout', '0.2']);
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalledOnce());
    expect(printError).toHaveBeenCalledWith(expect.stringMatching(/^kubedrift smoke-test: failed after \d+ ms: the Overview did not go live within 200 ms$/));
    fake.appEvents.get('will-quit')?.({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(fake.electron.app.exit).toHaveBeenCalledWith(1));
    printError.mockRestore();
  });
});
