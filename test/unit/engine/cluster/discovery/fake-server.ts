/**
 * A discovery-only API server for the client and registry tests: answers paths from a table of
 * documents (or Status failures), tells aggregated from legacy clients by their Accept header as
 * kube-apiserver does, and records every request and the most requests it had in flight.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTransport, type Transport } from '../../../../../electron/engine/cluster/informers/http.ts';

/** A failure to answer with: the HTTP status and its Status body. */
export interface Failure {
  status: number;
  body: object;
}

export interface FakeServer {
  url: string;
  /** Documents by path; a Failure answers with its status. Tests may change it between requests. */
  documents: Record<string, object | Failure>;
  /** Aggregated documents for `/api` and `/apis`, given to clients that ask for them; none: a legacy server. */
  aggregated: { api?: object; apis?: object };
  readonly requests: Array<{ path: string; accept: string }>;
  /** The most requests open at once. */
  maxInFlight: number;
  /** Milliseconds each group-version request takes (to see the concurrency bound). */
  delayMs: number;
  transport(): Transport;
  close(): Promise<void>;
}

const isFailure = (value: object | Failure): value is Failure => 'status' in value && typeof value.status === 'number' && 'body' in value;

const NOT_FOUND = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 };

export async function startFakeServer(documents: Record<string, object | Failure>, aggregated: FakeServer['aggregated'] = {}): Promise<FakeServer> {
  let inFlight = 0;
  const transports: Transport[] = [];
  const fake: Omit<FakeServer, 'url' | 'transport' | 'close'> = { documents, aggregated, requests: [], maxInFlight: 0, delayMs: 0 };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const accept = req.headers.accept ?? '';
    fake.requests.push({ path, accept });
    inFlight += 1;
    fake.maxInFlight = Math.max(fake.maxInFlight, inFlight);
    const wantsAggregated = accept.startsWith('application/json;g=apidiscovery.k8s.io');
    const root = path === '/api' ? fake.aggregated.api : path === '/apis' ? fake.aggregated.apis : undefined;
    const answer = (wantsAggregated ? root : undefined) ?? fake.documents[path];
    const send = (): void => {
      inFlight -= 1;
      const [status, body] = answer === undefined ? [404, NOT_FOUND] : isFailure(answer) ? [answer.status, answer.body] : [200, answer];
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    };
    if (fake.delayMs > 0 && path !== '/api' && path !== '/apis') setTimeout(send, fake.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    url,
    transport: () => {
      const transport = createTransport({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'fake', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
        users: [{ name: 'fake', user: { token: 't' } }],
        contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake' } }],
        'current-context': 'fake',
      });
      transports.push(transport);
      return transport;
    },
    close: () => {
      for (const transport of transports) transport.close();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
