import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_DARK,
  BACKGROUND_LIGHT,
  createWindowOptions,
  DEFAULT_WINDOW_HEIGHT_PX,
  DEFAULT_WINDOW_WIDTH_PX,
  MIN_WINDOW_HEIGHT_PX,
  MIN_WINDOW_WIDTH_PX,
  RENDERER_CSP,
} from '../../../electron/desktop/window-options.ts';

const PRELOAD = '/app/out/preload/preload.cjs';

describe('createWindowOptions', () => {
  const options = createWindowOptions({ preloadPath: PRELOAD, darkBackground: false, iconPath: '/app/resources/icon.png' });
  const web = options.webPreferences ?? {};

  it('isolates the preload world from the page', () => expect(web.contextIsolation).toBe(true));
  it('sandboxes the renderer', () => expect(web.sandbox).toBe(true));
  it('gives the page no Node', () => expect(web.nodeIntegration).toBe(false));
  it('gives workers no Node', () => expect(web.nodeIntegrationInWorker).toBe(false));
  it('gives subframes no Node', () => expect(web.nodeIntegrationInSubFrames).toBe(false));
  it('keeps web security on', () => expect(web.webSecurity).toBe(true));
  it('refuses insecure content', () => expect(web.allowRunningInsecureContent).toBe(false));
  it('disables the webview tag', () => expect(web.webviewTag).toBe(false));
  it('disables the spellchecker (it sends words to a service on some platforms)', () => expect(web.spellcheck).toBe(false));
  it('loads the given preload', () => expect(web.preload).toBe(PRELOAD));

  it('stays hidden until ready-to-show', () => expect(options.show).toBe(false));
  it('is titled Kubedrift and carries the icon', () => {
    expect(options.title).toBe('Kubedrift');
    expect(options.icon).toBe('/app/resources/icon.png');
  });
  it('has a minimum size', () => {
    expect(options.minWidth).toBe(MIN_WINDOW_WIDTH_PX);
    expect(options.minHeight).toBe(MIN_WINDOW_HEIGHT_PX);
  });

  it('uses the first-run size and lets the OS place the window without bounds', () => {
    expect(options).toMatchObject({ width: DEFAULT_WINDOW_WIDTH_PX, height: DEFAULT_WINDOW_HEIGHT_PX });
    expect(options).not.toHaveProperty('x');
    expect(options).not.toHaveProperty('y');
  });

  it('applies restored bounds, never below the minimum size', () => {
    const restored = createWindowOptions({ preloadPath: PRELOAD, darkBackground: false, bounds: { x: 10, y: 20, width: 300, height: 900 } });
    expect(restored).toMatchObject({ x: 10, y: 20, width: MIN_WINDOW_WIDTH_PX, height: 900 });
  });

  it('paints the background of the system theme before the first frame', () => {
    expect(createWindowOptions({ preloadPath: PRELOAD, darkBackground: true }).backgroundColor).toBe(BACKGROUND_DARK);
    expect(createWindowOptions({ preloadPath: PRELOAD, darkBackground: false }).backgroundColor).toBe(BACKGROUND_LIGHT);
  });

  it('sets no icon when none is given', () => {
    expect(createWindowOptions({ preloadPath: PRELOAD, darkBackground: false })).not.toHaveProperty('icon');
  });
});

describe('RENDERER_CSP', () => {
  const directives = new Map(
    RENDERER_CSP.split(';').map((part) => {
      const [name = '', ...values] = part.trim().split(/\s+/);
      return [name, values.join(' ')] as const;
    }),
  );

  it.each([
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self' 'unsafe-inline'"],
    ['img-src', "'self' data: blob:"],
    ['connect-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'none'"],
    ['frame-ancestors', "'none'"],
  ])('sets %s to %s', (name, value) => {
    expect(directives.get(name)).toBe(value);
  });

  it('has no other directives and never allows eval or inline script', () => {
    expect(directives.size).toBe(9);
    expect(RENDERER_CSP).not.toContain('unsafe-eval');
    expect(directives.get('script-src')).not.toContain('unsafe-inline');
  });
});
