/**
 * The application menu as a plain template. Pure: main.ts turns it into a Menu, tests read it.
 * Developer entries (reload, devtools) exist only in unpackaged builds, so a shipped app has no
 * menu path to a console that could run script in the renderer.
 */
import type { MenuItemConstructorOptions } from 'electron';

/** A Help menu entry; its `url` must be https, since it is opened in the user's browser. */
export interface HelpLink {
  label: string;
  url: string;
}

/** Kubedrift has no web site yet; Help points to the documentation of the concepts it shows. */
export const HELP_LINKS: readonly HelpLink[] = [
  { label: 'Kubernetes Documentation', url: 'https://kubernetes.io/docs/home/' },
  { label: 'Objects: spec and status', url: 'https://kubernetes.io/docs/concepts/overview/working-with-objects/' },
];

export interface MenuTemplateOptions {
  /** `process.platform`: macOS gets the app menu and its Window conventions. */
  platform: NodeJS.Platform;
  /** `app.isPackaged`: hides reload and developer tools in shipped builds. */
  isPackaged: boolean;
  appName: string;
  /** Opens a URL in the user's browser; main passes the https-only opener from security.ts. */
  openExternal: (url: string) => void;
  helpLinks?: readonly HelpLink[];
}

const SEPARATOR: MenuItemConstructorOptions = { type: 'separator' };

function appMenu(appName: string): MenuItemConstructorOptions {
  return {
    label: appName,
    submenu: [
      { role: 'about' },
      SEPARATOR,
      { role: 'services' },
      SEPARATOR,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      SEPARATOR,
      { role: 'quit' },
    ],
  };
}

function viewMenu(isPackaged: boolean): MenuItemConstructorOptions {
  const developer: MenuItemConstructorOptions[] = isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, SEPARATOR];
  return {
    label: 'View',
    submenu: [
      ...developer,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      SEPARATOR,
      { role: 'togglefullscreen' },
    ],
  };
}

/** Builds the menu template for `Menu.buildFromTemplate`. */
export function buildMenuTemplate(options: MenuTemplateOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const links = options.helpLinks ?? HELP_LINKS;
  return [
    ...(mac ? [appMenu(options.appName)] : []),
    // On macOS Quit lives in the app menu and File closes the window, as every Mac app does.
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        SEPARATOR,
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
      ],
    },
    viewMenu(options.isPackaged),
    {
      label: 'Window',
      submenu: mac
        ? [{ role: 'minimize' }, { role: 'zoom' }, SEPARATOR, { role: 'front' }]
        : [{ role: 'minimize' }, { role: 'close' }],
    },
    {
      role: 'help',
      submenu: links.map((link) => ({ label: link.label, click: () => options.openExternal(link.url) })),
    },
  ];
}
