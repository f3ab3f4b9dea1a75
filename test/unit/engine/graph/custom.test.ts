import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { GraphEdge, GraphNode } from '../../../../shared/contracts/graph.ts';
import { buildGraph, type BuildOptions, type GraphBuild } from '../../../../electron/engine/graph/build.ts';
import { objectDetail } from '../../../../electron/engine/graph/detail.ts';
import { createLiveIndex } from '../../../../electron/engine/graph/live-index.ts';
import { createGraphIndex } from '../../../../electron/engine/graph/objects.ts';
import { podReferences } from '../../../../electron/engine/graph/pod-refs.ts';
import { batchJob, claim, CUSTOM_UID, customJob, dbPods, demoResolver, metadataOnly, ordersDb, READY_CONDITIONS, slimPod, STALLED_CONDITIONS } from './custom-fixtures.ts';

function graph(objects: SlimObject[], options: Partial<BuildOptions> = {}): GraphBuild {
  const result = buildGraph(createGraphIndex(objects, demoResolver()), { namespace: 'shop', focus: null, ...options });
  if (!result) throw new Error('no graph');
  return result;
}
const node = (g: GraphBuild, id: string): GraphNode => {
  const found = g.nodes.find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}; have ${g.nodes.map((n) => `${n.kind}/${n.name}`).join(', ')}`);
  return found;
};
const has = (g: GraphBuild, edge: GraphEdge): boolean => g.edges.some((e) => e.from === edge.from && e.to === edge.to && e.type === edge.type);
const uid = (object: SlimObject): string => object.metadata.uid;
const byName = (g: GraphBuild, kind: string, name: string): GraphNode => {
  const found = g.nodes.find((n) => n.kind === kind && n.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};

describe('graph: custom resources', () => {
  it('draws the demo Database as Database -> StatefulSet -> Pods with the Secret and Service it owns', () => {
    const g = graph(ordersDb());
    expect(node(g, CUSTOM_UID.db)).toMatchObject({ kind: 'Database', kindKey: 'databases.db.kubedrift.dev', health: 'ready', status: 'Available', detail: '2/2 replicas ready' });
    expect(node(g, CUSTOM_UID.sts)).toMatchObject({ kindKey: 'statefulsets.apps', parent: CUSTOM_UID.db });
    for (const target of [CUSTOM_UID.sts, CUSTOM_UID.secret, CUSTOM_UID.service]) expect(has(g, { from: CUSTOM_UID.db, to: target, type: 'owns' })).toBe(true);
    for (const pod of dbPods) {
      expect(has(g, { from: CUSTOM_UID.sts, to: uid(pod), type: 'owns' })).toBe(true);
      expect(node(g, uid(pod)).parent).toBe(CUSTOM_UID.sts);
      expect(has(g, { from: CUSTOM_UID.service, to: uid(pod), type: 'selects' })).toBe(true);
      // The password comes from the operator's Secret (env valueFrom): a uses edge, not ownership.
      expect(has(g, { from: uid(pod), to: CUSTOM_UID.secret, type: 'uses' })).toBe(true);
    }
    expect(node(g, CUSTOM_UID.secret)).toMatchObject({ kind: 'Secret', kindKey: 'secrets', parent: CUSTOM_UID.db, health: 'neutral', status: 'Used by 2 pods' });
    expect(node(g, CUSTOM_UID.claim0)).toMatchObject({ kindKey: 'persistentvolumeclaims', health: 'ready', status: 'Bound', detail: '10Gi · standard · used by 1 pod' });
    expect(has(g, { from: CUSTOM_UID.pod0, to: CUSTOM_UID.claim0, type: 'uses' })).toBe(true);
    expect(has(g, { from: CUSTOM_UID.pod0, to: 'sa-default-uid', type: 'uses' })).toBe(true);
    expect(g.stats.danglingOwners).toBe(0);
  });

  it('colours a custom resource by the one status rule: Stalled is failing, no condition is neutral, never green', () => {
    const stalled = graph(ordersDb(STALLED_CONDITIONS));
    expect(node(stalled, CUSTOM_UID.db)).toMatchObject({ health: 'failing', status: 'UnsupportedVersion', detail: 'postgres 9 is not supported by this operator (supported: 14, 15, 16)' });
    const bare = { ...ordersDb()[0], status: {} } as SlimObject;
    expect(node(graph([bare]), CUSTOM_UID.db)).toMatchObject({ health: 'neutral', status: 'No status signal' });
    const behind = { ...ordersDb()[0], metadata: { ...ordersDb()[0]?.metadata, generation: 3 } } as SlimObject;
    expect(node(graph([behind]), CUSTOM_UID.db)).toMatchObject({ health: 'progressing', status: 'Spec not observed yet', detail: 'Spec generation 3 not yet observed (controller at 1)' });
  });

  it('focuses on the Database: its whole tree, the Service in front of its pods and what they use', () => {
    const g = graph([...ordersDb(), customJob], { focus: CUSTOM_UID.db });
    const ids = new Set(g.nodes.map((n) => n.id));
    for (const id of [CUSTOM_UID.db, CUSTOM_UID.sts, CUSTOM_UID.secret, CUSTOM_UID.service, CUSTOM_UID.pod0, CUSTOM_UID.pod1, CUSTOM_UID.claim0]) expect(ids.has(id)).toBe(true);
    expect(ids.has(CUSTOM_UID.customJob)).toBe(false);
  });

  it('focuses on a Secret: the pods using it and their owners up to the Database', () => {
    const g = graph(ordersDb(), { focus: CUSTOM_UID.secret });
    const ids = new Set(g.nodes.map((n) => n.id));
    for (const id of [CUSTOM_UID.secret, CUSTOM_UID.pod0, CUSTOM_UID.pod1, CUSTOM_UID.sts, CUSTOM_UID.db]) expect(ids.has(id)).toBe(true);
  });

  it('gives the side panel a custom resource with its kind key, its verdict as the reason and its generation pair', () => {
    const objects = ordersDb(STALLED_CONDITIONS);
    const index = createGraphIndex(objects, demoResolver());
    const detail = objectDetail(objects[0] as SlimObject, index, [], null);
    expect(detail.node).toMatchObject({ kindKey: 'databases.db.kubedrift.dev', health: 'failing' });
    expect(detail.reasons).toEqual(['UnsupportedVersion: postgres 9 is not supported by this operator (supported: 14, 15, 16)']);
    expect(detail.pairs).toEqual([{ field: 'Generation', desired: '1', actual: 'observed 1', match: true }]);
    expect(detail.conditions.map((c) => c.type)).toEqual(['Ready', 'Reconciling', 'Stalled']);
  });
});

describe('graph: a custom kind named Job (headlamp#5569)', () => {
  it('is its own kind: described by its conditions, not as a batch Job, with its own kind key', () => {
    const g = graph([customJob, batchJob]);
    expect(node(g, CUSTOM_UID.customJob)).toMatchObject({ kind: 'Job', kindKey: 'jobs.example.com', health: 'progressing', status: 'BackupFailed', detail: 'bucket s3://backups is not reachable' });
    expect(node(g, CUSTOM_UID.batchJob)).toMatchObject({ kind: 'Job', kindKey: 'jobs.batch' });
    expect(node(g, CUSTOM_UID.batchJob).detail).toContain('0/1 done');
  });

  it("takes the user's status rule for its group and kind first, and leaves the batch Job alone", () => {
    const rules = [{ group: 'example.com', kind: 'Job', conditionType: 'Ready', conditionStatus: 'False' as const, reason: 'BackupFailed', state: 'failed' as const }];
    const g = buildGraph(createGraphIndex([customJob, batchJob], demoResolver(), rules), { namespace: 'shop', focus: null });
    expect(g?.nodes.find((n) => n.id === CUSTOM_UID.customJob)).toMatchObject({ health: 'failing', status: 'BackupFailed' });
    expect(g?.nodes.find((n) => n.id === CUSTOM_UID.batchJob)?.health).toBe(node(graph([batchJob]), CUSTOM_UID.batchJob).health);
  });

  it('owns what names it by group, kind and uid, and nothing that names a batch Job', () => {
    const owner = (apiVersion: string, jobUid: string) => ({ ownerReferences: [{ apiVersion, kind: 'Job', name: 'nightly', uid: jobUid, controller: true }] });
    const raw = (name: string, podUid: string, metadata: object) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'shop', uid: podUid, resourceVersion: '1', creationTimestamp: '2025-06-01T11:50:00Z', ...metadata }, spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Running' } });
    const customChild = slimPod(raw('nightly-custom', 'pod-custom', owner('example.com/v1', CUSTOM_UID.customJob)));
    const batchChild = slimPod(raw('nightly-batch', 'pod-batch', owner('batch/v1', CUSTOM_UID.batchJob)));
    // Right uid, wrong group: a batch/v1 reference carrying the custom Job's uid, and the reverse.
    const wrongGroup = slimPod(raw('impostor-a', 'pod-a', owner('batch/v1', CUSTOM_UID.customJob)));
    const wrongGroupToo = slimPod(raw('impostor-b', 'pod-b', owner('example.com/v1', CUSTOM_UID.batchJob)));
    const g = graph([customJob, batchJob, customChild, batchChild, wrongGroup, wrongGroupToo]);
    expect(has(g, { from: CUSTOM_UID.customJob, to: 'pod-custom', type: 'owns' })).toBe(true);
    expect(has(g, { from: CUSTOM_UID.batchJob, to: 'pod-batch', type: 'owns' })).toBe(true);
    expect(g.edges.filter((e) => e.to === 'pod-a' || e.to === 'pod-b').some((e) => e.from === CUSTOM_UID.customJob || e.from === CUSTOM_UID.batchJob)).toBe(false);
    expect(node(g, 'pod-a').parent).not.toBe(CUSTOM_UID.customJob);
    expect(node(g, 'pod-b').parent).not.toBe(CUSTOM_UID.batchJob);
    // Both name a watched kind whose object with that uid is not of it: dangling.
    expect(node(g, 'pod-a').flags).toContain('dangling-owner');
    expect(node(g, 'pod-b').flags).toContain('dangling-owner');
  });
});

describe('graph: what pods use', () => {
  it('draws a uses edge for every way a pod names a ConfigMap, Secret, claim or ServiceAccount, after slimming', () => {
    const pod = slimPod({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'api-5f7c9d-abcde', namespace: 'shop', uid: 'pod-api', resourceVersion: '9', creationTimestamp: '2025-06-01T11:00:00Z' },
      spec: {
        nodeName: 'worker-1',
        serviceAccountName: 'api',
        imagePullSecrets: [{ name: 'registry-pull' }],
        volumes: [
          { name: 'config', configMap: { name: 'api-config', defaultMode: 420 } },
          { name: 'tls', secret: { secretName: 'api-tls', items: [{ key: 'tls.crt', path: 'tls.crt' }] } },
          { name: 'data', persistentVolumeClaim: { claimName: 'api-data' } },
          { name: 'scratch', emptyDir: {} },
          { name: 'bundle', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'ca-bundle', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { secret: { name: 'api-projected' } }, { downwardAPI: { items: [] } }] } },
          // What the ServiceAccount admission plugin adds to every pod: not a reference anyone wrote.
          { name: 'kube-api-access-x1zq9', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } }] } },
        ],
        initContainers: [{ name: 'migrate', image: 'acme/migrate:1', envFrom: [{ secretRef: { name: 'migrate-env' } }] }],
        containers: [
          {
            name: 'api',
            image: 'acme/api:2',
            envFrom: [{ configMapRef: { name: 'api-env' } }, { prefix: 'DB_', secretRef: { name: 'db-env' } }],
            env: [
              { name: 'LOG_LEVEL', valueFrom: { configMapKeyRef: { name: 'api-levels', key: 'level' } } },
              { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'api-token', key: 'token' } } },
              { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
              { name: 'PLAIN', value: 'x' },
            ],
          },
        ],
      },
      status: { phase: 'Running' },
    });
    const configMaps = ['api-config', 'ca-bundle', 'api-env', 'api-levels'];
    const secrets = ['registry-pull', 'api-tls', 'api-projected', 'migrate-env', 'db-env', 'api-token'];
    const objects = [
      pod,
      ...configMaps.map((name) => metadataOnly('ConfigMap', name, `cm-${name}`)),
      ...secrets.map((name) => metadataOnly('Secret', name, `secret-${name}`)),
      metadataOnly('ServiceAccount', 'api', 'sa-api'),
      claim('api-data', 'pvc-api-data', 'Pending'),
      // Not used by the pod (kube-root-ca.crt only through the injected token volume): no edge.
      metadataOnly('ConfigMap', 'unrelated', 'cm-unrelated'),
      metadataOnly('ConfigMap', 'kube-root-ca.crt', 'cm-root-ca'),
    ];
    const g = graph(objects);
    const used = g.edges.filter((e) => e.type === 'uses').map((e) => e.to).sort();
    expect(used).toEqual([...configMaps.map((name) => `cm-${name}`), ...secrets.map((name) => `secret-${name}`), 'sa-api', 'pvc-api-data'].sort());
    expect(g.edges.filter((e) => e.type === 'uses').every((e) => e.from === 'pod-api')).toBe(true);
    expect(node(g, 'pvc-api-data')).toMatchObject({ health: 'drifting', status: 'Pending' });
    expect(node(g, 'cm-unrelated')).toMatchObject({ health: 'neutral', status: 'Used by no pod' });
    expect(byName(g, 'ServiceAccount', 'api').kindKey).toBe('serviceaccounts');
  });

  it('reads a whole pod the same way, without the token volume admission injects', () => {
    const whole = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'w', namespace: 'shop', uid: 'w', resourceVersion: '1' },
      spec: {
        serviceAccountName: 'default',
        volumes: [
          { name: 'kube-api-access-4bx7d', projected: { sources: [{ serviceAccountToken: { path: 'token' } }, { configMap: { name: 'kube-root-ca.crt' } }] } },
          { name: 'cache', persistentVolumeClaim: { claimName: 'w-cache', readOnly: true } },
        ],
        // The same Secret named again (envFrom, a pull secret) is one reference.
        containers: [{ name: 'c', image: 'x', envFrom: [{ secretRef: { name: 's' } }], env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 's', key: 'k', optional: true } } }] }],
        imagePullSecrets: [{ name: 's' }],
      },
    } as SlimObject;
    expect(podReferences(whole)).toEqual([
      { key: 'persistentvolumeclaims', name: 'w-cache' },
      { key: 'secrets', name: 's' },
      { key: 'serviceaccounts', name: 'default' },
    ]);
    const bare = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b', namespace: 'shop', uid: 'b', resourceVersion: '1' }, spec: { containers: [{ name: 'c', image: 'x' }] } } as SlimObject;
    expect(podReferences(bare)).toEqual([]);
  });

  it('draws uses edges from a pod group once, not once per pod', () => {
    const pods = Array.from({ length: 12 }, (_, i) => {
      const raw = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `w-${i}`, namespace: 'shop', uid: `w-${i}`, resourceVersion: '1', creationTimestamp: '2025-06-01T11:00:00Z', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'w-1', uid: 'rs-w', controller: true }] }, spec: { nodeName: 'worker-1', containers: [{ name: 'c', image: 'x', envFrom: [{ configMapRef: { name: 'shared' } }] }] }, status: { phase: 'Running' } };
      return slimPod(raw);
    });
    const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'w-1', namespace: 'shop', uid: 'rs-w', resourceVersion: '1', generation: 1 }, spec: { replicas: 12 }, status: { replicas: 12, readyReplicas: 12, observedGeneration: 1 } } as SlimObject;
    const g = graph([rs, ...pods, metadataOnly('ConfigMap', 'shared', 'cm-shared')]);
    expect(g.edges.filter((e) => e.type === 'uses')).toEqual([{ from: 'group:rs-w:Pod', to: 'cm-shared', type: 'uses' }]);
    expect(node(g, 'cm-shared').status).toBe('Used by 12 pods');
  });
});

describe('graph: the live index and custom kinds', () => {
  it('learns custom kinds from the cache, so past objects of that kind resolve to the same key', () => {
    const live = createLiveIndex(() => undefined);
    const [db] = ordersDb(READY_CONDITIONS);
    live.reset('demo', { objects: [db as SlimObject], kinds: ['databases.db.kubedrift.dev'] });
    expect(live.get(CUSTOM_UID.db)).toBe(db);
    expect(live.resolver.keyOf('db.kubedrift.dev/v1alpha1', 'Database')).toBe('databases.db.kubedrift.dev');
    // Kinds the graph does not draw stay out.
    live.apply({ type: 'upsert', kind: 'rolebindings.rbac.authorization.k8s.io', object: { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'rb', namespace: 'shop', uid: 'rb-1', resourceVersion: '3' } }, previous: undefined });
    expect(live.get('rb-1')).toBeUndefined();
    const past = buildGraph(createGraphIndex([db as SlimObject], live.resolver), { namespace: 'shop', focus: null });
    expect(past?.nodes[0]).toMatchObject({ kindKey: 'databases.db.kubedrift.dev', health: 'ready' });
  });
});
