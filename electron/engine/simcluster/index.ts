/**
 * The simulated cluster as one thing: object store, controllers playing a scenario, and the
 * HTTPS API server real clients talk to. Used by the demo context, `kubedrift sim`, the tests
 * and the benchmarks.
 */
import { stringify } from 'yaml';
import { createApiExtensions } from './api-extensions.ts';
import { applyDefaults, validate } from './defaults/index.ts';
import { userContextName, userKubeconfig, withUserContexts } from './rbac/kubeconfig-users.ts';
import { addPresetUser, type PresetUser, type UserCredentials } from './rbac/preset-users.ts';
import { loadScenario } from './scenarios/load.ts';
import { runScenario, type RunningScenario } from './scenarios/runner.ts';
import type { Scenario } from './scenarios/load.ts';
import { versionInfo } from './server/discovery.ts';
import { OPEN_ACCESS_TOKEN, startApiServer, type ApiServer } from './server/http.ts';
import { kubeconfigObjectFor, type KubeconfigDocument } from './server/kubeconfig.ts';
import { allocateServiceFields } from './server/services.ts';
import { ObjectStore } from './store.ts';
import type { Clock } from './controllers/runtime.ts';

export const DEFAULT_KUBERNETES_MINOR = 32;

export interface SimClusterOptions {
  /** A built-in scenario name (`demo`, `minimal`) or a YAML file; default `demo`. */
  scenario?: string | Scenario;
  port?: number;
  /** HTTPS with a per-run CA (default); false serves plain HTTP. */
  tls?: boolean;
  /** Also serve HTTP/2 over ALPN, as kube-apiserver does (TLS only); default HTTP/1.1 only. */
  http2?: boolean;
  /** SETTINGS_MAX_CONCURRENT_STREAMS of each HTTP/2 connection (default 1000, kube-apiserver's). */
  http2MaxStreams?: number;
  /** How far a watch client may fall behind before its watch is ended (server/watch-stream.ts; 16 MiB by default). */
  watchBufferLimitBytes?: number;
  /** Require this bearer token (and optionally a read-only one whose writes get 403). */
  token?: string;
  readOnlyToken?: string;
  /** The Kubernetes minor version reported by /version (kubectl's dispatcher picks its build by it). */
  kubernetesMinor?: number;
  /** Overrides the scenario's speed. */
  speed?: number;
  clock?: Clock;
  bookmarkIntervalMs?: number;
  /** false: the WatchList feature gate is off (sendInitialEvents answered 422, as a 1.27+ server without it). Default on. */
  watchList?: boolean;
  /** false: only seed the store and serve it (no controllers, no timeline). */
  controllers?: boolean;
  onError?: (message: string) => void;
  /**
   * Fills the store once the server listens and before the preset users are bound, so their
   * RoleBindings may name what it creates (`kubedrift sim --pods N`: the churn generator's namespaces).
   */
  seed?: (store: ObjectStore) => void;
  /** Users with preset roles (rbac/preset-users.ts), each with a token and, over TLS, a client certificate. */
  users?: readonly PresetUser[];
}

export interface SimCluster {
  readonly store: ObjectStore;
  readonly server: ApiServer;
  readonly scenario: RunningScenario;
  readonly version: string;
  /** A kubeconfig (YAML) any client can use. */
  kubeconfig(contextName?: string): string;
  /** The same kubeconfig as an object, for in-process clients. */
  kubeconfigObject(contextName?: string): KubeconfigDocument;
  /** The preset users and their credentials. */
  readonly users: readonly UserCredentials[];
  /** A single-context kubeconfig for preset user `user` (its token), for in-process clients. */
  userKubeconfigObject(user: string, contextName?: string): KubeconfigDocument;
  /** The admin's kubeconfig plus a context `<context>-<user>` per preset user (client certificates over TLS). */
  kubeconfigWithUsers(contextName?: string): string;
  stop(): Promise<void>;
}

function minorOf(version: string | undefined): number | undefined {
  const match = version ? /^v1\.(\d+)\./.exec(version) : null;
  return match ? Number(match[1]) : undefined;
}

export async function startSimCluster(options: SimClusterOptions = {}): Promise<SimCluster> {
  const loaded = typeof options.scenario === 'object' ? options.scenario : loadScenario(options.scenario ?? 'demo');
  const minor = options.kubernetesMinor ?? minorOf(loaded.kubernetesVersion) ?? DEFAULT_KUBERNETES_MINOR;
  const version = versionInfo(minor).gitVersion;
  const scenario: Scenario = { ...loaded, kubernetesVersion: version };
  const clock = options.clock;
  const store = new ObjectStore(clock ? { now: () => clock.now() } : {});
  const onError = options.onError ?? ((message: string) => console.error(`[simcluster] ${message}`));
  const running = runScenario({
    scenario,
    store,
    ...(clock ? { clock } : {}),
    ...(options.speed !== undefined ? { speed: options.speed } : {}),
    controllers: options.controllers ?? true,
    applyDefaults,
    validate,
    allocate: (type, object, old) => (type.group === '' && type.plural === 'services' ? allocateServiceFields(store, object, old) : object),
    onActionError: (entry, error) => onError(`timeline action ${JSON.stringify(entry.note ?? entry)} failed: ${(error as Error).message}`),
  });
  const tokens = options.token || options.readOnlyToken ? { ...(options.token ? { readWrite: options.token } : {}), ...(options.readOnlyToken ? { readOnly: options.readOnlyToken } : {}) } : undefined;
  let server: ApiServer;
  try {
    server = await startApiServer({
      store,
      extensions: createApiExtensions({ version }),
      ...(options.port !== undefined ? { port: options.port } : {}),
      tls: options.tls ?? true,
      ...(tokens ? { tokens } : {}),
      kubernetesMinor: minor,
      seedAccessPolicy: true,
      ...(clock ? { now: () => clock.now() } : {}),
      ...(options.bookmarkIntervalMs !== undefined ? { bookmarkIntervalMs: options.bookmarkIntervalMs } : {}),
      ...(options.watchList !== undefined ? { watchList: options.watchList } : {}),
      ...(options.http2 !== undefined ? { http2: options.http2 } : {}),
      ...(options.http2MaxStreams !== undefined ? { http2MaxStreams: options.http2MaxStreams } : {}),
      ...(options.watchBufferLimitBytes !== undefined ? { watchBufferLimitBytes: options.watchBufferLimitBytes } : {}),
    });
  } catch (error) {
    running.stop();
    store.close();
    throw error;
  }
  const users: UserCredentials[] = [];
  try {
    options.seed?.(store);
    for (const user of options.users ?? []) {
      users.push(await addPresetUser({ store, access: server.access, user, ...(server.caPem ? { clientCertificate: (name, groups) => server.clientCertificate(name, groups) } : {}) }));
    }
  } catch (error) {
    running.stop();
    store.close();
    await server.close();
    throw error;
  }
  const token = options.token ?? OPEN_ACCESS_TOKEN;
  const adminKubeconfig = (contextName?: string): KubeconfigDocument =>
    kubeconfigObjectFor({ server: server.url, ...(server.caPem ? { caPem: server.caPem } : {}), token, ...(contextName ? { contextName } : {}) });
  return {
    store,
    server,
    scenario: running,
    version,
    kubeconfig: (contextName) => server.kubeconfig(contextName),
    kubeconfigObject: (contextName) => adminKubeconfig(contextName),
    users,
    userKubeconfigObject(user, contextName) {
      const credentials = users.find((c) => c.user.name === user);
      if (!credentials) throw new Error(`the simulated cluster has no user "${user}" (it has ${users.map((c) => c.user.name).join(', ') || 'none'})`);
      const base = adminKubeconfig();
      return userKubeconfig(base, credentials, { contextName: contextName ?? userContextName(base['current-context'], user), prefer: 'token' });
    },
    kubeconfigWithUsers: (contextName) => stringify(withUserContexts(adminKubeconfig(contextName), users, 'certificate')),
    async stop() {
      running.stop();
      store.close();
      await server.close();
    },
  };
}
