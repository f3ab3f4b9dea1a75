/**
 * The access checks' connection for one kubeconfig context: the diff's keep-alive API client
 * (TLS material and auth headers from client-node), made anew once when the server answers 401
 * so an expired exec-plugin or OIDC token is fetched again, as the informers renew theirs.
 */
import { createApiClient, type ApiClient } from '../../diff/cluster/client.ts';
import type { AccessApi } from './api.ts';

/** An AccessApi that can be closed. */
export interface AccessConnection extends AccessApi {
  /** The kubeconfig context's namespace, if it names one (a source of candidate namespaces). */
  readonly namespace: string | undefined;
  close(): void;
}

/**
 * Wraps a client factory: a 401 closes the client, makes a new one and repeats the request
 * once; a second 401 is the answer (the credentials are refused, not stale).
 */
export async function renewingApi(make: () => Promise<Pick<ApiClient, 'server' | 'namespace' | 'request' | 'close'>>): Promise<AccessConnection> {
  type Client = Awaited<ReturnType<typeof make>>;
  /** A client with its requests in flight: a retired one closes when its last request ends, never under one. */
  interface Slot {
    client: Client;
    inFlight: number;
    retired: boolean;
  }
  let current: Slot = { client: await make(), inFlight: 0, retired: false };
  let renewing: Promise<void> | undefined;
  const retire = (slot: Slot): void => {
    slot.retired = true;
    if (slot.inFlight === 0) slot.client.close();
  };
  const renew = (stale: Slot): Promise<void> => {
    // Requests failing together renew once; one that failed on an older client just retries.
    if (stale !== current) return Promise.resolve();
    renewing ??= make()
      .then((fresh) => {
        current = { client: fresh, inFlight: 0, retired: false };
        retire(stale);
      })
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };
  const send = async (slot: Slot, ...args: Parameters<AccessApi['request']>) => {
    slot.inFlight += 1;
    try {
      return await slot.client.request(...args);
    } finally {
      slot.inFlight -= 1;
      if (slot.retired && slot.inFlight === 0) slot.client.close();
    }
  };
  return {
    server: current.client.server,
    namespace: current.client.namespace,
    async request(...args) {
      const used = current;
      const first = await send(used, ...args);
      if (first.status !== 401) return first;
      await renew(used);
      return send(current, ...args);
    },
    close() {
      retire(current);
    },
  };
}

/** The access connection for a single-context kubeconfig object. */
export function connectAccess(config: object): Promise<AccessConnection> {
  return renewingApi(() => createApiClient(config));
}
