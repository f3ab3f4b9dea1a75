import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../../../../electron/engine/simcluster/defaults/index.ts';
import type { WorkloadSpecShape } from '../../../../electron/engine/simcluster/defaults/shapes.ts';
import { invalid } from '../../../../electron/engine/simcluster/errors.ts';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { check, kubectlCreateCronJob, kubectlCreateDeployment, kubectlCreateService, kubectlRunPod, podSpec, resourceType, stored, type FixturePodSpec, type FixtureTemplate } from './fixtures.ts';

const deployments = resourceType('deployments.apps');

type DeploymentSpecEdit = Omit<WorkloadSpecShape, 'template'> & { strategy?: unknown; template: FixtureTemplate };

function deployment(edit: (spec: DeploymentSpecEdit) => void): IncomingObject {
  const incoming = kubectlCreateDeployment();
  edit(incoming['spec'] as DeploymentSpecEdit);
  return incoming;
}

describe('validate: pod templates', () => {
  it('accepts what kubectl create sends for every kind', () => {
    expect(check('deployments.apps', kubectlCreateDeployment())).toEqual([]);
    expect(check('pods', kubectlRunPod())).toEqual([]);
    expect(check('cronjobs.batch', kubectlCreateCronJob())).toEqual([]);
    expect(check('services', kubectlCreateService())).toEqual([]);
  });

  it('requires a container image, naming the field as kube-apiserver does', () => {
    const causes = check('deployments.apps', deployment((s) => delete s.template.spec.containers[0].image));
    expect(causes).toEqual([{ reason: 'FieldValueRequired', field: 'spec.template.spec.containers[0].image', message: 'Required value' }]);
    expect(invalid('Deployment', 'apps', 'web', causes).message).toBe('Deployment.apps "web" is invalid: spec.template.spec.containers[0].image: Required value');
  });

  it('requires containers, and names that are unique RFC 1123 labels', () => {
    expect(check('deployments.apps', deployment((s) => (s.template.spec.containers = [] as unknown as FixturePodSpec['containers'])))).toEqual([
      { reason: 'FieldValueRequired', field: 'spec.template.spec.containers', message: 'Required value' },
    ]);
    const causes = check(
      'deployments.apps',
      deployment((s) => {
        s.template.spec.containers = [
          { name: 'nginx', image: 'nginx:1.27' },
          { name: 'nginx', image: 'nginx:1.27' },
          { name: 'Sidecar', image: 'envoy:1.31' },
          { image: 'busybox' },
        ];
      }),
    );
    expect(causes).toEqual([
      { reason: 'FieldValueDuplicate', field: 'spec.template.spec.containers[1].name', message: 'Duplicate value: "nginx"' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.template.spec.containers[2].name',
        message:
          "Invalid value: \"Sidecar\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      },
      { reason: 'FieldValueRequired', field: 'spec.template.spec.containers[3].name', message: 'Required value' },
    ]);
  });

  it('rejects unsupported enum values with the supported list in upstream order', () => {
    const causes = check(
      'pods',
      (() => {
        const pod = kubectlRunPod();
        const spec = podSpec(pod);
        spec.restartPolicy = 'Sometimes';
        spec.containers[0].imagePullPolicy = 'Maybe';
        spec.containers[0].ports = [{ containerPort: 70000, protocol: 'HTTP' }];
        return pod;
      })(),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.containers[0].imagePullPolicy: Unsupported value: "Maybe": supported values: "Always", "IfNotPresent", "Never"',
      'spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      'spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
      'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
    ]);
  });

  it('finds volume mounts of volumes the pod does not have, and requests above limits', () => {
    const pod = kubectlRunPod();
    const container = podSpec(pod).containers[0];
    container.volumeMounts = [{ name: 'data', mountPath: '/data' }];
    container.resources = { requests: { cpu: '2' }, limits: { cpu: '1' } };
    expect(check('pods', pod).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.containers[0].volumeMounts[0].name: Not found: "data"',
      'spec.containers[0].resources.requests[cpu]: Invalid value: "2": must be less than or equal to cpu limit of 1',
    ]);
  });

  it('rejects label values that are not valid label values', () => {
    const causes = check('deployments.apps', deployment((s) => (s.template.metadata.labels = { app: 'web', team: 'web shop' })));
    expect(causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'spec.template.metadata.labels',
      message:
        "Invalid value: \"web shop\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    });
  });
});

describe('validate: apps/v1', () => {
  it('rejects negative replicas', () => {
    expect(check('deployments.apps', deployment((s) => (s.replicas = -1)))).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.replicas', message: 'Invalid value: -1: must be greater than or equal to 0' },
    ]);
  });

  it('requires a selector, and then finds the template labels unselected, as a real server reports both', () => {
    expect(check('deployments.apps', deployment((s) => delete s.selector)).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('rejects a selector that does not match the template labels', () => {
    const causes = check('deployments.apps', deployment((s) => (s.selector = { matchLabels: { app: 'shop' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['web'] }] })));
    expect(causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.template.metadata.labels', message: 'Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`' },
    ]);
  });

  it('calls an empty selector invalid', () => {
    expect(check('deployments.apps', deployment((s) => (s.selector = {})))).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.selector',
        message: 'Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      },
    ]);
  });

  it('refuses to change a Deployment selector on update: field is immutable', () => {
    const old = applyDefaults(deployments, stored('deployments.apps', kubectlCreateDeployment()));
    const next = deployment((s) => {
      s.selector = { matchLabels: { app: 'web2' } };
      s.template.metadata.labels = { app: 'web2' };
    });
    expect(check('deployments.apps', next, old)).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.selector',
        message: 'Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
      },
    ]);
    expect(check('deployments.apps', deployment((s) => (s.replicas = 5)), old)).toEqual([]);
  });

  it('rejects a rolling update that can neither surge nor drop a pod', () => {
    const causes = check('deployments.apps', deployment((s) => (s.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: '0%' } })));
    expect(causes).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.strategy.rollingUpdate.maxUnavailable', message: 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"0%"}: may not be 0 when `maxSurge` is 0' },
    ]);
  });

  it('forbids rollingUpdate parameters on a Recreate Deployment and restartPolicy Never in its pods', () => {
    const causes = check(
      'deployments.apps',
      deployment((s) => {
        s.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } };
        s.template.spec.restartPolicy = 'Never';
      }),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    ]);
  });

  it('forbids StatefulSet spec changes outside the mutable fields', () => {
    const sts: IncomingObject = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop' },
      spec: { serviceName: 'db', selector: { matchLabels: { app: 'db' } }, template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'pg', image: 'postgres:16' }] } } },
    };
    const old = applyDefaults(resourceType('statefulsets.apps'), stored('statefulsets.apps', sts));
    const renamed = structuredClone(sts);
    (renamed['spec'] as Record<string, unknown>)['serviceName'] = 'db-headless';
    expect(check('statefulsets.apps', renamed, old)).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec',
        message:
          "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      },
    ]);
    const scaled = structuredClone(sts);
    (scaled['spec'] as Record<string, unknown>)['replicas'] = 3;
    expect(check('statefulsets.apps', scaled, old)).toEqual([]);
  });
});
