import { afterEach, describe, expect, it } from 'vitest';
import { decodeInline } from '../../../../electron/engine/cluster/informers/list-decode.ts';
import { createListDecoder, type PooledListDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { decodeEventObjects, withoutManagedFields } from '../../../../electron/engine/cluster/informers/watch-decode.ts';
import { POD_LIST_ITEM } from './fixtures/objects.ts';

const POD = { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' } as const;

const MANAGED_FIELDS = [
  {
    manager: 'kube-controller-manager',
    operation: 'Update',
    apiVersion: 'v1',
    time: '2026-11-28T01:00:00Z',
    fieldsType: 'FieldsV1',
    fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} }, 'f:ownerReferences': { 'k:{"uid":"6f1f0a5e"}': {} } }, 'f:status': { 'f:conditions': { 'k:{"type":"Ready"}': { '.': {}, 'f:status': {} } } } },
  },
];

/** A pod as the simulator writes it: managedFields between ownerReferences and its own uid. */
const SIM_ORDER_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d4b9c8f6d-x2x9k',
    namespace: 'shop',
    labels: { app: 'web', managedFields: 'a label, not the field' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: '6f1f0a5e', controller: true }],
    managedFields: MANAGED_FIELDS,
    uid: 'c0ffee00-1111-4222-8333-444455556666',
    resourceVersion: '81718',
    annotations: { note: '"managedFields":[] in a string', 'quote\\"key': 'a "quoted" value\\' },
  },
  spec: { containers: [{ name: 'web', image: 'registry.example/web:1.2.3' }] },
  status: { phase: 'Running' },
};

/** `object` parsed, without its metadata.managedFields (what the cut must leave). */
function expectedWithout(object: { metadata: Record<string, unknown> }): unknown {
  const { managedFields: _dropped, ...metadata } = object.metadata;
  return { ...object, metadata };
}

let decoder: PooledListDecoder | undefined;
afterEach(() => {
  decoder?.close();
  decoder = undefined;
});

describe("cutting an object's managedFields out of its JSON before the parse", () => {
  it('removes the member between others, leaving the rest byte for byte', () => {
    const text = JSON.stringify(SIM_ORDER_POD);
    const cut = withoutManagedFields(text);
    expect(cut.length).toBe(text.length - `,"managedFields":${JSON.stringify(MANAGED_FIELDS)}`.length);
    expect(JSON.parse(cut)).toEqual(expectedWithout(SIM_ORDER_POD));
    // A label and an annotation that mention it are the pod's own data and stay.
    expect(JSON.parse(cut).metadata.labels.managedFields).toBe('a label, not the field');
    expect(JSON.parse(cut).metadata.annotations.note).toBe('"managedFields":[] in a string');
  });

  it('removes it as the first, the last or the only member, with spaces around', () => {
    const first = { metadata: { managedFields: MANAGED_FIELDS, name: 'a', uid: 'u' } };
    const last = { metadata: { name: 'a', uid: 'u', managedFields: MANAGED_FIELDS } };
    const only = { metadata: { managedFields: MANAGED_FIELDS } };
    for (const object of [first, last, only]) {
      expect(JSON.parse(withoutManagedFields(JSON.stringify(object)))).toEqual(expectedWithout(object));
      expect(JSON.parse(withoutManagedFields(JSON.stringify(object, null, 2)))).toEqual(expectedWithout(object));
    }
    expect(withoutManagedFields(JSON.stringify(only))).toBe('{"metadata":{}}');
  });

  it("leaves any other object's managedFields (a pod template's), and text it cannot walk, as they are", () => {
    const template = JSON.stringify({ metadata: { name: 'web' }, spec: { template: { metadata: { managedFields: MANAGED_FIELDS } } } });
    expect(withoutManagedFields(template)).toBe(template);
    for (const text of ['{"kind":"Status","code":410}', '[1,2]', '{"metadata":"odd"}', '{"metadata":{"managedFields":[{"a":', 'not json']) {
      expect(withoutManagedFields(text)).toBe(text);
    }
  });

  it('decodes watch objects into the same slim objects and JSON as the same objects in a list page, on either thread', async () => {
    const objects = [SIM_ORDER_POD, { ...POD_LIST_ITEM, metadata: { ...POD_LIST_ITEM.metadata, managedFields: MANAGED_FIELDS, labels: { zone: 'zürich-名前' } } }, POD_LIST_ITEM];
    const texts = objects.map((object) => JSON.stringify(object));
    const asList = decodeInline(JSON.stringify({ items: objects }), POD);
    const here = decodeEventObjects(texts, POD);
    decoder = createListDecoder({ inlineBelowBytes: 0 });
    const inWorker = await decoder.decodeObjects?.(texts, POD);
    expect(decoder.usesWorker()).toBe(true);
    for (const page of [here, inWorker]) {
      expect(page?.objects).toEqual(asList.objects);
      expect(page?.json).toEqual(asList.json);
      expect(page?.viewJson).toEqual(asList.viewJson);
    }
    expect(inWorker?.objects[1]?.metadata.labels).toEqual({ zone: 'zürich-名前' });
  });

  it('fails a batch with an object that is not JSON, in the worker as here', async () => {
    decoder = createListDecoder({ inlineBelowBytes: 0 });
    await expect(decoder.decodeObjects?.([JSON.stringify(POD_LIST_ITEM), '{"metadata":{"uid":'], POD)).rejects.toThrow(/JSON/);
    expect(() => decodeEventObjects(['{"metadata":'], POD)).toThrow(/JSON/);
  });
});
