import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { modelFor } from '../../../../electron/engine/simcluster/validation/models.ts';
import { converterTypeErrorMessage, decodeTyped, jsonTypeErrorMessage, unknownFields, type TypeMismatch } from '../../../../electron/engine/simcluster/validation/strict.ts';
import { richDeployment } from './fixtures.ts';

type Json = Record<string, unknown>;

/** A minimal Deployment with `edit` applied to a fresh copy. */
function deployment(edit: (d: Json & { metadata: Json; spec: Json & { template: { metadata: Json; spec: Json & { containers: Json[] } } } }) => void = () => {}): Json {
  const d = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] as Json[] } },
    },
  };
  edit(d);
  return d;
}

function typeErrorOf(object: Json): TypeMismatch {
  const error = decodeTyped('V1Deployment', object).typeError;
  if (!error) throw new Error('expected a type error');
  return error;
}

describe('strict decoding against client-node models', () => {
  it('reports a misspelt spec field with its full path', () => {
    expect(unknownFields('apps/v1', 'Deployment', deployment((d) => (d.spec['replicass'] = 3)))).toEqual(['spec.replicass']);
  });

  it('names list items by index, deep inside the embedded pod template', () => {
    const object = deployment((d) => {
      d.spec.template.spec.containers.push({ name: 'side', imagee: 'busybox', ports: [{ containerPort: 80 }, { containerPortt: 81 }] });
      d.spec.template.spec['initContainers'] = [{ name: 'init', image: 'busybox', comand: ['true'] }];
    });
    expect(unknownFields('apps/v1', 'Deployment', object)).toEqual([
      'spec.template.spec.containers[1].imagee',
      'spec.template.spec.containers[1].ports[1].containerPortt',
      'spec.template.spec.initContainers[0].comand',
    ]);
  });

  it('holds ObjectMeta to its fields too, at the top and in the pod template, and matches case-sensitively, in document order', () => {
    const object = deployment((d) => {
      d.metadata['labelz'] = { a: 'b' };
      d.spec.template.metadata['annotation'] = { a: 'b' };
      d.spec['Replicas'] = 2;
    });
    expect(unknownFields('apps/v1', 'Deployment', object)).toEqual(['metadata.labelz', 'spec.template.metadata.annotation', 'spec.Replicas']);
  });

  it('accepts any keys in maps and does not look inside an unknown field', () => {
    const object = deployment((d) => {
      d.metadata['annotations'] = { 'example.com/anything': 'x', replicass: 'y' };
      d.spec['extra'] = { nested: { deeper: 1 } };
    });
    expect(unknownFields('apps/v1', 'Deployment', object)).toEqual(['spec.extra']);
  });

  it('decodes status strictly as well', () => {
    const object = deployment((d) => (d['status'] = { replicas: 1, readyReplicaz: 1, conditions: [{ type: 'Available', status: 'True', reasonn: 'x' }] }));
    expect(unknownFields('apps/v1', 'Deployment', object)).toEqual(['status.readyReplicaz', 'status.conditions[0].reasonn']);
  });

  it('finds nothing wrong with a manifest full of fields the hand-written OpenAPI lacks', () => {
    const decoded = decodeTyped('V1Deployment', richDeployment());
    expect([decoded.unknownFields, decoded.typeError]).toEqual([[], undefined]);
  });

  it('checks the other served kinds by their own models', () => {
    expect(unknownFields('v1', 'Service', { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 'http', nodePortt: 1 }], selector: { app: 'a' } } })).toEqual([
      'spec.ports[0].nodePortt',
    ]);
    expect(unknownFields('v1', 'ConfigMap', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' }, spec: {} })).toEqual(['spec']);
    expect(unknownFields('batch/v1', 'CronJob', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { schedule: '* * * * *', timezone: 'UTC', jobTemplate: { spec: { template: { spec: { containers: [] } } } } } })).toEqual([
      'spec.timezone',
    ]);
    const hpa = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { maxReplicas: 5, scaleTargetRef: { kind: 'Deployment', name: 'web' }, metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'AverageValue', averageValue: 1, averageUtilisation: 50 } } }] } };
    expect(unknownFields('autoscaling/v2', 'HorizontalPodAutoscaler', hpa)).toEqual(['spec.metrics[0].resource.target.averageUtilisation']);
  });

  it('checks nothing for kinds client-node has no model of', () => {
    expect(modelFor('example.com/v1', 'Widget')).toBeUndefined();
    expect(unknownFields('example.com/v1', 'Widget', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { anything: true } })).toEqual([]);
  });

  it('maps the served kinds to their client-node models, both Event kinds apart', () => {
    expect([modelFor('apps/v1', 'Deployment'), modelFor('v1', 'Event'), modelFor('events.k8s.io/v1', 'Event'), modelFor('autoscaling/v2', 'HorizontalPodAutoscaler'), modelFor('autoscaling/v1', 'Scale'), modelFor('v1', 'Endpoints')]).toEqual([
      'V1Deployment',
      'CoreV1Event',
      'EventsV1Event',
      'V2HorizontalPodAutoscaler',
      'V1Scale',
      'V1Endpoints',
    ]);
  });

  it('returns the object without its unknown fields, and the same object when there are none', () => {
    const clean = deployment();
    expect(decodeTyped('V1Deployment', clean).pruned).toBe(clean);
    const typo = deployment((d) => {
      d.spec['replicass'] = 3;
      d.spec.template.spec.containers[0] = { name: 'nginx', image: 'nginx:1.27', imagee: 'x' };
    });
    const pruned = decodeTyped('V1Deployment', typo).pruned as KubeObject;
    expect(pruned).toEqual(deployment());
    expect(typo.spec).toHaveProperty('replicass', 3);
  });
});

describe('type errors, as Go json and the unstructured converter print them', () => {
  it('a string in an int32 field', () => {
    const error = typeErrorOf(deployment((d) => (d.spec['replicas'] = 'two')));
    expect(jsonTypeErrorMessage(error)).toBe('json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
    expect(converterTypeErrorMessage(error)).toBe('unrecognized type: int32');
  });

  it('a number in a string field of a list item, named by the innermost struct and field names only', () => {
    const error = typeErrorOf(deployment((d) => (d.spec.template.spec.containers[0] = { name: 'nginx', image: 'nginx', env: [{ name: 'PORT', value: 8080 }] })));
    expect(jsonTypeErrorMessage(error)).toBe('json: cannot unmarshal number into Go struct field EnvVar.spec.template.spec.containers.env.value of type string');
    expect(converterTypeErrorMessage(error)).toBe('cannot convert int64 to string');
  });

  it('a number as a label value, reported on the map field', () => {
    const error = typeErrorOf(deployment((d) => (d.metadata['labels'] = { app: 'web', version: 1.5 })));
    expect(jsonTypeErrorMessage(error)).toBe('json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string');
    expect(converterTypeErrorMessage(error)).toBe('unrecognized type: string');
  });

  it('a fraction or an overflow in an integer field', () => {
    expect(jsonTypeErrorMessage(typeErrorOf(deployment((d) => (d.spec['replicas'] = 1.5))))).toBe(
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    expect(jsonTypeErrorMessage(typeErrorOf(deployment((d) => (d.spec['replicas'] = 3_000_000_000))))).toBe(
      'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
  });

  it('a scalar where a list or a struct belongs', () => {
    const list = typeErrorOf(deployment((d) => (d.spec.template.spec['containers'] = 'nginx' as unknown as Json[])));
    expect(jsonTypeErrorMessage(list)).toBe('json: cannot unmarshal string into Go struct field PodSpec.spec.template.spec.containers of type []v1.Container');
    expect(converterTypeErrorMessage(list)).toBe('cannot restore slice from string');
    const struct = typeErrorOf(deployment((d) => (d.spec['selector'] = [{ app: 'web' }])));
    expect(jsonTypeErrorMessage(struct)).toBe('json: cannot unmarshal array into Go struct field DeploymentSpec.spec.selector of type v1.LabelSelector');
    expect(converterTypeErrorMessage(struct)).toBe('cannot restore struct from: slice');
  });

  it('accepts null anywhere, both IntOrString forms and Quantities given as numbers', () => {
    const object = deployment((d) => {
      d.spec['replicas'] = null;
      d.spec['strategy'] = { rollingUpdate: { maxSurge: '50%', maxUnavailable: 0 } };
      d.spec.template.spec.containers[0] = { name: 'nginx', image: 'nginx', resources: { limits: { cpu: 2, memory: '1Gi' } }, livenessProbe: { httpGet: { port: 'http' } } };
    });
    expect(decodeTyped('V1Deployment', object).typeError).toBeUndefined();
  });

  it('reports only the first mismatch in document order', () => {
    const error = typeErrorOf(deployment((d) => {
      d.spec['replicas'] = 'two';
      d.spec['paused'] = 'yes';
    }));
    expect(error.field).toBe('spec.replicas');
  });
});
