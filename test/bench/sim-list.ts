/**
 * List latency of the seeded simulated cluster (50,000 pods), measured by a client in another
 * thread over loopback HTTPS from request to last byte:
 * - `sim_list_50k_pods_ms`: `GET /api/v1/pods` as JSON (a PodList), p50/p95.
 * - `sim_list_50k_pods_table_ms`: the same list as the meta.k8s.io Table `kubectl get` asks for.
 * - `sim_list_50k_paged_500_ms`: `limit=500` and `continue` through every page (client-go's
 *   pager, as informers list), total time of one pass including parsing each page.
 */
import { BenchClient, KUBECTL_TABLE_ACCEPT, type ClientReply } from './http-client.ts';
import { latency, round } from './stats.ts';
import type { BenchScenario } from './types.ts';

const PODS = '/api/v1/pods';

function runs(quick: boolean) {
  return quick ? { full: 3, table: 3, paged: 1 } : { full: 5, table: 5, paged: 3 };
}

function expectItems(what: string, reply: ClientReply, pods: number): void {
  if (reply.items !== pods) throw new Error(`${what} returned ${reply.items} items, expected ${pods}`);
}

export const simList: BenchScenario = {
  name: 'sim-list',
  sharedSim: true,
  results: ['sim_list_50k_pods_ms', 'sim_list_50k_pods_table_ms', 'sim_list_50k_paged_500_ms'],
  async run(ctx) {
    const fixture = await ctx.sim();
    const client = new BenchClient(fixture.target);
    const count = runs(ctx.quick);
    try {
      // One untimed pass of each form: warms the server's code paths and checks the answers.
      const json = await client.get(PODS, { parse: true });
      expectItems('the JSON list', json, fixture.pods);
      expectItems('the Table list', await client.get(PODS, { accept: KUBECTL_TABLE_ACCEPT, parse: true }), fixture.pods);
      ctx.log(`list: ${fixture.pods} pods, ${round(json.bytes / 1e6)} MB of JSON`);

      const full: number[] = [];
      for (let i = 0; i < count.full; i += 1) full.push((await client.get(PODS)).ms);
      const table: number[] = [];
      for (let i = 0; i < count.table; i += 1) table.push((await client.get(PODS, { accept: KUBECTL_TABLE_ACCEPT })).ms);
      const paged: number[] = [];
      for (let i = 0; i < count.paged; i += 1) {
        const reply = await client.pages(PODS, 500);
        expectItems('the paged list', reply, fixture.pods);
        paged.push(reply.ms);
      }
      return {
        sim_list_50k_pods_ms: latency(full),
        sim_list_50k_pods_table_ms: latency(table),
        sim_list_50k_paged_500_ms: latency(paged),
      };
    } finally {
      await client.close();
    }
  },
};
