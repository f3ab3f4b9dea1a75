/**
 * The Electron app's lifecycle: one instance, one window, the engine behind the IPC contract.
 * Bundled to out/main/main.cjs; everything with logic lives in the small modules it imports.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, nativeTheme, powerMonitor, screen, session, shell, Tray } from 'electron';
import type { BackgroundStatus } from '../../shared/contracts/background.ts';
import type { Settings } from '../../shared/model.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import { createFileDialogs } from './file-dialogs.ts';
import { bindIpc } from './ipc-electron.ts';
import { readLaunchFlags, userDataDir } from './launch.ts';
import { buildMenuTemplate } from './menu.ts';
import {
  applyContentSecurityPolicy,
  createAppUrlMatcher,
  createExternalOpener,
  denyAllPermissions,
  guardNavigation,
} from './security.ts';
import { createWindowOptions, RENDERER_CSP } from './window-options.ts';
import { createDeclinedVersionStore, createUpdateAsker } from './update-prompts.ts';
import { startUpdates, type Updates } from './updates.ts';
import { runDesktopSmoke, smokeEngineOptions } from './smoke.ts';
import { createRecordingTray, keepRunningWithoutWindow } from './tray.ts';
import { captureWindowState, clampToDisplays, readWindowState, writeWindowState } from './window-state.ts';

// Paths are relative to this file's bundle, out/main/main.cjs.
const RENDERER_INDEX = path.join(__dirname, '../renderer/index.html');
const PRELOAD = path.join(__dirname, '../preload/preload.cjs');
const ICON = path.join(__dirname, 'icon.png');

function log(message: string): void {
  console.error(message);
}

const LAUNCHED_AT_MS = performance.now();
const flags = readLaunchFlags(process.argv);

app.setName('Kubedrift');
// Before `ready`: Chromium fixes its profile directory then. A smoke test gets a fresh one, so
// it neither reads nor changes the user's settings and history (and is removed on quit).
const smokeDataDir = flags.smokeTest ? mkdtempSync(path.join(os.tmpdir(), 'kubedrift-smoke-')) : undefined;
app.setPath('userData', smokeDataDir ?? userDataDir({ appData: app.getPath('appData'), env: process.env }));
// Every renderer sandboxed, including any the window options would forget.
app.enableSandbox();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  run().catch((error: unknown) => {
    log(`[kubedrift] startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    app.exit(1);
  });
}

async function run(): Promise<void> {
  await app.whenReady();
  const dataDir = app.getPath('userData');
  const engine = createEngine({
    version: app.getVersion(),
    dataDir,
    shell: 'desktop',
    electronVersion: process.versions.electron,
    ...(flags.smokeTest ? smokeEngineOptions({ dataDir }) : { kubeconfig: flags.kubeconfig, context: flags.context }),
    dialogs: createFileDialogs({ dialog, focusedWindow: () => BrowserWindow.getFocusedWindow(), defaultDir: () => app.getPath('documents') }),
  });
  const isAppUrl = createAppUrlMatcher(RENDERER_INDEX);
  const openExternal = createExternalOpener({ openExternal: (url) => shell.openExternal(url) });

  denyAllPermissions(session.defaultSession);
  applyContentSecurityPolicy(session.defaultSession, RENDERER_CSP);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({ platform: process.platform, isPackaged: app.isPackaged, appName: app.name, openExternal }),
    ),
  );

  if (!existsSync(RENDERER_INDEX)) {
    if (flags.smokeTest) {
      console.error(`kubedrift smoke-test: failed: there is no renderer at ${RENDERER_INDEX}`);
      app.exit(1);
      return;
    }
    dialog.showErrorBox('Kubedrift is not built', `There is no renderer at ${RENDERER_INDEX}. Run "npm run build" first.`);
    app.exit(1);
    return;
  }

  await engine.start().catch((error: unknown) => {
    // The window still opens: its requests answer with the errors the user needs to see.
    log(`[kubedrift] engine start failed: ${error instanceof Error ? error.message : String(error)}`);
  });

  // After sleep every watch connection is dead but may not know it yet: restart them now.
  powerMonitor.on('resume', () => engine.resume());

  let mainWindow: BrowserWindow | null = null;

  function createMainWindow(): BrowserWindow {
    const saved = clampToDisplays(
      readWindowState({ dir: dataDir, log }),
      screen.getAllDisplays().map((display) => display.workArea),
    );
    const win = new BrowserWindow(
      createWindowOptions({
        preloadPath: PRELOAD,
        bounds: saved,
        darkBackground: nativeTheme.shouldUseDarkColors,
        ...(existsSync(ICON) ? { iconPath: ICON } : {}),
      }),
    );
    guardNavigation(win.webContents, { isAppUrl, openExternal });
    const unbindIpc = bindIpc({ ipcMain, window: win, engine, isAppUrl, log });
    win.once('ready-to-show', () => {
      if (saved.maximized) win.maximize();
      win.show();
    });
    win.on('close', () => writeWindowState({ dir: dataDir, log }, captureWindowState(win)));
    win.on('closed', () => {
      unbindIpc();
      if (mainWindow === win) mainWindow = null;
    });
    win.loadFile(RENDERER_INDEX).catch((error: unknown) => {
      log(`[kubedrift] could not load ${RENDERER_INDEX}: ${error instanceof Error ? error.message : String(error)}`);
    });
    return win;
  }

  mainWindow = createMainWindow();
  let smokeExitCode: number | undefined;
  if (flags.smokeTest) {
    void smokeTest(mainWindow).then((code) => {
      smokeExitCode = code;
      app.quit();
    });
  } else if (app.isPackaged) {
    startUpdateChecks({ engine, dataDir, window: () => mainWindow }).catch((error: unknown) => {
      log(`[kubedrift] updates: could not start: ${error instanceof Error ? error.message : String(error)}`);
    });
  } else {
    log('[kubedrift] updates: not a packaged app; not checking for updates');
  }

  function openWindow(): void {
    if (!mainWindow) {
      mainWindow = createMainWindow();
      return;
    }
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  }
  app.on('second-instance', openWindow);

  // Contexts recording in the background keep the app running with its window closed (tray.ts).
  let background: BackgroundStatus = { contexts: [] };
  const tray = createRecordingTray({
    platform: process.platform,
    createTray: () => new Tray(nativeImage.createFromPath(ICON).resize({ width: 16, height: 16 })),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    openWindow,
    quit: () => app.quit(),
  });
  const followBackground = (status: BackgroundStatus): void => {
    background = status;
    if (!flags.smokeTest) tray.update(status);
  };
  engine.hub.listen((stream, payload) => stream === 'history:background' && followBackground(payload as BackgroundStatus));
  void engine.dispatch('history:background', {}).then((result) => result.ok && followBackground(result.value as BackgroundStatus));
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) mainWindow = createMainWindow();
  });
  app.on('window-all-closed', () => {
    if (!keepRunningWithoutWindow(process.platform, background)) app.quit();
  });

  let engineDisposed = false;
  app.on('will-quit', (event) => {
    if (engineDisposed) return;
    tray.destroy();
    // Hold the quit until the engine has closed its files, then quit for real.
    event.preventDefault();
    engine
      .dispose()
      .catch((error: unknown) => log(`[kubedrift] engine shutdown failed: ${String(error)}`))
      .finally(() => {
        engineDisposed = true;
        if (smokeExitCode === undefined) {
          app.quit();
          return;
        }
        try {
          if (smokeDataDir) rmSync(smokeDataDir, { recursive: true, force: true, maxRetries: 3 });
        } catch (error) {
          // Chromium may still hold its profile's files (Windows); a temp dir left behind is harmless.
          log(`[kubedrift] could not remove ${smokeDataDir}: ${String(error)}`);
        }
        app.exit(smokeExitCode);
      });
  });
}

/** `--smoke-test` (smoke.ts) on the app's window; resolves to the exit code. */
function smokeTest(win: BrowserWindow): Promise<number> {
  let failure: string | undefined;
  win.webContents.on('render-process-gone', (_event, details) => (failure = `the renderer process is gone (${details.reason})`));
  win.webContents.on('did-fail-load', (_event, code, description) => (failure = `the renderer did not load: ${description} (${code})`));
  return runDesktopSmoke({
    timeout: flags.smokeTimeout,
    executeJavaScript: (code) => win.webContents.executeJavaScript(code),
    failure: () => failure,
    startedAt: LAUNCHED_AT_MS,
    now: () => performance.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    print: (line) => console.log(line),
    printError: (line) => console.error(line),
  });
}

/**
 * A packaged app's update checks (updates.ts): electron-updater is loaded only here, so a
 * development build never touches it. "Check for updates" is read from the engine's settings
 * and followed as they change; the status goes out on the contract's `updates:status` stream.
 */
async function startUpdateChecks(options: { engine: Engine; dataDir: string; window: () => BrowserWindow | null }): Promise<void> {
  const { engine } = options;
  let enabled = true;
  // Filled once electron-updater is loaded; settings may change before that.
  const started: { updates?: Updates } = {};
  const follow = (settings: Settings): void => {
    const was = enabled;
    enabled = settings.updateChecks !== false;
    // Switched back on: check now rather than at the next scheduled time, hours away.
    if (enabled && !was) void started.updates?.check();
  };
  engine.hub.listen((stream, payload) => {
    if (stream === 'settings:changed') follow(payload as Settings);
  });
  const current = await engine.dispatch('settings:get', {});
  if (current.ok) follow(current.value as Settings);

  // electron-updater is CommonJS and defines `autoUpdater` with a getter Node's ESM loader does
  // not see as a named export: it is reached through the module object, `default`.
  const { autoUpdater } = (await import('electron-updater')).default;
  // An EventEmitter throws an 'error' event nobody listens to; updates.ts reports the failure.
  autoUpdater.on('error', () => undefined);
  started.updates = startUpdates({
    updater: autoUpdater,
    isPackaged: app.isPackaged,
    currentVersion: app.getVersion(),
    enabled: () => enabled,
    declined: createDeclinedVersionStore({ dir: options.dataDir, log }),
    ask: createUpdateAsker({ dialog, window: options.window }),
    report: (status) => engine.hub.emit('updates:status', status),
    log,
  });
}
