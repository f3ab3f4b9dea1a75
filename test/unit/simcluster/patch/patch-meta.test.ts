import { describe, expect, it } from 'vitest';
import { listSemantics, patchMetaFromDefinitions, untypedPatchMeta, type PatchDefinitions } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';
import { DEPLOYMENT, SERVICE, definitions } from './fixtures.ts';

const deployment = patchMetaFromDefinitions(definitions, DEPLOYMENT);
const podSpec = ['spec', 'template', 'spec'];

describe('patchMetaFromDefinitions', () => {
  it('finds the containers merge key through Deployment → DeploymentSpec → PodTemplateSpec → PodSpec', () => {
    expect(deployment.at([...podSpec, 'containers'])).toMatchObject({ kind: 'list', mergeKey: 'name', strategy: ['merge'], listType: 'map', listMapKeys: ['name'] });
  });

  it('steps through list elements: container ports merge by containerPort, keyed by containerPort and protocol', () => {
    expect(deployment.at([...podSpec, 'containers', 'ports'])).toMatchObject({ mergeKey: 'containerPort', listMapKeys: ['containerPort', 'protocol'] });
    expect(deployment.at([...podSpec, 'containers', 'env'])).toMatchObject({ mergeKey: 'name' });
    expect(deployment.at([...podSpec, 'containers', 'volumeMounts'])).toMatchObject({ mergeKey: 'mountPath' });
  });

  it('splits the comma-separated strategy of volumes into merge and retainKeys', () => {
    expect(deployment.at([...podSpec, 'volumes'])).toMatchObject({ mergeKey: 'name', strategy: ['merge', 'retainKeys'] });
  });

  it('reads a strategy written next to a $ref (spec.strategy: retainKeys)', () => {
    expect(deployment.at(['spec', 'strategy'])).toEqual({ kind: 'struct', strategy: ['retainKeys'] });
  });

  it('reports atomic lists without merge keys (tolerations, args, command)', () => {
    expect(deployment.at([...podSpec, 'tolerations'])).toEqual({ kind: 'list', listType: 'atomic' });
    expect(deployment.at([...podSpec, 'containers', 'args'])).toEqual({ kind: 'list', listType: 'atomic' });
    expect(deployment.at([...podSpec, 'containers', 'command'])).toEqual({ kind: 'list', listType: 'atomic' });
  });

  it('reads metadata lists: finalizers merge as a set, ownerReferences by uid', () => {
    expect(deployment.at(['metadata', 'finalizers'])).toEqual({ kind: 'list', strategy: ['merge'], listType: 'set' });
    expect(deployment.at(['metadata', 'ownerReferences'])).toMatchObject({ mergeKey: 'uid', listMapKeys: ['uid'] });
    expect(deployment.at(['status', 'conditions'])).toMatchObject({ mergeKey: 'type' });
  });

  it('takes x-kubernetes-map-type from the referenced definition (LabelSelector is atomic)', () => {
    expect(deployment.at(['spec', 'selector'])).toEqual({ kind: 'struct', mapType: 'atomic' });
  });

  it('tells structs, free-form maps and scalars apart', () => {
    expect(deployment.at(['metadata', 'labels']).kind).toBe('map');
    expect(deployment.at(['metadata', 'labels', 'app']).kind).toBe('scalar');
    expect(deployment.at(['spec', 'replicas']).kind).toBe('scalar');
    expect(deployment.at(['spec', 'strategy', 'rollingUpdate', 'maxSurge']).kind).toBe('scalar');
    expect(deployment.at([...podSpec, 'containers', 'resources', 'limits']).kind).toBe('map');
  });

  it('exposes schema defaults, which server-side apply needs for the protocol key of ports', () => {
    expect(deployment.at([...podSpec, 'containers', 'ports', 'protocol']).default).toBe('TCP');
    const service = patchMetaFromDefinitions(definitions, SERVICE);
    expect(service.at(['spec', 'ports'])).toMatchObject({ mergeKey: 'port', listMapKeys: ['port', 'protocol'] });
  });

  it('knows declared and required fields', () => {
    const spec = deployment.field('spec').field('template').field('spec');
    expect(spec.declares('containers')).toBe(true);
    expect(spec.declares('nope')).toBe(false);
    expect(spec.requires('containers')).toBe(true);
    expect(spec.requires('volumes')).toBe(false);
    expect(deployment.field('metadata').field('labels').declares('app')).toBe(false);
  });

  it('answers unknown for fields and definitions the schema does not describe', () => {
    expect(deployment.at(['spec', 'nope', 'deeper'])).toEqual({ kind: 'unknown' });
    expect(patchMetaFromDefinitions(definitions, 'io.k8s.api.nope.v1.Nope')).toBe(untypedPatchMeta);
    expect(untypedPatchMeta.field('x').elements().info).toEqual({ kind: 'unknown' });
  });

  it('resolves $refs lazily, so self-referencing schemas are fine', () => {
    const recursive: PatchDefinitions = {
      Props: { type: 'object', properties: { items: { $ref: '#/definitions/Props' }, list: { type: 'array', items: { $ref: '#/definitions/Props' }, 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' } } },
    };
    const meta = patchMetaFromDefinitions(recursive, 'Props');
    expect(meta.at(['items', 'items', 'items', 'list', 'items', 'list']).mergeKey).toBe('name');
  });

  it('resolves the OpenAPI v3 allOf: [{$ref}] wrapping too', () => {
    const v3: PatchDefinitions = {
      Root: { type: 'object', properties: { spec: { allOf: [{ $ref: '#/definitions/Spec' }], 'x-kubernetes-patch-strategy': 'retainKeys' } } },
      Spec: { type: 'object', properties: { replicas: { type: 'integer' } } },
    };
    expect(patchMetaFromDefinitions(v3, 'Root').at(['spec'])).toEqual({ kind: 'struct', strategy: ['retainKeys'] });
  });
});

describe('listSemantics (what server-side apply makes of a list)', () => {
  it('prefers x-kubernetes-list-type and its map keys', () => {
    expect(listSemantics(deployment.at([...podSpec, 'containers', 'ports']))).toEqual({ type: 'map', keys: ['containerPort', 'protocol'] });
    expect(listSemantics(deployment.at([...podSpec, 'tolerations']))).toEqual({ type: 'atomic', keys: [] });
    expect(listSemantics(deployment.at(['metadata', 'finalizers']))).toEqual({ type: 'set', keys: [] });
  });

  it('derives associativity from a merge patch strategy when no list type is declared', () => {
    expect(listSemantics({ kind: 'list', mergeKey: 'name', strategy: ['merge'] })).toEqual({ type: 'map', keys: ['name'] });
    expect(listSemantics({ kind: 'list', strategy: ['merge'] })).toEqual({ type: 'set', keys: [] });
    expect(listSemantics({ kind: 'list' })).toEqual({ type: 'atomic', keys: [] });
    expect(listSemantics({ kind: 'unknown' })).toEqual({ type: 'atomic', keys: [] });
  });
});
