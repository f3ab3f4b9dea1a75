import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const RUN = fileURLToPath(new URL('../../bench/run.ts', import.meta.url));

/** Issue #17's results; the TCP count reads Linux's /proc. */
const RESULTS = [
  'discovery_300_crds_ms',
  'discovery_without_crds_ms',
  'watch_connections_300_crds',
  ...(process.platform === 'linux' ? ['tcp_connections_300_crds'] : []),
  'excluded_kind_requests',
  'initial_sync_50k_pods_300_crds_ms',
  'initial_sync_300_crds_ratio',
  'initial_sync_300_crds_all_live_ms',
  'heap_bytes_per_custom_resource',
  'custom_resource_json_bytes',
];

const GOALS = {
  discovery_300_crds_ms: '< 2000',
  excluded_kind_requests: '<= 0',
  initial_sync_300_crds_ratio: '<= 1.1',
  heap_bytes_per_custom_resource: '<= 2048',
};

/** CRDs a --quick run creates in place of 300. */
const QUICK_CRDS = 10;

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [RUN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

interface Report {
  machine: { json_mb_per_s: { before: number; after: number } };
  results: Record<string, unknown>;
  goals: Record<string, { goal: string; met: boolean }>;
}

// Shape and counts only: how fast the machine is never decides a test.
describe('npm run bench: the CRD benchmarks (issue #17)', () => {
  it('measures discovery and watches of the CRDs, an excluded group opening none, the sync with and without them, and the heap per custom resource', { timeout: 240_000 }, async () => {
    const { code, stdout, stderr } = await run(['--quick', '--only', 'crd-discovery,crd-sync,crd-heap']);
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as Report;
    expect(report.machine.json_mb_per_s.before).toBeGreaterThan(0);
    expect(Object.keys(report.results).sort()).toEqual([...RESULTS].sort());
    const { results } = report;
    expect(results['discovery_300_crds_ms']).toBeGreaterThan(0);
    expect(results['discovery_without_crds_ms']).toBeGreaterThan(0);
    // One watch per CRD kind, counted at the server; the excluded group's kind is never listed nor watched.
    expect(results['watch_connections_300_crds']).toBe(QUICK_CRDS);
    if (process.platform === 'linux') expect(results['tcp_connections_300_crds']).toBeGreaterThanOrEqual(QUICK_CRDS);
    expect(results['excluded_kind_requests']).toBe(0);
    expect(results['initial_sync_50k_pods_300_crds_ms']).toEqual({ with_crds: expect.any(Number), without_crds: expect.any(Number), runs: 1 });
    const sync = results['initial_sync_50k_pods_300_crds_ms'] as { with_crds: number; without_crds: number };
    expect(sync.with_crds).toBeGreaterThan(0);
    expect(sync.without_crds).toBeGreaterThan(0);
    expect(results['initial_sync_300_crds_ratio']).toBeGreaterThan(0);
    expect(results['initial_sync_300_crds_all_live_ms']).toBeGreaterThanOrEqual(sync.with_crds);
    // A quick run's 200 resources are within the collector's noise: any finite number.
    expect(Number.isFinite(results['heap_bytes_per_custom_resource'])).toBe(true);
    // The resources are of the size the issue names (~3 KB as the server stores them).
    expect(results['custom_resource_json_bytes']).toBeGreaterThan(2_800);
    expect(results['custom_resource_json_bytes']).toBeLessThan(3_600);
    for (const [name, goal] of Object.entries(GOALS)) expect(report.goals[name], name).toEqual({ goal, met: expect.any(Boolean) });
    expect(report.goals['excluded_kind_requests']?.met).toBe(true);
  });
});
