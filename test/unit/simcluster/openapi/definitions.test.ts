import { describe, expect, it } from 'vitest';
import { definitionNameFor, definitions, type Schema } from '../../../../electron/engine/simcluster/openapi/index.ts';
import { RESOURCE_TYPES } from '../../../../electron/engine/simcluster/resources.ts';

const defs = definitions();

function def(name: string): Schema {
  const schema = defs[name];
  if (!schema) throw new Error(`no definition ${name}`);
  return schema;
}

function prop(name: string, field: string): Schema {
  const schema = def(name).properties?.[field];
  if (!schema) throw new Error(`${name} has no property ${field}`);
  return schema;
}

function refs(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, into));
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref') into.push(inner as string);
      else refs(inner, into);
    }
  }
  return into;
}

describe('OpenAPI definitions', () => {
  it('has a definition tagged with its group/version/kind, and a List, for every served kind', () => {
    for (const type of RESOURCE_TYPES) {
      const gvk = { group: type.group, kind: type.kind, version: type.version };
      const name = definitionNameFor(type.group, type.version, type.kind);
      expect(def(name)['x-kubernetes-group-version-kind'], name).toEqual([gvk]);
      expect(Object.keys(def(name).properties ?? {})).toEqual(expect.arrayContaining(['apiVersion', 'kind', 'metadata']));
      const list = def(definitionNameFor(type.group, type.version, `${type.kind}List`));
      expect(list['x-kubernetes-group-version-kind']).toEqual([{ ...gvk, kind: `${type.kind}List` }]);
      expect(list.required).toEqual(['items']);
      expect(list.properties?.items?.items?.$ref).toBe(`#/definitions/${name}`);
    }
  });

  it('uses Kubernetes definition names', () => {
    expect(definitionNameFor('apps', 'v1', 'Deployment')).toBe('io.k8s.api.apps.v1.Deployment');
    expect(definitionNameFor('', 'v1', 'Pod')).toBe('io.k8s.api.core.v1.Pod');
    expect(definitionNameFor('events.k8s.io', 'v1', 'Event')).toBe('io.k8s.api.events.v1.Event');
    expect(definitionNameFor('autoscaling', 'v2', 'HorizontalPodAutoscaler')).toBe('io.k8s.api.autoscaling.v2.HorizontalPodAutoscaler');
    expect(definitionNameFor('', 'v1', 'Status')).toBe('io.k8s.apimachinery.pkg.apis.meta.v1.Status');
    expect(definitionNameFor('autoscaling', 'v1', 'Scale')).toBe('io.k8s.api.autoscaling.v1.Scale');
    expect(prop('io.k8s.api.apps.v1.Deployment', 'metadata').$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta');
  });

  it('resolves every $ref to a published definition', () => {
    const all = refs(defs);
    expect(all.length).toBeGreaterThan(300);
    const dangling = all.filter((r) => !r.startsWith('#/definitions/') || !defs[r.slice('#/definitions/'.length)]);
    expect(dangling).toEqual([]);
  });

  it('declares arrays with items and objects with properties or additionalProperties, as kubectl parses them', () => {
    const check = (schema: Schema, path: string): void => {
      if (schema.type === 'array') expect(schema.items, path).toBeDefined();
      for (const [key, inner] of Object.entries(schema.properties ?? {})) check(inner, `${path}.${key}`);
      if (schema.items) check(schema.items, `${path}[]`);
      if (schema.additionalProperties) check(schema.additionalProperties, `${path}{}`);
    };
    for (const [name, schema] of Object.entries(defs)) check(schema, name);
  });

  it('carries the strategic-merge keys kubectl apply and diff merge lists by', () => {
    const merge = (name: string, field: string, key: string, strategy = 'merge') => {
      const schema = prop(name, field);
      expect(schema['x-kubernetes-patch-merge-key'], `${name}.${field}`).toBe(key);
      expect(schema['x-kubernetes-patch-strategy'], `${name}.${field}`).toBe(strategy);
    };
    const podSpec = 'io.k8s.api.core.v1.PodSpec';
    merge(podSpec, 'containers', 'name');
    merge(podSpec, 'initContainers', 'name');
    merge(podSpec, 'ephemeralContainers', 'name');
    merge(podSpec, 'imagePullSecrets', 'name');
    merge(podSpec, 'volumes', 'name', 'merge,retainKeys');
    merge('io.k8s.api.core.v1.Container', 'ports', 'containerPort');
    expect(prop('io.k8s.api.core.v1.Container', 'ports')['x-kubernetes-list-map-keys']).toEqual(['containerPort', 'protocol']);
    merge('io.k8s.api.core.v1.Container', 'env', 'name');
    merge('io.k8s.api.core.v1.Container', 'volumeMounts', 'mountPath');
    merge('io.k8s.api.core.v1.ServiceSpec', 'ports', 'port');
    expect(prop('io.k8s.api.core.v1.ServiceSpec', 'ports')['x-kubernetes-list-map-keys']).toEqual(['port', 'protocol']);
    merge('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'ownerReferences', 'uid');
    merge('io.k8s.api.apps.v1.DeploymentStatus', 'conditions', 'type');
    merge('io.k8s.api.core.v1.PodStatus', 'conditions', 'type');
    merge('io.k8s.api.core.v1.NodeStatus', 'conditions', 'type');
    const finalizers = prop('io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'finalizers');
    expect(finalizers['x-kubernetes-patch-strategy']).toBe('merge');
    expect(finalizers['x-kubernetes-list-type']).toBe('set');
    expect(finalizers['x-kubernetes-patch-merge-key']).toBeUndefined();
  });

  it('marks replace-whole lists atomic and the deployment strategy retainKeys', () => {
    expect(prop('io.k8s.api.core.v1.PodSpec', 'tolerations')['x-kubernetes-list-type']).toBe('atomic');
    expect(prop('io.k8s.api.core.v1.Container', 'args')['x-kubernetes-list-type']).toBe('atomic');
    expect(prop('io.k8s.api.core.v1.Container', 'command')['x-kubernetes-list-type']).toBe('atomic');
    expect(prop('io.k8s.api.core.v1.PodSpec', 'tolerations')['x-kubernetes-patch-merge-key']).toBeUndefined();
    expect(prop('io.k8s.api.apps.v1.DeploymentSpec', 'strategy')).toMatchObject({
      $ref: '#/definitions/io.k8s.api.apps.v1.DeploymentStrategy',
      'x-kubernetes-patch-strategy': 'retainKeys',
    });
  });

  it('lists required fields as upstream does', () => {
    expect(def('io.k8s.api.apps.v1.DeploymentSpec').required).toEqual(['selector', 'template']);
    expect(def('io.k8s.api.core.v1.PodSpec').required).toEqual(['containers']);
    expect(def('io.k8s.api.core.v1.Container').required).toEqual(['name']);
    expect(def('io.k8s.api.core.v1.ContainerPort').required).toEqual(['containerPort']);
    expect(def('io.k8s.api.batch.v1.CronJobSpec').required).toEqual(['schedule', 'jobTemplate']);
    expect(def('io.k8s.api.autoscaling.v2.HorizontalPodAutoscalerSpec').required).toEqual(['scaleTargetRef', 'maxReplicas']);
    expect(def('io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference').required).toEqual(['apiVersion', 'kind', 'name', 'uid']);
  });

  it('describes the fields kubectl explain prints', () => {
    for (const field of ['replicas', 'selector', 'template', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'progressDeadlineSeconds', 'paused']) {
      expect(prop('io.k8s.api.apps.v1.DeploymentSpec', field).description?.length, field).toBeGreaterThan(20);
    }
    for (const [field, schema] of Object.entries(def('io.k8s.api.core.v1.Container').properties ?? {})) {
      expect(schema.description?.length, field).toBeGreaterThan(10);
    }
  });

  it('publishes the scalar types in their wire forms', () => {
    expect(def('io.k8s.apimachinery.pkg.util.intstr.IntOrString')).toMatchObject({ type: 'string', format: 'int-or-string' });
    expect(def('io.k8s.apimachinery.pkg.api.resource.Quantity').type).toBe('string');
    expect(def('io.k8s.apimachinery.pkg.apis.meta.v1.Time')).toMatchObject({ type: 'string', format: 'date-time' });
    expect(prop('io.k8s.api.core.v1.ResourceRequirements', 'limits').additionalProperties?.$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.api.resource.Quantity');
    expect(prop('io.k8s.api.apps.v1.RollingUpdateDeployment', 'maxSurge').$ref).toBe('#/definitions/io.k8s.apimachinery.pkg.util.intstr.IntOrString');
  });

  it('tags DeleteOptions and WatchEvent with every served group version', () => {
    const gvks = def('io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions')['x-kubernetes-group-version-kind'] as Array<{ group: string; version: string }>;
    for (const type of RESOURCE_TYPES) expect(gvks).toContainEqual({ group: type.group, kind: 'DeleteOptions', version: type.version });
    expect(def('io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent').required).toEqual(['type', 'object']);
  });
});
