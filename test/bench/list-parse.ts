/**
 * The yardstick of the ratio goals: how long one JSON.parse of a cluster's whole pod list takes
 * on this thread, now. The list is fetched from the simulated cluster as a client reads it (the
 * same JSON the engine's sync decodes), page by page so a 150,000-pod list (~450 MB) never has to
 * be one string (V8 caps strings at ~512 MB); each page is parsed PARSE_RUNS times and its median
 * counted, and the pages' medians add up to one parse of the whole list.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ClientTarget } from './http-client.ts';
import { percentile } from './stats.ts';

const PODS = '/api/v1/pods';
/** Pods per page: big enough that per-page overheads vanish, small enough to stay a modest string. */
const PAGE_LIMIT = 5_000;
const PARSE_RUNS = 3;

function get(target: ClientTarget, path: string): Promise<string> {
  const url = new URL(path, target.url);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: 'application/json', ...(target.token ? { Authorization: `Bearer ${target.token}` } : {}) }, ...(target.caPem ? { ca: target.caPem } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) reject(new Error(`GET ${path}: ${res.statusCode} ${body.slice(0, 200)}`));
        else resolve(body);
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** One JSON.parse of the whole pod list: ms (sum of the pages' medians), the pods and the bytes parsed. */
export async function podListParse(target: ClientTarget): Promise<{ ms: number; pods: number; bytes: number }> {
  let token = '';
  let ms = 0;
  let pods = 0;
  let bytes = 0;
  do {
    const body = await get(target, `${PODS}?limit=${PAGE_LIMIT}${token ? `&continue=${encodeURIComponent(token)}` : ''}`);
    const runs: number[] = [];
    let page: { items: unknown[]; metadata?: { continue?: string } } | undefined;
    for (let i = 0; i < PARSE_RUNS; i += 1) {
      const started = performance.now();
      page = JSON.parse(body) as typeof page;
      runs.push(performance.now() - started);
    }
    ms += percentile(runs, 50);
    pods += page?.items.length ?? 0;
    bytes += body.length;
    token = page?.metadata?.continue ?? '';
  } while (token);
  return { ms, pods, bytes };
}
