/**
 * The packaged app, as `npm run dist` makes it, minus the Electron download: out/ is built into a
 * staged copy of the project, electron-builder's linux `--dir` target packs it against a stand-in
 * Electron, and the app.asar is checked for what the app needs at run time, and nothing else.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { extractAll, listPackage } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_SCENARIOS, parseScenario } from '../../electron/engine/simcluster/scenarios/load.ts';
import { withTempDir } from '../helpers/tmp.ts';
import { packagedPackages, productionClosure, type PackageId } from './closure.ts';
import type { LoadReport } from './load-packaged.ts';
import { linkTree, makeElectronStandIn, packDir, PROJECT_ROOT, runNode, stageProject, type RunResult } from './stage.ts';

/** Packages that exist only to build, test or run the development shell; none may ship. */
const DEV_ONLY = ['electron', 'electron-builder', 'vue', 'vite', 'vitest', 'typescript', 'pinia', 'echarts', 'esbuild', 'playwright-core'];

/** What is at the root of the app: the build output, the manifest and the production dependencies. */
const APP_ROOT_ENTRIES = ['node_modules', 'out', 'package.json'];

/** The forge a CI checkout's git remote points at; the updater's feed is derived from it. */
const REMOTE = { owner: 'kubedrift-packaging-check', repo: 'kubedrift' };

function filesUnder(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => statSync(path.join(root, file)).isFile())
    .sort();
}

interface Loaded {
  run: RunResult;
  report: LoadReport;
}

let loads = 0;

/** Loads the app at `appDir` in a child Node process (test/package/load-packaged.ts). */
async function loadApp(appDir: string, workerName: string): Promise<Loaded> {
  const loader = path.join(PROJECT_ROOT, 'test', 'package', 'load-packaged.ts');
  const reportFile = path.join(dir, `load-report-${++loads}.json`);
  const run = await runNode(['--experimental-import-meta-resolve', '--no-warnings', loader, appDir, workerName, reportFile], {
    cwd: PROJECT_ROOT,
    timeoutMs: 60_000,
  });
  if (!existsSync(reportFile)) throw new Error(`the loader wrote no report (exit code ${run.code}):\n${run.output}`);
  return { run, report: JSON.parse(readFileSync(reportFile, 'utf8')) as LoadReport };
}

let dir: string;
let cleanup: () => Promise<void>;
let pack: RunResult;
let unpacked: string;
let asarFile: string;
let app: string;
let files: string[];
let mainFile: string;
let workerName: string;
let readerName: string;

beforeAll(async () => {
  ({ dir, cleanup } = await withTempDir('kubedrift-package-'));
  const project = path.join(dir, 'project');
  await stageProject(project);
  // What actions/checkout leaves behind; electron-builder reads the update feed's owner/repo from it.
  mkdirSync(path.join(project, '.git'));
  writeFileSync(path.join(project, '.git', 'config'), `[remote "origin"]\n\turl = https://github.com/${REMOTE.owner}/${REMOTE.repo}.git\n`);
  const electronVersion = (JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'node_modules', 'electron', 'package.json'), 'utf8')) as { version: string }).version;
  const electronDist = path.join(dir, 'electron-dist');
  makeElectronStandIn(electronDist, electronVersion);
  const outputDir = path.join(dir, 'dist');
  pack = await packDir({ projectDir: project, electronDist, outputDir });
  if (pack.code !== 0) throw new Error(`electron-builder failed (exit code ${pack.code}):\n${pack.output}`);
  const unpackedName = readdirSync(outputDir).find((name) => name.startsWith('linux') && name.endsWith('unpacked'));
  if (!unpackedName) throw new Error(`electron-builder wrote no linux-*unpacked folder:\n${pack.output}`);
  unpacked = path.join(outputDir, unpackedName);
  asarFile = path.join(unpacked, 'resources', 'app.asar');
  app = path.join(dir, 'app');
  extractAll(asarFile, app);
  files = filesUnder(app);
  const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { main: string };
  mainFile = path.join(app, manifest.main);
  // The engine looks for its list worker beside the bundle under this name (list-decoder.ts).
  const main = readFileSync(mainFile, 'utf8');
  workerName = /"\.\/(list-worker\.[a-z]+js)"/.exec(main)?.[1] ?? '(no list worker named in main.cjs)';
  readerName = /"\.\/(watch-reader-worker\.[a-z]+js)"/.exec(main)?.[1] ?? '(no watch reader worker named in main.cjs)';
}, 300_000);
afterAll(() => cleanup?.());

describe('electron-builder --dir against a stand-in Electron', () => {
  it('packs the app into resources/app.asar beside the renamed executable, downloading nothing', () => {
    expect(statSync(asarFile).isFile()).toBe(true);
    expect(statSync(path.join(unpacked, 'kubedrift')).mode & 0o111).not.toBe(0);
    expect(statSync(path.join(unpacked, 'LICENSE.electron.txt')).isFile()).toBe(true);
    expect(pack.output).not.toMatch(/\bdownloading\b/i);
  });

  it('writes the update feed electron-updater reads: GitHub releases of the checkout\'s repository', () => {
    const feed = readFileSync(path.join(unpacked, 'resources', 'app-update.yml'), 'utf8');
    expect(feed).toMatch(/^provider: github$/m);
    expect(feed).toMatch(new RegExp(`^owner: ${REMOTE.owner}$`, 'm'));
    expect(feed).toMatch(new RegExp(`^repo: ${REMOTE.repo}$`, 'm'));
  });

  it('lists in the asar exactly what extracting it gives', () => {
    const listed = new Set(listPackage(asarFile, { isPack: false }).map((entry) => entry.split(path.sep).join('/').replace(/^\//, '')));
    for (const file of files) expect(listed.has(file), file).toBe(true);
  });
});

describe('app.asar', () => {
  it('holds package.json whose "main" is in the archive', () => {
    expect(files).toContain('package.json');
    expect(path.relative(app, mainFile).split(path.sep).join('/')).toBe('out/main/main.cjs');
    expect(files).toContain('out/main/main.cjs');
  });

  it('holds the build output: main, preload and the renderer with its assets', () => {
    expect(files).toEqual(expect.arrayContaining(['out/preload/preload.cjs', 'out/renderer/index.html']));
    const html = readFileSync(path.join(app, 'out', 'renderer', 'index.html'), 'utf8');
    const assets = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((match) => `out/renderer/${match[1]}`);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) expect(files, `${asset}, linked from index.html`).toContain(asset);
  });

  it('holds every file of the build output (out/) but its source maps', () => {
    const built = filesUnder(path.join(dir, 'project', 'out')).map((file) => `out/${file}`);
    expect(built.length).toBeGreaterThan(0);
    expect(built.filter((file) => !file.endsWith('.map') && !files.includes(file))).toEqual([]);
  });

  it('holds the list worker and the watch reader\'s worker beside main.cjs, where the engine looks for them', () => {
    expect(workerName).toMatch(/^list-worker\./);
    expect(files).toContain(`out/main/${workerName}`);
    expect(readerName).toMatch(/^watch-reader-worker\./);
    expect(files).toContain(`out/main/${readerName}`);
  });

  it('holds each built-in scenario where the bundled loader looks (beside main.cjs), and no other', () => {
    for (const name of BUILT_IN_SCENARIOS) {
      // The loader's own lookup: new URL(`./${name}.yaml`, import.meta.url), import.meta.url being main.cjs.
      const file = fileURLToPath(new URL(`./${name}.yaml`, pathToFileURL(mainFile)));
      expect(parseScenario(readFileSync(file, 'utf8'), file).objects.length, name).toBeGreaterThan(0);
    }
    const yamlFiles = files.filter((file) => file.startsWith('out/') && file.endsWith('.yaml') && !file.startsWith('out/main/demo-manifests/'));
    expect(yamlFiles.sort()).toEqual(BUILT_IN_SCENARIOS.map((name) => `out/main/${name}.yaml`).sort());
  });

  it("holds the window's icon beside main.cjs, where the desktop shell looks for it", () => {
    expect(files).toContain('out/main/icon.png');
  });

  it("holds the demo's own manifests beside main.cjs, where the Diff screen looks (simcluster/scenarios/demo-manifests.ts)", () => {
    const folder = fileURLToPath(new URL('./demo-manifests', pathToFileURL(mainFile)));
    const shipped = files.filter((file) => file.startsWith('out/main/demo-manifests/'));
    expect(shipped.sort()).toEqual(['monitoring/grafana.yaml', 'payments/payments-api-tls.yaml', 'platform/auth.yaml', 'platform/gateway-config.yaml', 'platform/gateway.yaml', 'shop/orders-db.yaml', 'shop/reviews.yaml'].map((name) => `out/main/demo-manifests/${name}`));
    expect(readFileSync(path.join(folder, 'platform', 'auth.yaml'), 'utf8')).toContain('ghcr.io/acme-shop/auth:v4.3.0');
  });

  it('holds exactly the production dependency closure of package.json, and no devDependency', () => {
    const packaged = packagedPackages(files, (file) => JSON.parse(readFileSync(path.join(app, file), 'utf8')) as PackageId);
    const closure = productionClosure(PROJECT_ROOT);
    expect([...packaged].filter((id) => !closure.has(id)), 'packaged but not a production dependency').toEqual([]);
    expect([...closure].filter((id) => !packaged.has(id)), 'a production dependency that is not packaged').toEqual([]);
    const names = new Set([...packaged].map((id) => id.slice(0, id.lastIndexOf('@'))));
    for (const name of DEV_ONLY) expect(names.has(name), name).toBe(false);
  });

  it('holds no sources, source maps or tests', () => {
    expect([...new Set(files.map((file) => file.split('/')[0]))].sort()).toEqual(APP_ROOT_ENTRIES);
    expect([...new Set(files.filter((file) => file.startsWith('out/')).map((file) => file.split('/')[1]))].sort()).toEqual([
      'main',
      'preload',
      'renderer',
    ]);
    expect(files.filter((file) => /\.(map|ts|mts|cts|vue)$/.test(file))).toEqual([]);
  });
});

describe('the packaged main bundle under Node, electron stood in', () => {
  let loaded: Loaded;
  beforeAll(async () => {
    loaded = await loadApp(app, workerName);
  }, 60_000);

  it('loads with every file it requires resolved inside the app', () => {
    const { run, report } = loaded;
    expect(report.error).toBeUndefined();
    expect(run.code).toBe(0);
    // main.cjs ran to its single-instance check, which the stand-in refuses, so it quit.
    expect(report.electronCalls).toEqual(expect.arrayContaining(['app.requestSingleInstanceLock', 'app.quit']));
    const inside = (file: string) => !path.relative(app, file).startsWith('..');
    expect(report.resolved.filter((file) => !inside(file))).toEqual([]);
    const relative = report.resolved.map((file) => path.relative(app, file).split(path.sep).join('/'));
    expect(relative).toEqual(expect.arrayContaining(['out/main/main.cjs', `out/main/${workerName}`]));
    const manifest = JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')) as { dependencies: object };
    for (const name of Object.keys(manifest.dependencies)) {
      expect(relative.some((file) => file.startsWith(`node_modules/${name}/`)), `${name} was loaded`).toBe(true);
    }
    for (const file of relative) expect(files).toContain(file);
  });

  it('decodes a list page in the packaged list worker, dropping managedFields', () => {
    const { worker } = loaded.report;
    expect(worker?.error).toBeUndefined();
    const [pod] = (worker?.texts ?? []).map((text) => JSON.parse(text) as { metadata: Record<string, unknown> });
    expect(pod?.metadata['name']).toBe('web-7d4b9c8f6d-x2lqp');
    expect(pod?.metadata).not.toHaveProperty('managedFields');
  });

  it.each([
    ['a production dependency\'s file', (report: LoadReport) => report.resolved.find((file) => file.includes(`${path.sep}node_modules${path.sep}`))],
    ['the list worker', () => path.join(app, 'out', 'main', workerName)],
  ])('fails when %s is missing from the package', async (_what, pick) => {
    const victim = pick(loaded.report);
    if (!victim) throw new Error('no file to remove');
    const copy = path.join(dir, `app-without-${path.basename(victim)}`);
    linkTree(app, copy);
    rmSync(path.join(copy, path.relative(app, victim)));
    const { run, report } = await loadApp(copy, workerName);
    expect(run.code).toBe(1);
    expect(report.error).toMatch(/Cannot find module/);
  });
});
