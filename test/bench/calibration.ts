/**
 * How fast this machine is right now, measured the same way before and after the scenarios.
 * The machine the numbers in the README come from is a shared 2-core VM whose speed changes by
 * up to 2x within an hour (the same JSON.parse of a list page took 11 ms one hour and 23 ms
 * the next, with nothing else running); a result only means something beside the speed it was
 * measured at. The work is what dominates a first sync: parsing and serialising list JSON.
 */
import { round } from './stats.ts';

/** How long each measurement runs. */
const MEASURE_MS = 300;

/** A list page of 200 pod-shaped objects (~0.5 MB), the same every time. */
function samplePage(): string {
  const items = Array.from({ length: 200 }, (_, i) => ({
    metadata: { name: `web-${i}`, namespace: `ns-${i % 7}`, uid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, resourceVersion: String(1_000 + i), labels: { app: 'web', tier: 'front' } },
    spec: { nodeName: `node-${i % 13}`, containers: [{ name: 'app', image: 'registry.example/web:1.2.3', ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '100m', memory: '128Mi' } } }] },
    status: {
      phase: 'Running',
      conditions: ['Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z' })),
      containerStatuses: [{ name: 'app', ready: true, restartCount: i % 3, state: { running: { startedAt: '2026-01-01T00:00:00Z' } } }],
    },
  }));
  return JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9999' }, items });
}

/** MB of list JSON parsed and serialised again per second on this thread, now. */
export function jsonMegabytesPerSecond(): number {
  const page = samplePage();
  let bytes = 0;
  const started = performance.now();
  while (performance.now() - started < MEASURE_MS) {
    JSON.stringify(JSON.parse(page));
    bytes += page.length;
  }
  return round(bytes / 1e6 / ((performance.now() - started) / 1000));
}
