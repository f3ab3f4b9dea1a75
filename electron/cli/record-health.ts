/**
 * `kubedrift record --health-port`: the probes of an in-cluster recorder.
 * - `/healthz` (liveness): 200 while the process serves requests. An unreachable cluster or
 *   expired credentials do not fail it: a restart would not fix those, and the recorder retries.
 * - `/readyz` (readiness): 200 once every context records, else 503; both answer with the
 *   per-context status as JSON.
 */
import { createServer, type Server } from 'node:http';
import type { BackgroundStatus } from '../../shared/contracts/background.ts';

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

export function startHealthServer(options: { host: string; port: number; status(): BackgroundStatus }): Promise<HealthServer> {
  const server: Server = createServer((request, response) => {
    const route = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || (route !== '/healthz' && route !== '/readyz')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: use /healthz or /readyz\n');
      return;
    }
    const status = options.status();
    const ready = status.contexts.length > 0 && status.contexts.every((context) => context.state === 'recording');
    const code = route === '/healthz' || ready ? 200 : 503;
    response.writeHead(code, { 'content-type': 'application/json' }).end(`${JSON.stringify(status)}\n`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : options.port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
