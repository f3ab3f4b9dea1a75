/**
 * The main window's construction options and the renderer's Content Security Policy. Pure, so
 * every security-relevant option is pinned by a unit test instead of by review.
 */
import type { BrowserWindowConstructorOptions, Rectangle } from 'electron';

/** Smallest size at which the sidebar and a chart still fit side by side. */
export const MIN_WINDOW_WIDTH_PX = 960;
export const MIN_WINDOW_HEIGHT_PX = 600;
/** First-run size; the OS centres the window when no position is given. */
export const DEFAULT_WINDOW_WIDTH_PX = 1280;
export const DEFAULT_WINDOW_HEIGHT_PX = 800;

/**
 * Painted before the first frame so a dark desktop does not flash white (and a light one black);
 * keep them in step with the renderer's page background colours.
 */
export const BACKGROUND_DARK = '#14161a';
export const BACKGROUND_LIGHT = '#ffffff';

export interface WindowOptionsInput {
  /** Absolute path of the bundled preload (out/preload/preload.cjs). */
  preloadPath: string;
  /** Restored bounds; without `x`/`y` the OS places the window. Defaults to the first-run size. */
  bounds?: Partial<Rectangle> & Pick<Rectangle, 'width' | 'height'>;
  /** `nativeTheme.shouldUseDarkColors`, passed in so this stays pure. */
  darkBackground: boolean;
  /** Window icon (Linux and Windows use it; macOS takes the bundle's icon). */
  iconPath?: string;
}

/**
 * Options for the one app window: isolated, sandboxed, no Node in the page, no webviews, and
 * hidden until `ready-to-show` so the user never sees an empty frame.
 */
export function createWindowOptions(input: WindowOptionsInput): BrowserWindowConstructorOptions {
  const bounds = input.bounds ?? { width: DEFAULT_WINDOW_WIDTH_PX, height: DEFAULT_WINDOW_HEIGHT_PX };
  const position = bounds.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {};
  return {
    title: 'Kubedrift',
    ...position,
    width: Math.max(bounds.width, MIN_WINDOW_WIDTH_PX),
    height: Math.max(bounds.height, MIN_WINDOW_HEIGHT_PX),
    minWidth: MIN_WINDOW_WIDTH_PX,
    minHeight: MIN_WINDOW_HEIGHT_PX,
    show: false,
    backgroundColor: input.darkBackground ? BACKGROUND_DARK : BACKGROUND_LIGHT,
    ...(input.iconPath === undefined ? {} : { icon: input.iconPath }),
    webPreferences: {
      preload: input.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: false,
    },
  };
}

/**
 * CSP of the desktop renderer. Everything comes from the app's own files; the page talks to the
 * engine over IPC only, so `connect-src` needs no network origin (unlike the browser shell, which
 * adds its WebSocket). `'unsafe-inline'` styles are for Vue's and ECharts' style attributes.
 */
export const RENDERER_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
