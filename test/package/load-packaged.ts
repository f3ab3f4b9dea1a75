/**
 * Loads an extracted app.asar's main bundle under plain Node, with `electron` replaced by a
 * recording stand-in, and reports every file Node resolved on the way:
 *
 *   node --experimental-import-meta-resolve test/package/load-packaged.ts <appDir> <workerName> <reportFile>
 *
 * - package.json "main" is required, so every top-level `require` of the bundle (and of the
 *   production dependencies it loads) is resolved and evaluated;
 * - every literal `import("…")` in the bundle (loaded lazily at run time) is resolved from the
 *   bundle's own location and imported, after the Reflect metadata shim the engine installs first;
 * - the list worker beside the bundle is required, then run in a worker thread on one PodList
 *   page, as the informers do.
 *
 * Writes a {@link LoadReport} as JSON to <reportFile> (a file, since the bundle may write to
 * stdout itself and `process.exit` can cut a piped stdout short) and exits 0, or 1 when loading
 * threw.
 * The test asserts that every resolved file lies inside <appDir>: a file missing from the package
 * either fails to resolve or resolves outside it.
 */
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire, registerHooks } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ensureReflectMetadata } from '../../electron/engine/simcluster/server/reflect-shim.ts';

/** What one load found. */
export interface LoadReport {
  /** Absolute paths of every file resolved while loading (the electron stand-in excepted). */
  resolved: string[];
  /** The bundle's lazily imported specifiers, as found in its text. */
  lazyImports: string[];
  /** Electron calls the bundle made, in order (`app.quit`, `app.requestSingleInstanceLock`, ...). */
  electronCalls: string[];
  /** The worker's answer to one PodList page: the slim pods' JSON texts, or its error. */
  worker?: { texts?: string[]; error?: string };
  /** Set when loading threw: its message. */
  error?: string;
}

/**
 * A stand-in for Electron's module: every export and property is a callable proxy that records
 * calls, except the `app` members the main process reads values from. It refuses the single
 * instance lock, so the main process quits right after evaluating its modules.
 */
const ELECTRON_STAND_IN = String.raw`
const calls = (globalThis.__kubedriftElectronCalls ??= []);
function stub(name) {
  return new Proxy(function () {}, {
    get: (_target, key) => (typeof key === 'symbol' || key === 'then' ? undefined : stub(name + '.' + key)),
    apply: () => { calls.push(name); return stub(name + '()'); },
    construct: () => { calls.push('new ' + name); return stub('new ' + name); },
  });
}
function withStubs(name, known) {
  return new Proxy(known, { get: (target, key) => (key in target || typeof key === 'symbol' ? target[key] : stub(name + '.' + key)) });
}
const app = withStubs('app', {
  name: 'Kubedrift',
  isPackaged: true,
  getPath: () => process.env.KUBEDRIFT_LOAD_DATA_DIR,
  getAppPath: () => process.env.KUBEDRIFT_LOAD_APP_DIR,
  getVersion: () => '0.0.0-packaging-check',
  requestSingleInstanceLock: () => { calls.push('app.requestSingleInstanceLock'); return false; },
  whenReady: () => new Promise(() => {}),
  on: (event) => { calls.push('app.on(' + event + ')'); return app; },
  quit: () => { calls.push('app.quit'); },
  exit: (code) => { calls.push('app.exit(' + code + ')'); },
});
module.exports = withStubs('electron', { app, __esModule: undefined });
`;

/** One real PodList page (managedFields included, which slimming drops). */
function podListPage(): ArrayBuffer {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-7d4b9c8f6d-x2lqp',
      namespace: 'default',
      uid: '4f6c3d2a-1b7e-4c55-9a0e-2d8f1e3b6a71',
      resourceVersion: '1042',
      creationTimestamp: '2026-01-05T10:00:00Z',
      labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
      managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }],
    },
    spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx:1.27' }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'PodList', metadata: { resourceVersion: '1042' }, items: [pod] });
  return new TextEncoder().encode(body).buffer as ArrayBuffer;
}

function runWorker(file: string): Promise<NonNullable<LoadReport['worker']>> {
  return new Promise((resolve) => {
    const worker = new Worker(file);
    const timer = setTimeout(() => finish({ error: 'the worker did not answer in 10 s' }), 10_000);
    function finish(result: NonNullable<LoadReport['worker']>): void {
      clearTimeout(timer);
      void worker.terminate();
      resolve(result);
    }
    worker.on('message', (reply: { page?: { text: string }; error?: string }) => {
      if (reply.page) finish({ texts: (JSON.parse(reply.page.text) as unknown[]).map((object) => JSON.stringify(object)) });
      else finish({ error: reply.error ?? 'the worker answered without a page' });
    });
    worker.on('error', (error) => finish({ error: error.message }));
    worker.on('exit', (code) => finish({ error: `the worker exited with code ${code} before answering` }));
    const body = podListPage();
    worker.postMessage({ id: 1, body, source: { kind: 'Pod', apiVersion: 'v1' } }, [body]);
  });
}

/** Loads the app at `appDir`; see the file comment. */
export async function loadPackaged(appDir: string, workerName: string): Promise<LoadReport> {
  const root = realpathSync(appDir);
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'kubedrift-load-'));
  const standIn = path.join(scratch, 'electron-stand-in.cjs');
  writeFileSync(standIn, ELECTRON_STAND_IN);
  process.env['KUBEDRIFT_LOAD_DATA_DIR'] = scratch;
  process.env['KUBEDRIFT_LOAD_APP_DIR'] = root;

  const resolved = new Set<string>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      if (specifier === 'electron') return { url: pathToFileURL(standIn).href, format: 'commonjs', shortCircuit: true };
      const result = nextResolve(specifier, context);
      if (result.url.startsWith('file:')) resolved.add(fileURLToPath(result.url));
      return result;
    },
  });

  const report: LoadReport = { resolved: [], lazyImports: [], electronCalls: [] };
  try {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { main?: string };
    if (!manifest.main) throw new Error('package.json has no "main"');
    const mainFile = path.resolve(root, manifest.main);
    const requireFromHere = createRequire(import.meta.url);
    requireFromHere(mainFile);

    const mainText = readFileSync(mainFile, 'utf8');
    report.lazyImports = [...new Set([...mainText.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1] ?? ''))];
    // The engine installs this before its one lazy import, @peculiar/x509 (simcluster/server/tls.ts).
    ensureReflectMetadata();
    for (const specifier of report.lazyImports) {
      const url = import.meta.resolve(specifier, pathToFileURL(mainFile).href);
      if (url.startsWith('file:')) resolved.add(fileURLToPath(url));
      await import(url);
    }

    const workerFile = path.join(path.dirname(mainFile), workerName);
    requireFromHere(workerFile);
    report.worker = await runWorker(workerFile);
  } catch (error) {
    report.error = error instanceof Error ? error.message : String(error);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  report.resolved = [...resolved].sort();
  report.electronCalls = [...((globalThis as { __kubedriftElectronCalls?: string[] }).__kubedriftElectronCalls ?? [])];
  return report;
}

const invokedDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (invokedDirectly) {
  const [appDir, workerName, reportFile] = process.argv.slice(2);
  if (!appDir || !workerName || !reportFile) {
    console.error('usage: node --experimental-import-meta-resolve test/package/load-packaged.ts <appDir> <workerName> <reportFile>');
    process.exit(2);
  }
  const report = await loadPackaged(appDir, workerName);
  writeFileSync(reportFile, JSON.stringify(report));
  // The bundle may have left timers or sockets behind; its modules are loaded, so stop here.
  process.exit(report.error ? 1 : 0);
}
