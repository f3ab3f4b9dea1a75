import { describe, expect, it } from 'vitest';
import { scanWatchLine } from '../../../../electron/engine/cluster/informers/watch-line.ts';
import { POD_LIST_ITEM } from './fixtures/objects.ts';

const OWNER_UID = '6f1f0a5e-0d3c-4b8a-9a55-1c0b3b7d2e11';

/** A pod as the simulator writes it: labels, ownerReferences (a uid!) and managedFields before its own uid. */
const SIM_ORDER_POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: {
    name: 'web-7d4b9c8f6d-x2x9k',
    generateName: 'web-7d4b9c8f6d-',
    namespace: 'shop',
    labels: { app: 'web', 'pod-template-hash': '7d4b9c8f6d' },
    ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-7d4b9c8f6d', uid: OWNER_UID, controller: true, blockOwnerDeletion: true }],
    annotations: { note: '{"uid":"not-this-one","resourceVersion":"1"}', 'quote\\"key': 'a "quoted" value\\' },
    managedFields: [{ manager: 'kube-controller-manager', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T01:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:ownerReferences': { [`k:{"uid":"${OWNER_UID}"}`]: {} } } } }],
    uid: 'c0ffee00-1111-4222-8333-444455556666',
    resourceVersion: '81718',
    creationTimestamp: '2026-11-28T01:00:00Z',
  },
  spec: { containers: [{ name: 'web', image: 'registry.example/web:1.2.3' }] },
  status: { phase: 'Running' },
};

describe('scanning a watch event line', () => {
  it('reads the type, uid and resourceVersion of a pod as kube-apiserver writes it', () => {
    const line = JSON.stringify({ type: 'MODIFIED', object: POD_LIST_ITEM });
    expect(scanWatchLine(line)).toEqual({ type: 'MODIFIED', uid: POD_LIST_ITEM.metadata.uid, resourceVersion: POD_LIST_ITEM.metadata.resourceVersion });
  });

  it("takes the object's own uid, not an ownerReference's or one inside an annotation, whatever the key order", () => {
    const line = JSON.stringify({ type: 'ADDED', object: SIM_ORDER_POD });
    expect(scanWatchLine(line)).toEqual({ type: 'ADDED', uid: 'c0ffee00-1111-4222-8333-444455556666', resourceVersion: '81718' });
  });

  it('reads a deletion, a bookmark (no uid) and an ERROR Status', () => {
    expect(scanWatchLine(JSON.stringify({ type: 'DELETED', object: SIM_ORDER_POD }))).toMatchObject({ type: 'DELETED', uid: SIM_ORDER_POD.metadata.uid });
    expect(scanWatchLine('{"type":"BOOKMARK","object":{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"90210","annotations":{"k8s.io/initial-events-end":"true"}}}}')).toEqual({
      type: 'BOOKMARK',
      resourceVersion: '90210',
    });
    const gone = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 81718 (91234)', reason: 'Expired', code: 410 };
    expect(scanWatchLine(JSON.stringify({ type: 'ERROR', object: gone }))).toEqual({ type: 'ERROR' });
  });

  it('unescapes escaped values and tolerates whitespace between tokens', () => {
    const line = '{ "type" : "MODIFIED" ,\t"object" : { "metadata" : { "uid" : "a\\u0062c" , "resourceVersion" : "7" } } }';
    expect(scanWatchLine(line)).toEqual({ type: 'MODIFIED', uid: 'abc', resourceVersion: '7' });
  });

  it('gives up on a line that is not an event object, so the caller parses it', () => {
    for (const line of ['[1,2]', '{"type":"MODIFIED"}', '{"type":"MODIFIED","object":{"metadata":{"uid":"a"', 'not json', '{"object":{"metadata":{}}}']) {
      expect(scanWatchLine(line), line).toBeUndefined();
    }
  });

  it('agrees with JSON.parse on every pod the fixtures hold, as an event of each type', () => {
    for (const type of ['ADDED', 'MODIFIED', 'DELETED']) {
      for (const pod of [POD_LIST_ITEM, SIM_ORDER_POD]) {
        const line = JSON.stringify({ type, object: pod });
        const parsed = JSON.parse(line) as { object: { metadata: { uid: string; resourceVersion: string } } };
        expect(scanWatchLine(line)).toEqual({ type, uid: parsed.object.metadata.uid, resourceVersion: parsed.object.metadata.resourceVersion });
      }
    }
  });
});
