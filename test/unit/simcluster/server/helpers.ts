/** A simulated API server per test, and raw HTTP(S) clients that show exactly what it sends. */
import { afterEach } from 'vitest';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../../../../electron/engine/simcluster/server/http.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { testExtensions } from './test-extensions.ts';

export const NOW = Date.parse('2025-06-01T12:00:00Z');

export function type(id: string): ResourceType {
  const t = typeById(id);
  if (!t) throw new Error(`no type ${id}`);
  return t;
}

export interface TestCluster {
  store: ObjectStore;
  server: ApiServer;
}

/** A store with the default namespace, served over plain HTTP unless `tls` is asked for. */
export async function startTestCluster(options: Partial<ApiServerOptions> = {}): Promise<TestCluster> {
  const store = options.store ?? new ObjectStore({ now: () => NOW });
  if (!store.find(type('namespaces'), undefined, 'default')) {
    store.create(type('namespaces'), { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
  }
  const server = await startApiServer({ tls: false, now: () => NOW, extensions: testExtensions(), ...options, store });
  return { store, server };
}

/** Parsed JSON as the tests read it; the assertions check its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- shapes are asserted, not typed
export type Json = any;

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: Json;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  token?: string;
  /** The CA to trust; the server's own by default, `null` for the system store only. */
  ca?: string | null;
}

function send(server: Pick<ApiServer, 'url' | 'caPem'>, method: string, path: string, options: RequestOptions): Promise<IncomingMessage> {
  const url = new URL(path, server.url);
  const body =
    options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(typeof options.body === 'string' ? options.body : JSON.stringify(options.body));
  const headers: Record<string, string> = {
    ...(body !== undefined ? { 'Content-Type': 'application/json', 'Content-Length': String(body.length) } : {}),
    ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    ...options.headers,
  };
  const requestFn = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const ca = options.ca === undefined ? server.caPem : options.ca;
    const req = requestFn(url, { method, headers, ...(ca ? { ca } : {}) }, resolve);
    req.on('error', reject);
    req.end(body);
  });
}

export async function call(server: Pick<ApiServer, 'url' | 'caPem'>, method: string, path: string, options: RequestOptions = {}): Promise<HttpResult> {
  const res = await send(server, method, path, options);
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode ?? 0, headers: res.headers, text, json };
}

export interface OpenWatch {
  status: number;
  headers: IncomingHttpHeaders;
  /** Every chunk as received, to check framing. */
  chunks: string[];
  /** The next parsed event (waits up to `timeoutMs`). */
  next(timeoutMs?: number): Promise<{ type: string; object: Json }>;
  /** Resolves when the server ends the stream; `cut` is true when it was destroyed instead. */
  ended: Promise<{ cut: boolean }>;
  response: IncomingMessage;
  close(): void;
}

/** Opens a watch and parses its newline-delimited JSON incrementally. */
export async function openWatch(server: Pick<ApiServer, 'url' | 'caPem'>, path: string, options: RequestOptions = {}): Promise<OpenWatch> {
  const res = await send(server, 'GET', path, options);
  const chunks: string[] = [];
  const queue: Array<{ type: string; object: Json }> = [];
  const waiters: Array<() => void> = [];
  let buffer = '';
  res.setEncoding('utf8');
  res.on('data', (chunk: string) => {
    chunks.push(chunk);
    buffer += chunk;
    let index;
    while ((index = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, index);
      buffer = buffer.slice(index + 1);
      if (line.trim() !== '') queue.push(JSON.parse(line));
    }
    for (const wake of waiters.splice(0)) wake();
  });
  const ended = new Promise<{ cut: boolean }>((resolve) => {
    res.on('end', () => resolve({ cut: false }));
    res.on('error', () => resolve({ cut: true }));
    res.on('aborted', () => resolve({ cut: true }));
  });
  return {
    status: res.statusCode ?? 0,
    headers: res.headers,
    chunks,
    response: res,
    ended,
    async next(timeoutMs = 2000) {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) throw new Error('no watch event in time');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, remaining);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return queue.shift() as { type: string; object: Json };
    },
    close() {
      res.destroy();
    },
  };
}

export function deployment(name: string, extra: Partial<IncomingObject> = {}): IncomingObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
    ...extra,
  };
}

/**
 * One cluster per test, closed (with every watch it opened) after each test: what each server
 * test file needs. Call at the top level of the test file.
 */
export function useTestCluster(): {
  start(options?: Partial<ApiServerOptions>): Promise<TestCluster>;
  watch(path: string, headers?: Record<string, string>): Promise<OpenWatch>;
  current(): TestCluster | undefined;
} {
  let cluster: TestCluster | undefined;
  const watches: OpenWatch[] = [];
  afterEach(async () => {
    for (const w of watches.splice(0)) w.close();
    await cluster?.server.close();
    cluster = undefined;
  });
  return {
    async start(options = {}) {
      cluster = await startTestCluster(options);
      return cluster;
    },
    async watch(path, headers = {}) {
      if (!cluster) throw new Error('start a cluster first');
      const w = await openWatch(cluster.server, path, { headers });
      watches.push(w);
      return w;
    },
    current: () => cluster,
  };
}

/** A ConfigMap manifest, the smallest object with labels the server tests need. */
export function configMap(name: string, labels: Record<string, string> = {}, namespace = 'default'): object {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels }, data: { key: name } };
}
