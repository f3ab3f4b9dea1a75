/**
 * Bundles the Electron side with esbuild:
 *
 *   node electron/tools/build-electron.ts
 *
 * - electron/desktop/main.ts    → out/main/main.cjs: CommonJS for Electron's main process. Production
 *   dependencies stay external (electron-builder packs them into the app); the engine and
 *   shared/ are bundled in.
 * - electron/desktop/preload.ts → out/preload/preload.cjs: ONE CommonJS file with everything but
 *   `electron` inlined, because a sandboxed preload cannot load modules of its own.
 */
import { copyFileSync, cpSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import { BUILT_IN_SCENARIOS } from '../engine/simcluster/scenarios/load.ts';
import * as contract from '../../shared/contract.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * What a sandboxed preload may `require`; anything else throws when the window loads, so the
 * build refuses it instead.
 */
const PRELOAD_ALLOWED_REQUIRES = new Set(['electron']);

/**
 * CommonJS output has no `import.meta`. Bundled source that reads `import.meta.url` gets the
 * bundle's own file URL instead of an empty object. out/main/main.cjs sits two folders below the
 * project root, as every electron/<folder>/<file>.ts does, so `new URL('../../', import.meta.url)`
 * still finds the root; deeper relative paths do not survive bundling and must not be used.
 */
const IMPORT_META_URL = '__kubedriftImportMetaUrl';
const IMPORT_META_BANNER = `const ${IMPORT_META_URL} = require("node:url").pathToFileURL(__filename).href;`;

/**
 * For the preload, shared/contract.ts is replaced by its channel names and the two name checks,
 * generated from the real contract at build time. The full module would bring zod (~450 KB even
 * minified, ~60 ms to evaluate on every page load) into a file that only needs names; payloads
 * are validated in the main process anyway. Importing anything else from the contract in the
 * preload fails the build with esbuild's "No matching export" error.
 */
function contractNamesPlugin(projectRoot: string): Plugin {
  const contractFile = path.join(projectRoot, 'shared', 'contract.ts');
  const contents = [
    `export const IPC_PREFIX = ${JSON.stringify(contract.IPC_PREFIX)};`,
    `export const REQUEST_CHANNELS = ${JSON.stringify(contract.REQUEST_CHANNELS)};`,
    `export const STREAM_CHANNELS = ${JSON.stringify(contract.STREAM_CHANNELS)};`,
    'const requestNames = new Set(REQUEST_CHANNELS);',
    'const streamNames = new Set(STREAM_CHANNELS);',
    "export function isRequestChannel(name) { return typeof name === 'string' && requestNames.has(name); }",
    "export function isStreamChannel(name) { return typeof name === 'string' && streamNames.has(name); }",
  ].join('\n');
  return {
    name: 'contract-names',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /[\\/]shared[\\/]contract\.ts$/ }, (args) =>
        path.resolve(args.path) === contractFile ? { contents, loader: 'js' } : undefined,
      );
    },
  };
}

export interface BuildElectronOptions {
  /** Output root; out/ of the project by default. Tests pass a temp directory. */
  outDir?: string;
  projectRoot?: string;
}

export interface BuiltFile {
  file: string;
  bytes: number;
}

export interface BuildElectronResult {
  main: BuiltFile;
  preload: BuiltFile;
  elapsedMs: number;
}

function productionDependencies(projectRoot: string): string[] {
  const pkg = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  return Object.keys(pkg.dependencies ?? {});
}

function externalImports(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const entry of output.imports) if (entry.external) found.add(entry.path);
  }
  return [...found].sort();
}

/** Builds main and preload; throws when esbuild fails or the preload would need a module. */
export async function buildElectron(options: BuildElectronOptions = {}): Promise<BuildElectronResult> {
  const projectRoot = options.projectRoot ?? PROJECT_ROOT;
  const outDir = options.outDir ?? path.join(projectRoot, 'out');
  const started = performance.now();
  const common: BuildOptions = {
    absWorkingDir: projectRoot,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    sourcemap: true,
    logLevel: 'warning',
  };
  const mainFile = path.join(outDir, 'main', 'main.cjs');
  const preloadFile = path.join(outDir, 'preload', 'preload.cjs');

  const [preload] = await Promise.all([
    build({
      ...common,
      entryPoints: [path.join(projectRoot, 'electron', 'desktop', 'preload.ts')],
      outfile: preloadFile,
      // The preload runs in the renderer's V8 (Electron 45's Chromium), not in Node.
      target: 'chrome130',
      external: ['electron'],
      plugins: [contractNamesPlugin(projectRoot)],
      metafile: true,
    }),
    build({
      ...common,
      entryPoints: [path.join(projectRoot, 'electron', 'desktop', 'main.ts')],
      outfile: mainFile,
      target: 'node22',
      external: ['electron', ...productionDependencies(projectRoot)],
      define: { 'import.meta.url': IMPORT_META_URL },
      banner: { js: IMPORT_META_BANNER },
    }),
    // The informers decode list pages, and read watches, in workers that the engine finds beside main.cjs.
    ...['list-worker', 'watch-reader-worker'].map((name) =>
      build({
        ...common,
        entryPoints: [path.join(projectRoot, 'electron', 'engine', 'cluster', 'informers', `${name}.ts`)],
        outfile: path.join(outDir, 'main', `${name}.cjs`),
        target: 'node22',
        external: ['electron', ...productionDependencies(projectRoot)],
        define: { 'import.meta.url': IMPORT_META_URL },
        banner: { js: IMPORT_META_BANNER },
      }),
    ),
  ]);

  const forbidden = externalImports(preload.metafile).filter((name) => !PRELOAD_ALLOWED_REQUIRES.has(name));
  if (forbidden.length > 0) {
    throw new Error(`the preload must be self-contained, but it requires ${forbidden.join(', ')}; a sandboxed preload can only require electron`);
  }

  // Built-in scenarios are found beside the module that loads them (import.meta.url), which in
  // the bundle is out/main/main.cjs. Only those: the folder's other files are test fixtures.
  const scenarios = path.join(projectRoot, 'electron', 'engine', 'simcluster', 'scenarios');
  for (const name of BUILT_IN_SCENARIOS) {
    copyFileSync(path.join(scenarios, `${name}.yaml`), path.join(outDir, 'main', `${name}.yaml`));
  }
  // The demo's own manifests (the Diff screen's "Try the demo manifests"), found the same way
  // (simcluster/scenarios/demo-manifests.ts): a folder of files, kept a folder of files.
  const demoManifests = path.join(outDir, 'main', 'demo-manifests');
  rmSync(demoManifests, { recursive: true, force: true });
  cpSync(path.join(scenarios, 'demo-manifests'), demoManifests, { recursive: true });
  // The window's icon (Linux and Windows title bars and task bars), beside main.cjs: out/ is
  // all that is packaged, and resources/ holds build-time inputs only.
  copyFileSync(path.join(projectRoot, 'resources', 'icon.png'), path.join(outDir, 'main', 'icon.png'));

  return {
    main: { file: mainFile, bytes: statSync(mainFile).size },
    preload: { file: preloadFile, bytes: statSync(preloadFile).size },
    elapsedMs: Math.round(performance.now() - started),
  };
}

function describe(file: BuiltFile, root: string): string {
  return `${path.relative(root, file.file)} (${(file.bytes / 1024).toFixed(1)} KB)`;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  try {
    const result = await buildElectron();
    console.log(`electron: built ${describe(result.main, PROJECT_ROOT)}, ${describe(result.preload, PROJECT_ROOT)} in ${result.elapsedMs} ms`);
  } catch (error) {
    // esbuild has already printed its diagnostics; this line says what failed.
    console.error(`electron build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
