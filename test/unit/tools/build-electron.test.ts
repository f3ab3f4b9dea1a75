import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildElectron, type BuildElectronResult } from '../../../electron/tools/build-electron.ts';
import { withTempDir } from '../../helpers/tmp.ts';

function requires(source: string): string[] {
  return [...new Set([...source.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1] ?? ''))].sort();
}

describe('buildElectron', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let result: BuildElectronResult;
  beforeAll(async () => {
    ({ dir, cleanup } = await withTempDir());
    result = await buildElectron({ outDir: dir });
  });
  afterAll(() => cleanup());

  it('writes main and preload as .cjs files under the given directory', () => {
    expect(result.main.file).toBe(path.join(dir, 'main', 'main.cjs'));
    expect(result.preload.file).toBe(path.join(dir, 'preload', 'preload.cjs'));
    expect(result.main.bytes).toBeGreaterThan(0);
  });

  it.each(['list-worker', 'watch-reader-worker'])('writes the informers\' %s beside main.cjs, where the engine looks for it', (name) => {
    const worker = readFileSync(path.join(dir, 'main', `${name}.cjs`), 'utf8');
    expect(worker).toContain('parentPort');
    expect(worker).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('makes the preload one self-contained CommonJS file that requires only electron', () => {
    const preload = readFileSync(result.preload.file, 'utf8');
    expect(requires(preload)).toEqual(['electron']);
    expect(preload).not.toMatch(/^\s*(import|export)\s/m);
    expect(preload).toContain('exposeInMainWorld');
  });

  it('keeps zod out of the preload: it carries the contract channel names only', () => {
    const preload = readFileSync(result.preload.file, 'utf8');
    expect(preload).toContain('"settings:update"');
    expect(preload).toContain('"connection:changed"');
    expect(preload).not.toMatch(/zod|ZodError|safeParse/);
    expect(result.preload.bytes).toBeLessThan(20 * 1024);
  });

  it('leaves electron and the production dependencies external in main', () => {
    const main = readFileSync(result.main.file, 'utf8');
    const pkg = JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const external = requires(main).filter((name) => !name.startsWith('node:'));
    expect(external).toContain('electron');
    for (const name of external) expect(['electron', ...Object.keys(pkg.dependencies)]).toContain(name);
    expect(main).not.toContain('import.meta');
  });

  it('puts the built-in scenarios beside main, where the bundled scenario loader looks', () => {
    for (const name of ['demo.yaml', 'minimal.yaml']) {
      const source = readFileSync(path.resolve('electron/engine/simcluster/scenarios', name), 'utf8');
      expect(readFileSync(path.join(dir, 'main', name), 'utf8')).toBe(source);
    }
  });

  it("puts the demo's own manifests beside main as a folder of files, where the Diff screen finds them", () => {
    const source = path.resolve('electron/engine/simcluster/scenarios/demo-manifests');
    const files = (root: string) => (readdirSync(root, { recursive: true }) as string[]).filter((name) => name.endsWith('.yaml')).sort();
    expect(files(source)).toEqual(['monitoring/grafana.yaml', 'payments/payments-api-tls.yaml', 'platform/auth.yaml', 'platform/gateway-config.yaml', 'platform/gateway.yaml', 'shop/orders-db.yaml', 'shop/reviews.yaml']);
    expect(files(path.join(dir, 'main', 'demo-manifests'))).toEqual(files(source));
    for (const name of files(source)) expect(readFileSync(path.join(dir, 'main', 'demo-manifests', name), 'utf8')).toBe(readFileSync(path.join(source, name), 'utf8'));
  });

  it("puts the window's icon beside main, where the desktop shell looks for it", () => {
    expect(readFileSync(path.join(dir, 'main', 'icon.png')).equals(readFileSync(path.resolve('resources/icon.png')))).toBe(true);
  });

  it('leaves the test-only scenarios out of the build', () => {
    expect(readdirSync(path.join(dir, 'main')).filter((name) => name.endsWith('.yaml')).sort()).toEqual(['demo.yaml', 'minimal.yaml']);
  });
});
