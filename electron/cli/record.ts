/** `kubedrift record`: records the history of one or more contexts with no UI (a server, a pod). */
import os from 'node:os';
import path from 'node:path';
import type { BackgroundContextStatus } from '../../shared/contracts/background.ts';
import { createBackgroundRecording } from '../engine/background/manager.ts';
import { ContextRegistry } from '../engine/cluster/contexts.ts';
import { parseStoreLocation } from '../engine/history/postgres/connection.ts';
import { DAY_MS, type RetentionLimits } from '../engine/history/retention.ts';
import { HISTORY_TAKEOVER_SECONDS } from '../../shared/model.ts';
import { parseFlags, parsePort, UsageError } from './args.ts';
import { startHealthServer, type HealthServer } from './record-health.ts';
import { defaultDataDir } from './paths.ts';
import { parseListen, startRecorderListen, tokenSource } from './record-listen.ts';

export const RECORD_HELP = `Usage: kubedrift record --context NAME [--context NAME2 ...] [--data-dir DIR] [--kubeconfig FILE]
                        [--retention-days N] [--max-size SIZE] [--health-port N] [--health-host ADDR]
                        [--listen HOST:PORT --token-file FILE] [--store postgres://… [--takeover-after S]]
       kubedrift record --in-cluster --context NAME [...]

Records the history of each context (desired vs actual, drift episodes, the state over time)
into DIR/history, the files the app reads, with no UI. Prints one line per context when its
recording starts and on every error; errors are retried. SIGINT or SIGTERM stops it after
writing what is queued.

  --context NAME       a kubeconfig context to record (repeatable)
  --kubeconfig FILE    read only this kubeconfig (default: $KUBECONFIG, else ~/.kube/config)
  --in-cluster         record the cluster this runs in, with its ServiceAccount; the one
                       --context names the history
  --data-dir DIR       where history is kept (default: the per-user app data folder)
  --retention-days N   delete history older than N days (default 14)
  --max-size SIZE      keep each context's history under SIZE: bytes or 512Mi, 5Gi, ... (default
                       1Gi); the oldest history goes first, checked at start and every 10 minutes
  --health-port N      serve /healthz (alive) and /readyz (every context recording) on this port
  --health-host ADDR   address for --health-port (default 127.0.0.1; 0.0.0.0 in a pod)
  --listen HOST:PORT   serve the recorded history, read-only, to apps (Settings → History
                       sources) over WebSocket at ws://HOST:PORT/ws; plain HTTP, so beyond
                       one machine put TLS in front (an Ingress, kubectl port-forward, a proxy)
  --token-file FILE    the token apps must send (one a line; re-read on every connection, so
                       replacing the file rotates it); else $KUBEDRIFT_RECORDER_TOKEN
  --store URL          also keep the history in a PostgreSQL database shared by recorders and
                       apps: postgres://user@host:5432/database (the password from the URL,
                       PGPASSWORD or ~/.pgpass); default $KUBEDRIFT_HISTORY_STORE, else only the
                       files. While the database does not answer, recording goes on into the
                       files and is copied to it once it does
  --takeover-after S   with --store: one recorder writes each context; when it has been silent S
                       seconds (5 to 3600, default 30), a recorder of another history file takes
                       the context over. The claim is renewed every S/3 seconds, so a small S
                       means a faster takeover but more traffic to the database`;

const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4 };
/** Below this a store cannot hold one keyframe of a small cluster. */
export const MIN_MAX_BYTES = 16 * 1024 ** 2;
const SERVICEACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Parses `--max-size` (a byte count, optionally with a Kubernetes quantity suffix). */
export function parseSize(value: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|K|M|G|T)?$/.exec(value.trim());
  const bytes = match ? Math.floor(Number(match[1]) * (SIZE_UNITS[match[2] ?? ''] ?? 1)) : NaN;
  if (!Number.isFinite(bytes)) throw new UsageError(`--max-size must be a size such as 536870912, 512Mi or 5Gi, got "${value}"`);
  if (bytes < MIN_MAX_BYTES) throw new UsageError(`--max-size must be at least 16Mi, got "${value}"`);
  return bytes;
}

/** The kubeconfig client-node builds in a pod: the API server's Service, the mounted token (re-read as it rotates) and CA. */
export function inClusterConfig(context: string, env: Record<string, string | undefined> = process.env): object {
  const host = env['KUBERNETES_SERVICE_HOST'];
  const port = env['KUBERNETES_SERVICE_PORT'];
  if (!host || !port) throw new Error('--in-cluster: KUBERNETES_SERVICE_HOST/PORT are not set; this is not running in a pod');
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': context,
    contexts: [{ name: context, context: { cluster: 'in-cluster', user: 'in-cluster' } }],
    clusters: [{ name: 'in-cluster', cluster: { server, 'certificate-authority': `${SERVICEACCOUNT_DIR}/ca.crt` } }],
    users: [{ name: 'in-cluster', user: { 'auth-provider': { name: 'tokenFile', config: { tokenFile: `${SERVICEACCOUNT_DIR}/token` } } } }],
  };
}

function positiveInt(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got "${value}"`);
  return Number(value);
}

function healthPortOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parsePort(value, 0);
  } catch {
    throw new UsageError(`--health-port must be a number from 0 to 65535, got "${value}"`);
  }
}

/** Parses `--takeover-after` (seconds) into the shared store's writer ttl in ms; undefined keeps WRITER_TTL_MS. */
export function parseTakeoverAfter(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const { min, max } = HISTORY_TAKEOVER_SECONDS;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  if (!Number.isSafeInteger(seconds) || seconds < min || seconds > max) throw new UsageError(`--takeover-after must be a whole number of seconds from ${min} to ${max}, got "${value}"`);
  return seconds * 1000;
}

/** `--store` (or $KUBEDRIFT_HISTORY_STORE), checked before anything records. */
function storeOf(value: string | undefined, fromFlag: boolean): { url: string; target: string } | undefined {
  try {
    const location = parseStoreLocation(value);
    return location.kind === 'postgres' ? location : undefined;
  } catch (error) {
    throw new UsageError(`${fromFlag ? '--store' : '$KUBEDRIFT_HISTORY_STORE'}: ${(error as Error).message}`);
  }
}

/** One line per change worth a person's attention: recording started, or a new error. */
function describe(previous: BackgroundContextStatus | undefined, next: BackgroundContextStatus): string | undefined {
  const iso = (at: number) => new Date(at).toISOString();
  if (next.state === 'recording' && previous?.state !== 'recording' && next.recordingSince !== null) return `recording ${next.context} since ${iso(next.recordingSince)}`;
  if (next.lastError && next.lastError.at !== previous?.lastError?.at) {
    const retry = next.state === 'retrying' && next.retryAt !== null ? `; retrying at ${iso(next.retryAt)}` : '';
    return `error ${next.context}: ${next.lastError.message}${retry}`;
  }
  return undefined;
}

export async function recordCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    context: { type: 'string', multiple: true },
    kubeconfig: { type: 'string' },
    'in-cluster': { type: 'boolean' },
    'data-dir': { type: 'string' },
    'retention-days': { type: 'string' },
    'max-size': { type: 'string' },
    store: { type: 'string' },
    'takeover-after': { type: 'string' },
    'health-port': { type: 'string' },
    'health-host': { type: 'string' },
    listen: { type: 'string' },
    'token-file': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(RECORD_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`record takes no arguments, got "${positionals[0]}"; name contexts with --context`);
  const contexts = [...new Set(values.context ?? [])];
  if (contexts.length === 0) throw new UsageError('name at least one context to record with --context NAME');
  const inCluster = values['in-cluster'] === true;
  if (inCluster && (contexts.length !== 1 || values.kubeconfig)) throw new UsageError('--in-cluster records one cluster: give exactly one --context (its name in the history) and no --kubeconfig');
  const limits: RetentionLimits = {
    maxAgeMs: positiveInt(values['retention-days'], '--retention-days', 14) * DAY_MS,
    maxBytes: values['max-size'] === undefined ? 1024 ** 3 : parseSize(values['max-size']),
  };
  const healthPort = healthPortOf(values['health-port']);
  const store = storeOf(values.store ?? process.env['KUBEDRIFT_HISTORY_STORE'], values.store !== undefined);
  const writerTtlMs = parseTakeoverAfter(values['takeover-after']);
  if (writerTtlMs !== undefined && !store) throw new UsageError('--takeover-after goes with a shared store: --store postgres://… (or $KUBEDRIFT_HISTORY_STORE)');
  const dataDir = path.resolve(values['data-dir'] ?? defaultDataDir());
  if (values['token-file'] !== undefined && values.listen === undefined) throw new UsageError('--token-file goes with --listen HOST:PORT');
  const listen = values.listen === undefined ? undefined : parseListen(values.listen);
  const tokens = listen ? tokenSource(values['token-file'], process.env, (message) => console.error(message)) : undefined;

  const registry = new ContextRegistry({ explicit: values.kubeconfig, env: process.env, homeDir: os.homedir() });
  // Outside a pod this fails at once, with its reason, rather than retrying for ever.
  if (inCluster) inClusterConfig(contexts[0] as string);
  else {
    await registry.reload();
    for (const name of contexts) {
      const info = registry.get(name);
      if (!info || info.demo) {
        const known = registry.list().contexts.filter((context) => !context.demo).map((context) => context.name);
        console.error(`kubedrift record: there is no context "${name}" in ${registry.paths().join(', ')} (known: ${known.join(', ') || 'none'})`);
        return 2;
      }
    }
  }

  const printed = new Map<string, BackgroundContextStatus>();
  const recording = createBackgroundRecording({
    dataDir,
    now: Date.now,
    // The status lines below say what the recorders' own log lines would.
    log: (message) => !message.startsWith('[kubedrift] background ') && console.error(message),
    chosen: () => contexts,
    selected: () => null,
    recordable: () => true,
    clientConfig: async (name) => (inCluster ? inClusterConfig(name) : registry.clientConfig(name)),
    limits: () => limits,
    ...(store ? { store: () => store.url } : {}),
    // How a shared store names this recorder to the others of the same context (in a pod: the pod's name).
    recorder: { writerLabel: `kubedrift record on ${os.hostname()} (pid ${process.pid})`, ...(writerTtlMs === undefined ? {} : { writerTtlMs: () => writerTtlMs }) },
    onStatus: (status) => {
      for (const entry of status.contexts) {
        const line = describe(printed.get(entry.context), entry);
        printed.set(entry.context, entry);
        if (line) console.log(line);
      }
    },
  });
  let health: HealthServer | undefined;
  if (healthPort !== undefined) {
    const host = values['health-host'] ?? '127.0.0.1';
    try {
      health = await startHealthServer({ host, port: healthPort, status: () => recording.status() });
    } catch (error) {
      console.error(`kubedrift record: could not serve health checks on ${host}:${healthPort}: ${(error as Error).message}`);
      return 1;
    }
    console.log(`health checks on http://${host}:${health.port}/healthz and /readyz`);
  }
  let served: { port: number; close(): Promise<void> } | undefined;
  if (listen && tokens) {
    const recorded = contexts.map((name) => ({ name, ...(inCluster || !registry.get(name)?.server ? {} : { server: registry.get(name)?.server }) }));
    try {
      served = await startRecorderListen({
        address: listen,
        tokens,
        dataDir,
        contexts: recorded,
        log: (message) => console.error(message),
        recording: (name) => {
          const status = recording.status().contexts.find((entry) => entry.context === name);
          if (status?.state === 'recording') return { state: 'recording' };
          return { state: 'error', message: status?.lastError?.message ?? `The recorder of ${name} is not recording yet.` };
        },
      });
    } catch (error) {
      console.error(`kubedrift record: could not serve history on ${listen.host}:${listen.port}: ${(error as Error).message}`);
      await health?.close();
      return 1;
    }
    const shown = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
    console.log(`history served on ws://${shown}:${served.port}/ws (token required)`);
  }
  if (store) console.log(`history also kept in PostgreSQL at ${store.target}${writerTtlMs === undefined ? '' : `; a writer silent ${writerTtlMs / 1000} s is taken over`}`);
  recording.reconcile();
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await recording.dispose();
  await served?.close();
  await health?.close();
  console.log(`stopped; history written to ${path.join(dataDir, 'history')}`);
  return 0;
}
