import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withTempDir } from '../helpers/tmp.ts';
import { packagedPackages, productionClosure } from './closure.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await withTempDir());
});
afterEach(() => cleanup());

function writePackage(folder: string, manifest: Record<string, unknown>): void {
  mkdirSync(path.join(dir, folder), { recursive: true });
  writeFileSync(path.join(dir, folder, 'package.json'), JSON.stringify(manifest));
}

describe('productionClosure', () => {
  it('follows dependencies as Node resolves them, nested copies first, and leaves devDependencies out', () => {
    writePackage('.', { name: 'app', version: '1.0.0', dependencies: { web: '^1' }, devDependencies: { tool: '^1' } });
    writePackage('node_modules/web', { name: 'web', version: '1.2.0', dependencies: { util: '^2', '@scope/log': '^1' } });
    writePackage('node_modules/web/node_modules/util', { name: 'util', version: '2.0.0' });
    writePackage('node_modules/util', { name: 'util', version: '1.0.0' });
    writePackage('node_modules/@scope/log', { name: '@scope/log', version: '1.0.1' });
    writePackage('node_modules/tool', { name: 'tool', version: '1.0.0', dependencies: { util: '^1' } });
    expect([...productionClosure(dir)].sort()).toEqual(['@scope/log@1.0.1', 'util@2.0.0', 'web@1.2.0']);
  });

  it('skips optional and optional-peer dependencies that are not installed, and keeps installed ones', () => {
    writePackage('.', { name: 'app', version: '1.0.0', dependencies: { ws: '^8' } });
    writePackage('node_modules/ws', {
      name: 'ws',
      version: '8.0.0',
      optionalDependencies: { fsevents: '*', present: '*' },
      peerDependencies: { bufferutil: '*' },
      peerDependenciesMeta: { bufferutil: { optional: true } },
    });
    writePackage('node_modules/present', { name: 'present', version: '0.1.0' });
    expect([...productionClosure(dir)].sort()).toEqual(['present@0.1.0', 'ws@8.0.0']);
  });

  it('says which required dependency is missing', () => {
    writePackage('.', { name: 'app', version: '1.0.0', dependencies: { web: '^1' } });
    writePackage('node_modules/web', { name: 'web', version: '1.0.0', dependencies: { gone: '^1' } });
    expect(() => productionClosure(dir)).toThrow(/production dependency gone \(needed from .*web\) is not installed/);
  });
});

describe('packagedPackages', () => {
  it('counts package folders at any depth, not the package.json files inside a package', () => {
    const files = [
      'package.json',
      'out/main/package.json',
      'node_modules/yaml/package.json',
      'node_modules/yaml/dist/package.json',
      'node_modules/@peculiar/x509/package.json',
      'node_modules/tsyringe/node_modules/tslib/package.json',
    ];
    const manifests: Record<string, { name: string; version: string }> = {
      'node_modules/yaml/package.json': { name: 'yaml', version: '2.9.1' },
      'node_modules/@peculiar/x509/package.json': { name: '@peculiar/x509', version: '2.2.0' },
      'node_modules/tsyringe/node_modules/tslib/package.json': { name: 'tslib', version: '1.14.1' },
    };
    const read = (file: string) => {
      const manifest = manifests[file];
      if (!manifest) throw new Error(`read ${file}, which is not a package folder's manifest`);
      return manifest;
    };
    expect([...packagedPackages(files, read)].sort()).toEqual(['@peculiar/x509@2.2.0', 'tslib@1.14.1', 'yaml@2.9.1']);
  });
});
