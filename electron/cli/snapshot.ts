/**
 * `kubedrift snapshot export|inspect`. Export runs the same engine as the app, headless: it
 * connects to the context, waits until every kind is listed, then exports through the
 * contract's `snapshot:export` and downloads the bytes like the browser does, so the file is
 * exactly what the app would write.
 */
import { rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ClusterHealth } from '../../shared/cluster.ts';
import type { ClusterDiscovery } from '../../shared/discovery.ts';
import { EXPORT_FORMATS, type DownloadChunk, type ExportFormat, type ExportResult } from '../../shared/contracts/snapshot.ts';
import type { ConnectionStatus, ContextList } from '../../shared/model.ts';
import type { Result } from '../../shared/result.ts';
import { ContextRegistry } from '../engine/cluster/contexts.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import { SnapshotFileError } from '../engine/snapshot/file.ts';
import { parseFlags, UsageError } from './args.ts';
import { defaultDataDir, packageVersion } from './paths.ts';
import { inspectCommand } from './snapshot-inspect.ts';

export const SNAPSHOT_HELP = `Usage: kubedrift snapshot export --out FILE [--kubeconfig F] [--context C] [--namespace NS] [--format snapshot|yaml|html] [--keep-status] [--at TIME] [--data-dir DIR] [--timeout S]
       kubedrift snapshot inspect FILE

export   connects to the context (default: the kubeconfig's current-context), waits until every
         kind is listed and writes what the cluster looks like:
           --format snapshot  a .kubedrift.json.gz file the app opens offline (default)
           --format yaml      manifests kubectl can apply (--keep-status: every object as it was)
           --format html      a self-contained report with charts
         --at TIME (ISO 8601) exports a past state from the recorded history in --data-dir.
         No Secret value, token, key or password is ever written.
inspect  prints what a snapshot file holds: time, scope, objects by kind, drifting workloads.`;

function unwrap<T>(result: Result<unknown>, what: string): T {
  if (!result.ok) throw new Error(`${what}: ${result.error.message}`);
  return result.value as T;
}

const SETTLED: ReadonlySet<string> = new Set(['live', 'forbidden', 'unavailable']);

/**
 * Whether discovery has answered for `context` and every kind it follows (custom resources,
 * metadata-only kinds) has settled as well: an export taken before would miss their objects. A
 * discovery that could not ask the server at all leaves the export with the built-in kinds.
 */
function discoverySettled(engine: Engine, context: string, health: ClusterHealth): boolean {
  const discovery = engine.hub.last('cluster:discovery') as ClusterDiscovery | undefined;
  const state = discovery?.context === context ? discovery.state : null;
  if (!state) return false;
  if (state.refreshedAt === null) return state.error !== undefined;
  const settled = new Set(health.kinds.filter((kind) => SETTLED.has(kind.state)).map((kind) => kind.kind));
  return state.kinds.every((entry) => (entry.mode !== 'full' && entry.mode !== 'metadata') || settled.has(entry.key));
}

/**
 * Resolves once every kind has been listed (or is forbidden), the discovered ones too unless the
 * context is an opened snapshot (`discovery: false`); rejects on a failed connection.
 */
function waitForSync(engine: Engine, context: string, timeoutMs: number, options: { discovery: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    let stop = () => {};
    const timer = setTimeout(() => {
      stop();
      const health = engine.hub.last('cluster:health') as ClusterHealth | undefined;
      const pending = (health?.kinds ?? []).filter((kind) => !SETTLED.has(kind.state)).map((kind) => `${kind.kind} (${kind.state}${kind.message ? `: ${kind.message}` : ''})`);
      if (options.discovery && health && !discoverySettled(engine, context, health)) pending.push('discovery of the kinds beyond the built-in ones');
      reject(new Error(`"${context}" was not listed within ${timeoutMs / 1000} s${pending.length > 0 ? `; still waiting for ${pending.join(', ')}` : ''}`));
    }, timeoutMs);
    const check = () => {
      const connection = engine.hub.last('connection:changed') as ConnectionStatus | undefined;
      const health = engine.hub.last('cluster:health') as ClusterHealth | undefined;
      if (connection?.context === context && connection.state === 'error') {
        clearTimeout(timer);
        stop();
        reject(new Error(`could not connect to "${context}": ${connection.message ?? 'unknown error'}`));
      } else if (
        health?.context === context &&
        health.kinds.length > 0 &&
        health.kinds.every((kind) => SETTLED.has(kind.state)) &&
        (!options.discovery || discoverySettled(engine, context, health))
      ) {
        clearTimeout(timer);
        stop();
        resolve();
      }
    };
    stop = engine.hub.listen(check);
    check();
  });
}

function unknownContext(name: string, list: ContextList): UsageError {
  return new UsageError(`there is no context named "${name}" (known: ${list.contexts.map((c) => c.name).join(', ')})`);
}

async function download(engine: Engine, id: string, out: string): Promise<void> {
  const parts: Buffer[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const chunk: DownloadChunk = unwrap(await engine.dispatch('snapshot:download', { id, offset }), 'download');
    parts.push(Buffer.from(chunk.data, 'base64'));
    offset = chunk.nextOffset;
  }
  const temp = `${out}.${process.pid}.part`;
  await writeFile(temp, Buffer.concat(parts));
  await rename(temp, out);
}

async function exportCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    out: { type: 'string', short: 'o' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    namespace: { type: 'string', short: 'n' },
    format: { type: 'string' },
    'keep-status': { type: 'boolean' },
    at: { type: 'string' },
    'data-dir': { type: 'string' },
    timeout: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`export takes no arguments, got "${positionals[0]}"`);
  if (!values.out) throw new UsageError('--out FILE is required');
  const format = (values.format ?? 'snapshot') as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}, got "${values.format}"`);
  if (values['keep-status'] && format !== 'yaml') throw new UsageError('--keep-status applies to --format yaml only');
  const at = values.at === undefined ? null : Date.parse(values.at);
  if (at !== null && Number.isNaN(at)) throw new UsageError(`--at must be a time such as 2024-05-01T12:00:00Z, got "${values.at}"`);
  const timeoutMs = values.timeout === undefined ? 60_000 : Number(values.timeout) * 1000;
  if (!(timeoutMs > 0)) throw new UsageError(`--timeout must be a number of seconds, got "${values.timeout}"`);
  const out = path.resolve(values.out);

  const registry = new ContextRegistry({ explicit: values.kubeconfig, env: process.env, homeDir: os.homedir() });
  await registry.reload();
  const context = values.context ?? registry.list().kubeconfigCurrent ?? undefined;
  // Checked before the engine starts (and connects somewhere else); opened snapshots are known only to the engine.
  if (values.context && !registry.has(values.context) && !values.context.startsWith('snapshot: ')) throw unknownContext(values.context, registry.list());
  const engine = createEngine({
    version: packageVersion(),
    dataDir: path.resolve(values['data-dir'] ?? defaultDataDir()),
    shell: 'test',
    kubeconfig: values.kubeconfig,
    context,
    loginShellPath: false,
    watchKubeconfig: false,
    log: () => {},
  });
  try {
    await engine.start();
    const list = unwrap<ContextList>(await engine.dispatch('contexts:list', {}), 'contexts');
    if (context && list.selected !== context) throw unknownContext(context, list);
    const selected = list.selected as string;
    const snapshot = list.contexts.find((entry) => entry.name === selected)?.snapshot !== undefined;
    await waitForSync(engine, selected, timeoutMs, { discovery: !snapshot });
    const scope = values.namespace ? { type: 'namespace' as const, namespace: values.namespace } : { type: 'cluster' as const };
    const result = unwrap<ExportResult>(
      await engine.dispatch('snapshot:export', { format, scope, at, destination: 'download', ...(values['keep-status'] ? { keepStatus: true } : {}) }),
      'export',
    );
    await download(engine, result.id, out);
    console.log(`Wrote ${out}: ${result.objects} objects of "${selected}"${values.namespace ? ` in namespace ${values.namespace}` : ''} at ${new Date(result.takenAt).toISOString()} (${result.bytes} bytes)`);
    for (const note of result.notes) console.log(`Note: ${note}`);
    return 0;
  } finally {
    await engine.dispose();
  }
}

export async function snapshotCommand(argv: string[]): Promise<number> {
  const [verb, ...rest] = argv;
  if (verb === undefined || verb === '--help' || verb === '-h' || verb === 'help') {
    console.log(SNAPSHOT_HELP);
    return verb === undefined ? 2 : 0;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(SNAPSHOT_HELP);
    return 0;
  }
  if (verb === 'export') return exportCommand(rest);
  if (verb === 'inspect') {
    const { positionals } = parseFlags(rest, {});
    if (positionals.length !== 1) throw new UsageError(`inspect takes one snapshot file, got ${positionals.length}`);
    try {
      return await inspectCommand(positionals[0] as string);
    } catch (error) {
      if (error instanceof SnapshotFileError) {
        console.error(`kubedrift snapshot: ${error.message}`);
        return 1;
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        console.error(`kubedrift snapshot: there is no file ${path.resolve(positionals[0] as string)}`);
        return 1;
      }
      throw error;
    }
  }
  throw new UsageError(`unknown snapshot command "${verb}" (use export or inspect)`);
}
