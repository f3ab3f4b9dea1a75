import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evaluateJq, JqSyntaxError, parseJq } from '../../../../electron/engine/diff/ignore/jq-lite.ts';
import { addRule, applyIgnores, exportArgoYaml, ruleApplies, ruleProblem } from '../../../../electron/engine/diff/ignore/rules.ts';
import { compareObjects } from '../../../../electron/engine/diff/fields/compare.ts';
import { managedFieldsOf, normalise } from '../../../../electron/engine/diff/normalise.ts';
import type { JsonObject } from '../../../../electron/engine/diff/load/types.ts';
import { liveDeployment } from './fixtures.ts';

const pod = { spec: { containers: [{ name: 'app', image: 'a', env: [{ name: 'X', value: '1' }] }, { name: 'istio-proxy', image: 'proxy' }], initContainers: [{ name: 'istio-init', image: 'i' }] } };

describe('jq path expressions (the subset Argo CD users write)', () => {
  it('evaluates fields, iteration, indices and select()', () => {
    expect(evaluateJq(parseJq('.spec.containers[] | select(.name == "istio-proxy")'), pod)).toEqual([['spec', 'containers', 1]]);
    expect(evaluateJq(parseJq('.spec.containers[] | select(.name != "istio-proxy") | .image'), pod)).toEqual([['spec', 'containers', 0, 'image']]);
    expect(evaluateJq(parseJq('.spec.containers[0].env[] | select(.name == "X") | .value'), pod)).toEqual([['spec', 'containers', 0, 'env', 0, 'value']]);
    expect(evaluateJq(parseJq('.spec.initContainers'), pod)).toEqual([['spec', 'initContainers']]);
    expect(evaluateJq(parseJq('.metadata.labels["app.kubernetes.io/name"]'), { metadata: { labels: { 'app.kubernetes.io/name': 'x' } } })).toEqual([['metadata', 'labels', 'app.kubernetes.io/name']]);
    expect(evaluateJq(parseJq('.spec.missing[]'), pod)).toEqual([]);
  });

  it('refuses what it does not support with the position and the supported forms', () => {
    expect(() => parseJq('.spec | map(.x)')).toThrow(JqSyntaxError);
    expect(() => parseJq('.spec | map(.x)')).toThrow(/unexpected "m" at character 9 of ".spec \| map\(.x\)" \(supported: /);
    expect(() => parseJq('spec.replicas')).toThrow(/an expression must start with "\."/);
    expect(() => parseJq('.a[] | select(.name = "x")')).toThrow(/expected == or !=/);
  });
});

describe('ignore rules', () => {
  it('match objects by group, kind and optionally name and namespace, with * as a wildcard', () => {
    const web = { group: 'apps', kind: 'Deployment', namespace: 'shop', name: 'web' };
    expect(ruleApplies({ group: 'apps', kind: 'Deployment' }, web)).toBe(true);
    expect(ruleApplies({ group: 'apps', kind: 'Deployment', name: 'api' }, web)).toBe(false);
    expect(ruleApplies({ group: '*', kind: '*', namespace: 'shop' }, web)).toBe(true);
    expect(ruleApplies({ group: '', kind: 'Deployment' }, web)).toBe(false);
  });

  it('take pointer and jq fields out of both sides', () => {
    const live = { spec: { replicas: 5, template: { spec: { containers: [{ name: 'app', image: 'a:1' }, { name: 'istio-proxy', image: 'p:1' }] } } } };
    const predicted = { spec: { replicas: 2, template: { spec: { containers: [{ name: 'app', image: 'a:1' }] } } } };
    expect(compareObjects(live, predicted)).toHaveLength(2);
    const ignored = applyIgnores([{ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'], jqPathExpressions: ['.spec.template.spec.containers[] | select(.name == "istio-proxy")'] }], live, predicted, []);
    expect(compareObjects(ignored.live, ignored.predicted)).toEqual([]);
    // The inputs are not changed.
    expect(live.spec.replicas).toBe(5);
  });

  it('take the live value of fields a listed manager owns (managedFieldsManagers)', async () => {
    const raw = await liveDeployment();
    const live = normalise(raw);
    const predicted = structuredClone(live) as { spec: JsonObject };
    predicted.spec['replicas'] = 2;
    predicted.spec['revisionHistoryLimit'] = 3;
    const ignored = applyIgnores([{ group: 'apps', kind: 'Deployment', managedFieldsManagers: ['kube-controller-manager'] }], live, predicted as JsonObject, managedFieldsOf(raw));
    // replicas belongs to kube-controller-manager (via /scale); revisionHistoryLimit does not.
    expect(compareObjects(ignored.live, ignored.predicted).map((d) => d.segments.map((s) => ('key' in s ? s.key : s.index)).join('.'))).toEqual(['spec.revisionHistoryLimit']);
  });

  it('merge into an existing rule for the same objects and explain an unusable rule', () => {
    const one = addRule([], { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas'] });
    const two = addRule(one, { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas', '/metadata/labels'] });
    expect(two).toEqual([{ group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas', '/metadata/labels'] }]);
    expect(addRule(two, { group: 'apps', kind: 'Deployment', managedFieldsManagers: ['hpa'] })).toHaveLength(2);
    expect(ruleProblem({ group: 'apps', kind: 'Deployment' })).toMatch(/needs at least one/);
    expect(ruleProblem({ group: 'apps', kind: 'Deployment', jsonPointers: ['spec/replicas'] })).toMatch(/must start with "\/"/);
    expect(ruleProblem({ group: 'apps', kind: 'Deployment', jqPathExpressions: ['.a | keys'] })).toMatch(/unexpected "k"/);
    expect(ruleProblem({ group: 'apps', kind: 'Deployment', jsonPointers: ['/spec/replicas'] })).toBeUndefined();
  });

  it('export as Argo CD spec.ignoreDifferences YAML', () => {
    const yaml = exportArgoYaml(
      [
        { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas'] },
        { group: '', kind: 'Service', jqPathExpressions: ['.spec.ports[] | select(.name == "http") | .nodePort'], managedFieldsManagers: ['kube-controller-manager'] },
      ],
      'prod',
    );
    expect(yaml).toMatch(/^# Argo CD Application spec\.ignoreDifferences, exported by Kubedrift for context "prod"\./);
    expect(parse(yaml)).toEqual({
      ignoreDifferences: [
        { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas'] },
        { group: '', kind: 'Service', jqPathExpressions: ['.spec.ports[] | select(.name == "http") | .nodePort'], managedFieldsManagers: ['kube-controller-manager'] },
      ],
    });
    expect(parse(exportArgoYaml([], null))).toEqual({ ignoreDifferences: [] });
  });
});
