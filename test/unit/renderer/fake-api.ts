/**
 * A scripted stand-in for the engine: answers requests from handlers, records every call, and
 * lets a test push stream payloads the way the engine would.
 */
import { applySettingsUpdate } from '../../../shared/contracts/settings.ts';
import type {
  KubedriftApi,
  RequestChannel,
  RequestOf,
  ResponseOf,
  StreamChannel,
  StreamPayload,
} from '../../../shared/contract.ts';
import type { AppInfo, ConnectionStatus, ContextList, Settings } from '../../../shared/model.ts';
import { err, ok, type Result } from '../../../shared/result.ts';

export type Handlers = {
  [C in RequestChannel]?: (payload: RequestOf<C>) => Result<ResponseOf<C>> | Promise<Result<ResponseOf<C>>>;
};

export interface FakeApi extends KubedriftApi {
  readonly calls: Array<{ channel: RequestChannel; payload: unknown }>;
  emit<S extends StreamChannel>(stream: S, payload: StreamPayload<S>): void;
  listenerCount(stream: StreamChannel): number;
}

export const CONTEXT_LIST: ContextList = {
  contexts: [
    { name: 'kind-dev', cluster: 'kind-dev', user: 'kind-admin', server: 'https://127.0.0.1:6443', source: '/home/me/.kube/config', demo: false },
    {
      name: 'staging-eu',
      cluster: 'staging-eu',
      user: 'alice',
      namespace: 'payments',
      server: 'https://staging.example.com',
      source: '/home/me/.kube/config',
      demo: false,
    },
    {
      name: 'prod-us',
      cluster: 'prod-us',
      user: 'alice',
      source: '/home/me/.kube/prod.yaml',
      demo: false,
      problem: 'Context "prod-us" cluster "prod-us" is not defined in any kubeconfig file',
    },
    { name: 'kubedrift-demo', cluster: 'kubedrift-demo', user: 'kubedrift-demo', source: 'built-in', demo: true },
  ],
  selected: 'kind-dev',
  kubeconfigCurrent: 'kind-dev',
  sources: [{ path: '/home/me/.kube/config', state: 'loaded' }],
};

export const APP_INFO: AppInfo = {
  name: 'Kubedrift',
  version: '0.1.0',
  platform: 'linux',
  runtime: { node: '22.20.0' },
  shell: 'browser',
  dataDir: '/tmp/kubedrift-data',
  startedAt: 1_700_000_000_000,
};

export const CONNECTED: ConnectionStatus = {
  context: 'kind-dev',
  state: 'connected',
  server: 'https://127.0.0.1:6443',
  serverVersion: 'v1.32.0',
  since: 1_700_000_000_000,
};

export const SETTINGS: Settings = { theme: 'system', lastContext: 'kind-dev' };

const DEFAULTS: Handlers = {
  'app:info': () => ok(APP_INFO),
  'contexts:list': () => ok(CONTEXT_LIST),
  'contexts:select': ({ name }) => ok({ ...CONTEXT_LIST, selected: name }),
  'connection:status': () => ok(CONNECTED),
  'settings:get': () => ok(SETTINGS),
  'settings:update': (patch) => ok(applySettingsUpdate(SETTINGS, patch)),
  'cluster:resync': () => ok({ epoch: 'epoch-1', seq: 0 }),
  'cluster:health': () => ok({ context: 'kind-dev', epoch: 'epoch-1', kinds: [] }),
};

/** A fake engine answering with the fixtures above unless `handlers` says otherwise. */
export function createFakeApi(handlers: Handlers = {}): FakeApi {
  const all: Record<string, ((payload: never) => unknown) | undefined> = { ...DEFAULTS, ...handlers };
  const listeners = new Map<StreamChannel, Set<(payload: unknown) => void>>();
  const calls: FakeApi['calls'] = [];
  return {
    calls,
    async request(channel, payload) {
      calls.push({ channel, payload });
      const handler = all[channel];
      if (!handler) return err('unknown-channel', `no fake handler for ${channel}`);
      return (await handler(payload as never)) as never;
    },
    subscribe(stream, listener) {
      const set = listeners.get(stream) ?? new Set();
      listeners.set(stream, set);
      const entry = listener as (payload: unknown) => void;
      set.add(entry);
      return () => set.delete(entry);
    },
    emit(stream, payload) {
      for (const listener of listeners.get(stream) ?? []) listener(payload);
    },
    listenerCount(stream) {
      return listeners.get(stream)?.size ?? 0;
    },
  };
}
