import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { kubectlMissing } from '../kubectl/kubectl.ts';
import { openSession } from '../kubectl/session.ts';
import { WATCHED_KINDS } from '../../shared/cluster.ts';
import { expectConsistent, simulatorStamps } from './consistency.ts';
import { useDemoShell } from './demo-shell.ts';
import { screenshot } from './harness.ts';

const env = useDemoShell('demo');

describe('demo cluster', () => {
  it('opens on the built-in demo cluster when no kubeconfig exists, and connects to it', async () => {
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    await page.goto(env.shell.url);
    await expect.poll(() => page.getByTestId('context-picker').textContent()).toMatch(/kubedrift-demo/);
    await expect.poll(() => page.getByTestId('connection-state').textContent(), { timeout: 30_000 }).toMatch(/Connected · v1\.\d+\.\d+ · https:\/\/127\.0\.0\.1:\d+/);
    // The Overview is the demo's workloads, live from the cluster stream.
    await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
    await expect.poll(() => page.locator('[data-testid="virtual-table"] [role="row"]', { hasText: 'frontend' }).count()).toBeGreaterThan(0);
    // Seconds after connecting: every workload still starts its pods.
    await screenshot(page, 'overview-demo-start-dark');
    // The simulator, the engine cache and the renderer store hold the same objects, the demo
    // operators' custom resources (Certificates, Issuers, the Database) and their CRDs included.
    const custom = ['certificates.cert-manager.io', 'issuers.cert-manager.io', 'databases.db.kubedrift.dev', 'customresourcedefinitions.apiextensions.k8s.io'];
    const consistent = await expectConsistent({ cluster: env.demo, engine: env.shell.engine, page, kinds: [...WATCHED_KINDS, ...custom] });
    expect(consistent.objects).toBeGreaterThan(50);
    expect(simulatorStamps(env.demo.store, custom).filter((stamp) => stamp.kind === 'databases.db.kubedrift.dev')).toHaveLength(1);
    // Where the kubeconfig came from is on the Cluster screen.
    await page.getByTestId('nav-cluster').click();
    const missing = page.locator('[data-testid="kubeconfig-source"][data-state="missing"]');
    await expect.poll(() => missing.count()).toBe(1);
    await screenshot(page, 'cluster-demo-dark');
    await page.close();
  });
});

/** A pod as a table prints it: READY, STATUS and the restart count (without "(5m ago)"). */
type PodLine = { ready: string; status: string; restarts: string };

/** The Pods screen's rows by namespace/name (its cells: status, namespace, name, ready, restarts, ...). */
async function podsOnScreen(page: Page): Promise<Map<string, PodLine>> {
  const rows = await page.locator('[data-testid="virtual-table"] [role="row"]:has([role="cell"])').evaluateAll((elements) =>
    elements.map((row) => [...row.querySelectorAll('[role="cell"]')].map((cell) => (cell.textContent ?? '').trim())),
  );
  return new Map(rows.map(([status = '', namespace = '', name = '', ready = '', restarts = '']) => [`${namespace}/${name}`, { ready, status, restarts: restarts.split(' ')[0] ?? '' }]));
}

describe.skipIf(kubectlMissing !== undefined)('demo cluster pods', () => {
  it('lists every pod with the READY, STATUS and RESTARTS kubectl prints, and counts them per node', { timeout: 120_000 }, async () => {
    // Tall enough for every pod of the demo to be rendered by the virtualised table.
    const page = await env.browser.newPage({ viewport: { width: 1280, height: 2000 }, colorScheme: 'dark' });
    const kubectl = await openSession(env.demo);
    try {
      await page.goto(env.shell.url);
      await expect.poll(() => page.getByTestId('cluster-health').textContent(), { timeout: 30_000 }).toMatch(/^Live · \d+ kinds/);
      await page.getByTestId('nav-pods').click();
      // A sidecar that crash-loops (the demo kubelet crashes `:crash` images): restarts, a
      // waiting reason and the last termination, besides pods starting and getting ready.
      const crash = await kubectl.run(['-n', 'shop', 'set', 'image', 'deployment/recommendations', 'log-shipper=cr.fluentbit.io/fluent/fluent-bit:crash']);
      expect(crash.code, crash.stderr).toBe(0);
      // Pods start, get ready and crash while this runs: ask kubectl again until both agree at a
      // moment when pods are ready and one is in CrashLoopBackOff after restarts.
      let compared = 0;
      await expect
        .poll(
          async () => {
            const printed = await kubectl.run(['get', 'pods', '--all-namespaces', '--no-headers']);
            if (printed.code !== 0) return printed.stderr;
            const screen = await podsOnScreen(page);
            const lines = printed.stdout.trim().split('\n');
            const columns = lines.map((line) => line.trim().split(/\s+/));
            const ready = columns.filter(([, , r = '']) => /^([1-9]\d*)\/\1$/.test(r)).length;
            const looping = columns.filter(([, , , status, restarts = '0']) => status === 'CrashLoopBackOff' && restarts !== '0').length;
            if (ready < 10 || looping === 0) return [`waiting: ${ready} pods ready, ${looping} in CrashLoopBackOff`];
            compared = lines.length;
            const differences = lines.flatMap((line) => {
              const [namespace, name, ready, status, restarts] = line.trim().split(/\s+/);
              const key = `${namespace}/${name}`;
              const shown = screen.get(key);
              const want = { ready, status, restarts };
              return JSON.stringify(shown) === JSON.stringify(want) ? [] : [`${key}: kubectl ${JSON.stringify(want)}, screen ${JSON.stringify(shown)}`];
            });
            const printedKeys = new Set(lines.map((line) => line.trim().split(/\s+/).slice(0, 2).join('/')));
            const extra = [...screen.keys()].filter((key) => !printedKeys.has(key));
            return extra.length === 0 ? differences : [`on screen, not printed by kubectl: ${extra.join(', ')}`, ...differences];
          },
          { timeout: 90_000, interval: 500 },
        )
        .toEqual([]);
      expect(compared).toBeGreaterThan(10);
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'pods-demo-dark');
      // The demo settled: most workloads in sync, the crash-looping sidecar drifting.
      await page.getByTestId('nav-overview').click();
      await expect.poll(() => page.locator('[data-testid="virtual-table"] [role="row"]', { hasText: 'recommendations' }).count()).toBeGreaterThan(0);
      await screenshot(page, 'overview-demo-dark');
      // The Nodes screen counts each node's pods as kubectl describe node's "Non-terminated Pods".
      await page.getByTestId('nav-nodes').click();
      await expect
        .poll(async () => {
          const printed = await kubectl.run(['get', 'pods', '--all-namespaces', '--no-headers', '-o', 'custom-columns=NODE:.spec.nodeName,PHASE:.status.phase']);
          const perNode = new Map<string, string>();
          for (const [node = '', phase = ''] of printed.stdout.trim().split('\n').map((line) => line.trim().split(/\s+/))) {
            if (node === '<none>' || phase === 'Succeeded' || phase === 'Failed') continue;
            perNode.set(node, String(Number(perNode.get(node) ?? 0) + 1));
          }
          const rows = await page.locator('[data-testid="virtual-table"] [role="row"]:has([role="cell"])').evaluateAll((elements) =>
            elements.map((row) => [...row.querySelectorAll('[role="cell"]')].map((cell) => (cell.textContent ?? '').trim())),
          );
          // Cells: status, name, roles, version, pods, ...
          const shown = new Map(rows.map(([, name = '', , , pods = '']) => [name, pods]));
          const expected = new Map([...shown.keys(), ...perNode.keys()].map((name) => [name, perNode.get(name) ?? '0']));
          return JSON.stringify([...shown].sort()) === JSON.stringify([...expected].sort()) ? 'same' : `kubectl ${JSON.stringify([...expected])}, screen ${JSON.stringify([...shown])}`;
        })
        .toBe('same');
      await screenshot(page, 'nodes-demo-dark');
    } finally {
      await kubectl.close();
      await page.close();
    }
  });
});
