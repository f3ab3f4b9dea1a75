import { describe, expect, it } from 'vitest';
import { openapiV2Document, openapiV2Protobuf } from '../../../../electron/engine/simcluster/openapi/index.ts';
import { ProtoWriter } from '../../../../electron/engine/simcluster/openapi/protobuf-wire.ts';
import { decodeMessage, documentJson, type Decoded } from './gnostic-decoder.ts';

describe('ProtoWriter', () => {
  it('writes tags and multi-byte length prefixes as varints', () => {
    const long = 'x'.repeat(300);
    const bytes = new ProtoWriter().string(1, 'hi').string(25, long).bool(4, true).bool(5, false).finish();
    expect([...bytes.subarray(0, 4)]).toEqual([0x0a, 2, 0x68, 0x69]);
    // field 25, wire type 2 -> 202 = 0xca 0x01; length 300 = 0xac 0x02
    expect([...bytes.subarray(4, 8)]).toEqual([0xca, 0x01, 0xac, 0x02]);
    expect([...bytes.subarray(308)]).toEqual([0x20, 1]);
    expect(bytes.length).toBe(310);
  });

  it('keeps empty embedded messages and drops proto3 defaults', () => {
    expect([...new ProtoWriter().message(3, new ProtoWriter()).string(1, '').finish()]).toEqual([0x1a, 0]);
  });
});

describe('OpenAPI v2 protobuf', () => {
  const bytes = openapiV2Protobuf({ version: 'v1.27.3' });

  it('decodes, under OpenAPIv2.proto field numbers, back to the JSON document', () => {
    const json = JSON.parse(JSON.stringify(openapiV2Document({ version: 'v1.27.3' })));
    expect(documentJson(bytes)).toEqual(json);
  });

  it('puts paths in Paths.path (field 2) with the PATCH operation kubectl checks for dry-run support', () => {
    const doc = decodeMessage(bytes, 'Document');
    const paths = (doc.paths as Decoded).path as Decoded[];
    const item = paths.find((p) => p.name === '/apis/apps/v1/namespaces/{namespace}/deployments/{name}')?.value as Decoded;
    const patch = item.patch as Decoded;
    expect(patch.operation_id).toBe('patchAppsV1NamespacedDeployment');
    const gvk = (patch.vendor_extension as Decoded[]).find((e) => e.name === 'x-kubernetes-group-version-kind');
    expect(JSON.parse((gvk?.value as Decoded).yaml as string)).toEqual({ group: 'apps', kind: 'Deployment', version: 'v1' });
    const queryNames = (patch.parameters as Decoded[])
      .map((p) => ((p.parameter as Decoded).non_body_parameter as Decoded | undefined)?.query_parameter_sub_schema as Decoded | undefined)
      .filter((q): q is Decoded => q !== undefined)
      .map((q) => q.name);
    expect(queryNames).toContain('dryRun');
  });

  it('carries definitions with their GVK and merge-key extensions as YAML', () => {
    const doc = decodeMessage(bytes, 'Document');
    const named = ((doc.definitions as Decoded).additional_properties as Decoded[]).find((d) => d.name === 'io.k8s.api.core.v1.PodSpec');
    const properties = ((named?.value as Decoded).properties as Decoded).additional_properties as Decoded[];
    const containers = properties.find((p) => p.name === 'containers')?.value as Decoded;
    const ext = Object.fromEntries((containers.vendor_extension as Decoded[]).map((e) => [e.name, (e.value as Decoded).yaml]));
    expect(ext['x-kubernetes-patch-merge-key']).toBe('"name"');
    expect(ext['x-kubernetes-patch-strategy']).toBe('"merge"');
    expect(((containers.type as Decoded).value as string[])).toEqual(['array']);
  });

  it('is built once and reused', () => {
    expect(openapiV2Protobuf({ version: 'v1.27.3' })).toBe(bytes);
    expect(openapiV2Protobuf({ version: 'v1.33.1' })).not.toBe(bytes);
  });
});
