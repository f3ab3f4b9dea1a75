import { describe, expect, it } from 'vitest';
import { builtInScenarioPath, loadScenario, parseScenario, ScenarioError } from '../../../../electron/engine/simcluster/scenarios/load.ts';

const HEADER = `apiVersion: simcluster.kubedrift.dev/v1alpha1
kind: Scenario
metadata:
  name: test
spec:
  nodes:
    - name: node-1
`;

function errorOf(text: string): ScenarioError {
  try {
    parseScenario(text, 'test.yaml');
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('expected a ScenarioError');
}

describe('parseScenario', () => {
  it('reads the header, defaults and manifests with their lines', () => {
    const scenario = parseScenario(
      `${HEADER}  namespaces: [shop]
  timeline:
    - at: 30s
      scale: { namespace: shop, target: deploy/web, replicas: 3 }
    - every: 5m
      deletePod: { namespace: shop, selector: app=web }
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
spec: {}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
`,
      'test.yaml',
    );
    expect(scenario).toMatchObject({ name: 'test', description: '', file: 'test.yaml', speed: 1, namespaces: ['shop'], kubelet: {} });
    expect(scenario.nodes).toEqual([{ name: 'node-1', cpu: '4', memory: '16Gi', pods: 110, role: 'worker', labels: {}, taints: [] }]);
    expect(scenario.objects.map((o) => [o.type.kind, o.line, (o.manifest['metadata'] as { namespace?: string }).namespace])).toEqual([
      ['Deployment', 15, 'shop'],
      ['ConfigMap', 22, 'default'],
    ]);
    const [scale, kill] = scenario.timeline;
    expect(scale).toMatchObject({ atMs: 30_000, line: 10, action: { type: 'scale', namespace: 'shop', replicas: 3, target: { name: 'web' } } });
    if (scale?.action.type !== 'scale') throw new Error('expected scale');
    expect(scale.action.target.type.kind).toBe('Deployment');
    expect(kill).toMatchObject({ atMs: 300_000, everyMs: 300_000, action: { type: 'deletePod', namespace: 'shop', selector: 'app=web' } });
  });

  it.each([
    ['a bad duration', `  timeline:\n    - at: 5x\n      nodeReady: node-1\n`, 'test.yaml:9: spec.timeline[0].at: time: invalid duration "5x" (use a duration like 30s, 5m or 1h30m)'],
    ['a misspelt node field', HEADER.replace('    - name: node-1\n', '    - name: node-1\n      cpus: "4"\n'), 'test.yaml:8: spec.nodes[0].cpus: unknown field "cpus"'],
    ['an entry with two actions', `  timeline:\n    - at: 1m\n      nodeReady: node-1\n      nodeNotReady: node-1\n`, 'test.yaml:9: spec.timeline[0]: more than one action (nodeReady, nodeNotReady); use one entry per action'],
    ['an entry without an action', `  timeline:\n    - at: 1m\n`, 'test.yaml:9: spec.timeline[0]: no action (one of apply, setImage, scale, deletePod, delete, nodeNotReady, nodeReady, setLoad, runJob, pauseRollout, resumeRollout, metricsUnavailable)'],
    ['an unknown action', `  timeline:\n    - at: 1m\n      setimage: {}\n`, 'test.yaml:10: spec.timeline[0].setimage: unknown field "setimage" (an entry has at, every, note and one action: apply, setImage, scale, deletePod, delete, nodeNotReady, nodeReady, setLoad, runJob, pauseRollout, resumeRollout, metricsUnavailable)'],
    ['an entry without timing', `  timeline:\n    - nodeReady: node-1\n`, 'test.yaml:9: spec.timeline[0]: needs "at" (when to run) or "every" (how often)'],
    ['an unknown kind', `  timeline:\n    - at: 1m\n      scale: { target: deploymnet/web, replicas: 2 }\n`, 'test.yaml:10: spec.timeline[0].scale.target: unknown kind "deploymnet" in "deploymnet/web"'],
    ['a negative replica count', `  timeline:\n    - at: 1m\n      scale:\n        target: deployment/web\n        replicas: -1\n`, 'test.yaml:12: spec.timeline[0].scale.replicas: Too small: expected number to be >=0'],
    ['an unknown node', `  timeline:\n    - at: 1m\n      nodeNotReady: node-9\n`, 'test.yaml:10: spec.timeline[0].nodeNotReady: no node named "node-9" in spec.nodes'],
  ])('reports %s with file, line and path', (_what, tail, message) => {
    const text = tail.startsWith('apiVersion') ? tail : HEADER + tail;
    expect(errorOf(text).message).toBe(message);
  });

  it('reports a manifest without a name at its line', () => {
    const error = errorOf(`${HEADER}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {}\n`);
    // Documents are numbered in the file, the Scenario header being document 1.
    expect(error.message).toBe('test.yaml:12: document 2 metadata.name: Required value: metadata.name');
    expect(error).toMatchObject({ file: 'test.yaml', line: 12, path: 'document 2 metadata.name' });
  });

  it('refuses kinds the simulated cluster does not serve', () => {
    expect(errorOf(`${HEADER}---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: shop\n`).message).toBe(
      'test.yaml:10: document 2 kind: networking.k8s.io/v1 Ingress is not a kind the simulated cluster serves',
    );
  });

  it('refuses a manifest in an undeclared namespace, but accepts one created by a Namespace manifest', () => {
    const manifest = `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: shpo\n`;
    expect(errorOf(HEADER + manifest).message).toBe('test.yaml:13: document 2 metadata.namespace: namespace "shpo" is neither in spec.namespaces nor created by a Namespace manifest');
    expect(parseScenario(`${HEADER}---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: shpo\n${manifest}`).objects).toHaveLength(2);
  });

  it('reports YAML syntax errors at their line', () => {
    const error = errorOf(`${HEADER}  namespaces: [shop\n`);
    expect(error.line).toBe(9);
    expect(error.message).toMatch(/^test\.yaml:9: YAML: /);
  });

  it('requires the Scenario header first, with nodes', () => {
    expect(errorOf('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n').message).toBe('test.yaml:1: apiVersion: Invalid input: expected "simcluster.kubedrift.dev/v1alpha1"');
    expect(errorOf(HEADER.replace('  nodes:\n    - name: node-1\n', '  nodes: []\n')).message).toBe('test.yaml:6: spec.nodes: a scenario needs at least one node');
    expect(errorOf('').message).toBe('test.yaml: the file is empty; the first document must be the Scenario header');
  });
});

describe('loadScenario', () => {
  it('resolves built-in names next to the module', () => {
    expect(builtInScenarioPath('minimal')).toMatch(/electron\/engine\/simcluster\/scenarios\/minimal\.yaml$/);
    const minimal = loadScenario('minimal');
    expect(minimal.file).toBe(builtInScenarioPath('minimal'));
    expect(minimal.nodes.map((n) => n.name)).toEqual(['node-1']);
    expect(minimal.objects.map((o) => `${o.type.kind}/${String((o.manifest['metadata'] as { name: string }).name)}`)).toEqual(['Deployment/web']);
  });

  it('loads a file by path and says which names are built in when one is missing', () => {
    expect(loadScenario(builtInScenarioPath('minimal')).name).toBe('minimal');
    expect(() => loadScenario('demoo')).toThrow('demoo: no such file (built-in scenarios: demo, minimal)');
  });
});
