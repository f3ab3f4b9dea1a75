import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = join(import.meta.dirname, '..', '..', '..');

/** The subset of electron-builder's configuration these tests look at. */
interface BuilderConfig {
  appId?: string;
  productName?: string;
  asar?: boolean;
  artifactName?: string;
  directories?: { output?: string; buildResources?: string };
  files?: string[];
  linux?: { target?: unknown; category?: string; icon?: string; maintainer?: string; synopsis?: string };
  mac?: { target?: unknown; category?: string; icon?: string };
  win?: { target?: unknown; icon?: string };
  nsis?: { oneClick?: boolean; allowToChangeInstallationDirectory?: boolean };
  publish?: unknown;
}

const config = parse(readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };

/** Target names from any of the forms electron-builder accepts: "x", ["x"], [{ target: "x" }]. */
function targetNames(target: unknown): string[] {
  const list = Array.isArray(target) ? target : target === undefined ? [] : [target];
  return list.map((t) => (typeof t === 'string' ? t : (t as { target: string }).target));
}

/**
 * Whether `file` (posix, relative to the app dir) is packaged by `patterns`.
 * Like electron-builder, patterns apply in order and the last match wins, so
 * a `!negation` only removes what earlier patterns added. posix.matchesGlob
 * keeps "/" as the separator on every OS, as electron-builder's patterns do.
 */
function isPackaged(file: string, patterns: readonly string[]): boolean {
  let included = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    if (posix.matchesGlob(file, negated ? pattern.slice(1) : pattern)) included = !negated;
  }
  return included;
}

/** All files under `dir` (relative to ROOT, posix separators). */
function walk(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return (readdirSync(abs, { recursive: true }) as string[])
    .map((rel) => posix.join(dir, rel.split('\\').join('/')))
    .filter((rel) => statSync(join(ROOT, rel)).isFile());
}

describe('isPackaged (glob matcher used below)', () => {
  it('applies negations in order, last match wins', () => {
    expect(isPackaged('out/a.js', ['out/**/*'])).toBe(true);
    expect(isPackaged('out/a.js.map', ['out/**/*', '!out/**/*.map'])).toBe(false);
    expect(isPackaged('out/a.js.map', ['out/**/*', '!out/**/*.map', 'out/a.js.map'])).toBe(true);
    expect(isPackaged('src/a.ts', ['out/**/*'])).toBe(false);
    expect(isPackaged('out/a.js', ['!out/a.js', 'out/**/*'])).toBe(true);
  });
});

describe('electron-builder.yml', () => {
  it('identifies the app', () => {
    expect(config.appId).toBe('dev.kubedrift.app');
    expect(config.productName).toBe('Kubedrift');
    expect(config.asar).toBe(true);
  });

  it('names artifacts by product, version and arch', () => {
    for (const macro of ['${productName}', '${version}', '${arch}', '${ext}']) expect(config.artifactName).toContain(macro);
  });

  it('writes to dist/ and takes build resources from resources/', () => {
    expect(config.directories).toEqual({ output: 'dist', buildResources: 'resources' });
    expect(statSync(join(ROOT, 'resources')).isDirectory()).toBe(true);
  });

  it('builds AppImage + deb, dmg and nsis', () => {
    expect(targetNames(config.linux?.target)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(targetNames(config.mac?.target)).toContain('dmg');
    expect(targetNames(config.win?.target)).toContain('nsis');
  });

  it('sets the per-platform metadata stores and installers need', () => {
    expect(config.linux?.category).toBe('Development');
    expect(config.linux?.synopsis).toBeTruthy();
    // deb packaging fails without a maintainer "Name <email>".
    expect(config.linux?.maintainer).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(config.mac?.category).toBe('public.app-category.developer-tools');
    expect(config.nsis).toMatchObject({ oneClick: false, allowToChangeInstallationDirectory: true });
  });

  it('names GitHub releases as the update feed, and never publishes from a local build', () => {
    expect(config.publish).toEqual({ provider: 'github' });
    expect(pkg.scripts['dist']).toMatch(/\belectron-builder\b.*--publish never/);
  });

  it('builds the mac zip electron-updater updates from, beside the dmg', () => {
    expect(targetNames(config.mac?.target)).toEqual(expect.arrayContaining(['dmg', 'zip']));
  });

  it('points every platform icon at something that exists', () => {
    const icons = [config.linux?.icon, config.mac?.icon, config.win?.icon];
    for (const icon of icons) {
      expect(icon, 'icon configured').toBeTruthy();
      expect(existsSync(join(ROOT, icon!)), `${icon} exists`).toBe(true);
    }
    expect(config.mac?.icon).toMatch(/\.icns$/);
    expect(config.win?.icon).toMatch(/\.ico$/);
  });

  it('uses a Linux icon directory with the NxN.png sizes', () => {
    const dir = join(ROOT, config.linux!.icon!);
    expect(statSync(dir).isDirectory()).toBe(true);
    const names = readdirSync(dir);
    for (const n of [16, 32, 48, 64, 128, 256, 512, 1024]) expect(names).toContain(`${n}x${n}.png`);
  });
});

describe('electron-builder.yml files patterns', () => {
  const files = config.files ?? [];

  it('are a list of glob strings', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(typeof f).toBe('string');
  });

  it.each(['out/main/main.cjs', 'out/preload/preload.cjs', 'out/renderer/index.html', 'out/renderer/assets/index-abc123.js', 'package.json'])(
    'include build output %s',
    (file) => expect(isPackaged(file, files)).toBe(true),
  );

  it('include package.json "main", or Electron cannot start', () => {
    expect(pkg.main).toBe('out/main/main.cjs');
    expect(isPackaged(pkg.main, files)).toBe(true);
  });

  it.each([
    'electron/desktop/main.ts',
    'electron/desktop/preload.ts',
    'renderer/App.vue',
    'renderer/main.ts',
    'shared/contract.ts',
    'test/unit/resources/icons.test.ts',
    'node_modules/electron/index.js',
    'resources/icon.svg',
    'electron-builder.yml',
    'vite.config.ts',
    'tsconfig.json',
    'dist/Kubedrift-0.1.0-x64.AppImage',
    'out/main/main.cjs.map',
    'node_modules/yaml/dist/index.js.map',
    'node_modules/zod/src/index.ts',
  ])('exclude %s', (file) => expect(isPackaged(file, files)).toBe(false));

  // The hand-written list above can go stale; the real source tree cannot.
  it('exclude every file currently in the source directories', () => {
    const sources = ['electron', 'renderer', 'shared', 'test', 'resources'].flatMap(walk);
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.filter((f) => isPackaged(f, files))).toEqual([]);
  });
});
