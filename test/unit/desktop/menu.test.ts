import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate, HELP_LINKS, type MenuTemplateOptions } from '../../../electron/desktop/menu.ts';

function template(overrides: Partial<MenuTemplateOptions> = {}): MenuItemConstructorOptions[] {
  return buildMenuTemplate({ platform: 'linux', isPackaged: true, appName: 'Kubedrift', openExternal: () => {}, ...overrides });
}

function items(menu: MenuItemConstructorOptions): MenuItemConstructorOptions[] {
  return Array.isArray(menu.submenu) ? (menu.submenu as MenuItemConstructorOptions[]) : [];
}

function allRoles(menus: MenuItemConstructorOptions[]): string[] {
  return menus.flatMap((menu) => [menu.role ?? '', ...allRoles(items(menu))]).filter((role) => role !== '');
}

function byLabel(menus: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions {
  const found = menus.find((menu) => menu.label === label);
  if (!found) throw new Error(`no ${label} menu in ${menus.map((menu) => menu.label ?? menu.role).join(', ')}`);
  return found;
}

describe('buildMenuTemplate', () => {
  it('has no reload or developer tools when packaged', () => {
    const roles = allRoles(template({ isPackaged: true }));
    expect(roles).not.toContain('toggleDevTools');
    expect(roles).not.toContain('reload');
    expect(roles).not.toContain('forceReload');
  });

  it('offers reload and developer tools in development', () => {
    const view = items(byLabel(template({ isPackaged: false }), 'View')).map((item) => item.role);
    expect(view).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']));
  });

  it('always offers zoom and full screen', () => {
    const view = items(byLabel(template(), 'View')).map((item) => item.role);
    expect(view).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']));
  });

  it('quits from File outside macOS', () => {
    const menus = template({ platform: 'win32' });
    expect(menus.map((menu) => menu.label ?? menu.role)).toEqual(['File', 'Edit', 'View', 'Window', 'help']);
    expect(items(byLabel(menus, 'File')).map((item) => item.role)).toEqual(['quit']);
  });

  it('puts the app menu first on macOS, with Quit there and Close in File', () => {
    const menus = template({ platform: 'darwin' });
    expect(menus[0]?.label).toBe('Kubedrift');
    expect(items(menus[0] ?? {}).map((item) => item.role)).toContain('quit');
    expect(items(byLabel(menus, 'File')).map((item) => item.role)).toEqual(['close']);
  });

  it('has the standard edit roles, so copy and paste work in inputs', () => {
    const edit = items(byLabel(template(), 'Edit')).map((item) => item.role);
    expect(edit).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']));
  });

  it('opens help links through the injected opener, and only https ones are listed', () => {
    const openExternal = vi.fn();
    const help = template({ openExternal }).find((menu) => menu.role === 'help');
    const links = items(help ?? {});
    expect(links.map((item) => item.label)).toEqual(HELP_LINKS.map((link) => link.label));
    for (const link of HELP_LINKS) expect(new URL(link.url).protocol).toBe('https:');
    links[0]?.click?.({} as never, undefined, {} as never);
    expect(openExternal).toHaveBeenCalledExactlyOnceWith(HELP_LINKS[0]?.url);
  });
});
