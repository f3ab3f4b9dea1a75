import { describe, expect, it } from 'vitest';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import type { ServiceSpecShape } from '../../../../electron/engine/simcluster/defaults/validate-core.ts';
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';
import { check, kubectlCreateCronJob, kubectlCreateJob, kubectlCreateService, kubectlRunPod, podSpec, resourceType, stored, templateOf } from './fixtures.ts';

describe('validate: batch and autoscaling', () => {
  it('requires a Job to restart OnFailure or Never', () => {
    const job = kubectlCreateJob();
    delete templateOf(job).spec.restartPolicy;
    const causes = validate(resourceType('jobs.batch'), applyDefaults(resourceType('jobs.batch'), stored('jobs.batch', job)));
    expect(causes).toContainEqual({ reason: 'FieldValueRequired', field: 'spec.template.spec.restartPolicy', message: 'Required value: valid values: "OnFailure", "Never"' });
  });

  it('refuses to change a Job template after creation', () => {
    const old = applyDefaults(resourceType('jobs.batch'), stored('jobs.batch', kubectlCreateJob()));
    const next = structuredClone(old);
    templateOf(next).spec.containers[0].image = 'perl:5.40';
    const causes = validate(resourceType('jobs.batch'), next, old);
    expect(causes).toHaveLength(1);
    expect(causes[0]).toMatchObject({ field: 'spec.template', reason: 'FieldValueInvalid' });
    expect(causes[0]?.message).toMatch(/^Invalid value: .*"perl:5\.40".*: field is immutable$/);
  });

  it('passes on the cron parser error for a schedule that is not five fields', () => {
    const cronjob = kubectlCreateCronJob();
    (cronjob['spec'] as Record<string, unknown>)['schedule'] = 'every 5 minutes';
    expect(check('cronjobs.batch', cronjob)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.schedule', message: 'Invalid value: "every 5 minutes": expected exactly 5 fields, found 3: [every 5 minutes]' },
    ]);
    (cronjob['spec'] as Record<string, unknown>)['schedule'] = '*/5 25 * * *';
    expect(check('cronjobs.batch', cronjob)[0]?.message).toBe('Invalid value: "*/5 25 * * *": end of range (25) above maximum (23): 25');
    (cronjob['spec'] as Record<string, unknown>)['schedule'] = '@hourly';
    expect(check('cronjobs.batch', cronjob)).toEqual([]);
  });

  it('rejects an unknown concurrencyPolicy and time zone', () => {
    const cronjob = kubectlCreateCronJob();
    Object.assign(cronjob['spec'] as Record<string, unknown>, { concurrencyPolicy: 'Queue', timeZone: 'Mars/Olympus' });
    expect(check('cronjobs.batch', cronjob).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus',
      'spec.concurrencyPolicy: Unsupported value: "Queue": supported values: "Allow", "Forbid", "Replace"',
    ]);
  });

  it('rejects an HPA whose maxReplicas is below minReplicas', () => {
    const hpa: IncomingObject = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'default' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 3, maxReplicas: 2 },
    };
    expect(check('horizontalpodautoscalers.autoscaling', hpa)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.maxReplicas', message: 'Invalid value: 2: must be greater than or equal to `minReplicas`' },
    ]);
  });
});

describe('validate: Service', () => {
  const service = (edit: (spec: ServiceSpecShape) => void): IncomingObject => {
    const incoming = kubectlCreateService();
    edit(incoming['spec'] as ServiceSpecShape);
    return incoming;
  };

  it('checks port range, the type enum and names on multi-port services', () => {
    const causes = check(
      'services',
      service((s) => {
        s.type = 'Internal';
        s.ports = [{ name: 'http', port: 0, targetPort: 8080 }, { port: 443, targetPort: 'https-port-name-too-long' }];
      }),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.ports[0].port: Invalid value: 0: must be between 1 and 65535, inclusive',
      'spec.ports[1].name: Required value',
      'spec.ports[1].targetPort: Invalid value: "https-port-name-too-long": must be no more than 15 characters',
      'spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
    ]);
  });

  it('forbids a nodePort on a ClusterIP service and reports duplicate ports', () => {
    const causes = check(
      'services',
      service((s) => {
        s.ports = [
          { name: 'a', port: 80, nodePort: 30080 },
          { name: 'b', port: 80 },
        ];
      }),
    );
    expect(causes.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'",
      'spec.ports[1]: Duplicate value: core.ServicePort{Name:"", Protocol:"TCP", AppProtocol:(*string)(nil), Port:80, TargetPort:intstr.IntOrString{Type:0, IntVal:0, StrVal:""}, NodePort:0}',
    ]);
  });

  it('keeps an allocated cluster IP from changing on update', () => {
    const old = applyDefaults(resourceType('services'), stored('services', service((s) => (s.clusterIP = '10.96.14.7'))));
    expect(check('services', service((s) => (s.clusterIP = '10.96.14.8')), old)).toEqual([
      { reason: 'FieldValueInvalid', field: 'spec.clusterIPs[0]', message: 'Invalid value: []string{"10.96.14.8"}: may not change once set' },
    ]);
  });
});

describe('validate: Pod updates and ConfigMaps', () => {
  it('lets a pod update change only images (and the other mutable fields)', () => {
    const old = applyDefaults(resourceType('pods'), stored('pods', kubectlRunPod()));
    const newImage = structuredClone(old);
    podSpec(newImage).containers[0].image = 'nginx:1.27';
    expect(validate(resourceType('pods'), newImage, old)).toEqual([]);
    const newPort = structuredClone(old);
    podSpec(newPort).containers[0].ports = [{ containerPort: 80, protocol: 'TCP' }];
    expect(validate(resourceType('pods'), newPort, old)).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: 'spec',
        message:
          'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
      },
    ]);
  });

  it('rejects ConfigMap keys that are not config keys, and edits of an immutable one', () => {
    const configMaps = resourceType('configmaps');
    const cm = stored('configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'app', namespace: 'default' }, data: { 'app.yaml': 'x: 1', 'bad key': '' } });
    expect(validate(configMaps, cm)).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'data[bad key]',
        message: "Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      },
    ]);
    const frozen = { ...cm, immutable: true, data: { 'app.yaml': 'x: 1' } };
    expect(validate(configMaps, { ...frozen, data: { 'app.yaml': 'x: 2' } }, frozen)).toEqual([
      { reason: 'FieldValueForbidden', field: 'data', message: 'Forbidden: field is immutable when `immutable` is set' },
    ]);
  });
});
