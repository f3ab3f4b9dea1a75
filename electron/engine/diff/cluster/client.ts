/**
 * The diff's HTTP client for one API server: client-node's KubeConfig supplies TLS material and
 * auth headers (exec plugins, tokens, client certificates) once per run; requests go over one
 * keep-alive agent so hundreds of GETs and dry runs do not each pay a TLS handshake.
 */
import { Agent as HttpAgent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type RequestOptions } from 'node:https';
import { loadClientConfig, withoutCredentials } from '../../cluster/client-config.ts';

/** An API answer: the HTTP status and the parsed JSON body (a `Status` for failures). */
export interface ApiResponse {
  status: number;
  body: unknown;
}

export interface ApiClient {
  readonly server: string;
  /** The kubeconfig context's namespace, if it names one. */
  readonly namespace: string | undefined;
  request(method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', path: string, body?: { json: unknown; contentType: string }): Promise<ApiResponse>;
  close(): void;
}

const USER_AGENT = 'kubedrift-diff';
const MAX_SOCKETS = 16;
const REQUEST_TIMEOUT_MS = 30_000;
const TLS_FIELDS = ['ca', 'cert', 'key', 'pfx', 'passphrase', 'servername', 'rejectUnauthorized'] as const;

/** The failure message of a non-2xx answer: the Status message, else the status line. */
export function statusMessage(response: ApiResponse): string {
  const body = response.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' && body.message ? body.message : `HTTP ${response.status}`;
}

/** A client for a single-context kubeconfig object; throws when it names no cluster. */
export async function createApiClient(config: object): Promise<ApiClient> {
  const kc = loadClientConfig(config);
  const server = (kc.getCurrentCluster()?.server ?? '').replace(/\/+$/, '');
  const namespace = kc.getContextObject(kc.getCurrentContext())?.namespace || undefined;
  const options: RequestOptions = {};
  await kc.applyToHTTPSOptions(options);
  const given = options.agent;
  // Direct connections get a keep-alive agent with the same TLS material; proxy agents stay.
  const plain = given instanceof HttpAgent && (given.constructor === HttpsAgent || given.constructor === HttpAgent);
  const tls = Object.fromEntries(TLS_FIELDS.filter((field) => options[field] !== undefined).map((field) => [field, options[field]]));
  const agent = !plain && given instanceof HttpAgent ? given : server.startsWith('http:') ? new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }) : new HttpsAgent({ ...tls, keepAlive: true, maxSockets: MAX_SOCKETS });
  const baseHeaders: OutgoingHttpHeaders = { ...((options.headers as OutgoingHttpHeaders | undefined) ?? {}), 'User-Agent': USER_AGENT };
  // A plain-HTTP cluster the kubeconfig did not mark insecure: no credentials, as kubectl (client-config.ts).
  const insecure = withoutCredentials(kc);
  if (insecure) delete baseHeaders['Authorization'];
  return {
    server,
    namespace,
    request(method, path, body) {
      const url = new URL(`${server}${path}`);
      const payload = body ? JSON.stringify(body.json) : undefined;
      const headers: OutgoingHttpHeaders = { ...baseHeaders, Accept: 'application/json', ...(body ? { 'Content-Type': body.contentType, 'Content-Length': Buffer.byteLength(payload ?? '') } : {}) };
      const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
      return new Promise<ApiResponse>((resolve, reject) => {
        const req = send(url, { method, headers, agent, timeout: REQUEST_TIMEOUT_MS, ...(options.auth && !insecure ? { auth: options.auth } : {}) }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              parsed = { message: text.trim().slice(0, 500) };
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
        });
        req.on('timeout', () => req.destroy(new Error(`no answer from ${server} within ${REQUEST_TIMEOUT_MS / 1000} s`)));
        req.on('error', reject);
        req.end(payload);
      });
    },
    close() {
      agent.destroy();
      if (given instanceof HttpAgent && given !== agent) given.destroy();
    },
  };
}
