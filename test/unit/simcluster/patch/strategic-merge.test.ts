import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { patchMetaFromDefinitions } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';
import { applyStrategicMergePatch } from '../../../../electron/engine/simcluster/patch/strategic-merge.ts';
import { DEPLOYMENT, SERVICE, definitions } from './fixtures.ts';

const meta = patchMetaFromDefinitions(definitions, DEPLOYMENT);

/** A live Deployment as kube-apiserver stores it (defaulted fields included). */
function deployment(podSpec: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'patch-demo', namespace: 'default', uid: 'u-1', resourceVersion: '201', labels: { app: 'nginx' } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'nginx' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: { metadata: { labels: { app: 'nginx' } }, spec: { restartPolicy: 'Always', ...podSpec } },
      ...extra,
    },
  };
}

const container = (name: string, image: string, more: Record<string, unknown> = {}) => ({
  name,
  image,
  imagePullPolicy: 'IfNotPresent',
  terminationMessagePath: '/dev/termination-log',
  ...more,
});

function podSpecOf(result: unknown): Record<string, unknown> {
  return (result as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec;
}

const names = (list: unknown) => (list as Array<{ name: string }>).map((item) => item.name);

function failure(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

describe('applyStrategicMergePatch: lists with merge keys', () => {
  it('adds a container and keeps the existing one, new first as the kubectl patch docs show', () => {
    const live = deployment({ containers: [container('patch-demo-ctr', 'nginx')] });
    const result = applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ name: 'patch-demo-ctr-2', image: 'redis' }] } } } }, meta);
    expect(podSpecOf(result).containers).toEqual([{ name: 'patch-demo-ctr-2', image: 'redis' }, container('patch-demo-ctr', 'nginx')]);
  });

  it('merges a container by name, keeping fields the patch does not mention', () => {
    const live = deployment({ containers: [container('a', 'nginx:1.26', { args: ['-x'] }), container('b', 'busybox')] });
    const result = applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ name: 'a', image: 'nginx:1.27' }] } } } }, meta);
    expect(podSpecOf(result).containers).toEqual([container('a', 'nginx:1.27', { args: ['-x'] }), container('b', 'busybox')]);
  });

  it('deletes one container by merge key with $patch: delete', () => {
    const live = deployment({ containers: [container('nginx', 'nginx'), container('log-tailer', 'busybox')] });
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx-1.0' }, { $patch: 'delete', name: 'log-tailer' }] } } } };
    expect(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers).toEqual([container('nginx', 'nginx-1.0')]);
  });

  it('replaces the whole list with a $patch: replace item', () => {
    const live = deployment({ containers: [container('a', 'x'), container('b', 'y')] });
    const patch = { spec: { template: { spec: { containers: [{ name: 'nginx', image: 'nginx-1.0' }, { $patch: 'replace' }] } } } };
    expect(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers).toEqual([{ name: 'nginx', image: 'nginx-1.0' }]);
  });

  it('merges nested lists by their own keys: ports by containerPort, env by name, volumeMounts by mountPath', () => {
    const live = deployment({
      containers: [
        container('c', 'img', {
          ports: [{ containerPort: 80, protocol: 'TCP' }],
          env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }],
          volumeMounts: [{ name: 'data', mountPath: '/data' }],
        }),
      ],
    });
    const patch = {
      spec: {
        template: {
          spec: {
            containers: [
              {
                name: 'c',
                ports: [{ containerPort: 80, name: 'http' }, { containerPort: 443 }],
                env: [{ name: 'B', value: '3' }],
                volumeMounts: [{ mountPath: '/data', readOnly: true }],
              },
            ],
          },
        },
      },
    };
    const [merged] = podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers as Array<Record<string, unknown>>;
    expect(merged?.ports).toEqual([{ containerPort: 80, protocol: 'TCP', name: 'http' }, { containerPort: 443 }]);
    expect(merged?.env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '3' }]);
    expect(merged?.volumeMounts).toEqual([{ name: 'data', mountPath: '/data', readOnly: true }]);
  });

  it('merges Service ports by port and status conditions by type', () => {
    const service = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] } };
    const patched = applyStrategicMergePatch(service, { spec: { ports: [{ port: 80, targetPort: 9090 }] } }, patchMetaFromDefinitions(definitions, SERVICE));
    expect(patched.spec).toEqual({ ports: [{ port: 80, targetPort: 9090, protocol: 'TCP' }] });
    const live = { ...deployment({ containers: [] }), status: { conditions: [{ type: 'Available', status: 'True' }, { type: 'Progressing', status: 'True' }] } };
    const result = applyStrategicMergePatch(live, { status: { conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }] } }, meta);
    expect(result.status).toEqual({ conditions: [{ type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable' }, { type: 'Progressing', status: 'True' }] });
  });

  it('leaves a merge list alone when the patch list is empty (clearing takes null or $patch: replace)', () => {
    const live = deployment({ containers: [container('a', 'x')], volumes: [{ name: 'v', emptyDir: {} }] });
    const result = applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [], volumes: null } } } }, meta);
    expect(podSpecOf(result).containers).toEqual([container('a', 'x')]);
    expect(podSpecOf(result)).not.toHaveProperty('volumes');
  });

  it('merges ownerReferences by uid', () => {
    const live = { ...deployment({}), metadata: { name: 'x', ownerReferences: [{ apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' }] } };
    const result = applyStrategicMergePatch(live, { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'B', name: 'b', uid: '2' }] } }, meta);
    expect((result.metadata as { ownerReferences: Array<{ uid: string }> }).ownerReferences.map((o) => o.uid)).toEqual(['2', '1']);
  });
});

describe('applyStrategicMergePatch: lists without merge keys, primitive lists', () => {
  it('replaces atomic tolerations instead of merging them (kubectl patch docs)', () => {
    const live = deployment({ containers: [container('c', 'nginx')], tolerations: [{ effect: 'NoSchedule', key: 'dedicated', value: 'test-team' }] });
    const patch = { spec: { template: { spec: { tolerations: [{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }] } } } };
    expect(podSpecOf(applyStrategicMergePatch(live, patch, meta)).tolerations).toEqual([{ effect: 'NoSchedule', key: 'disktype', value: 'ssd' }]);
  });

  it('replaces args and command whole', () => {
    const live = deployment({ containers: [container('c', 'img', { args: ['a', 'b'], command: ['sh'] })] });
    const patch = { spec: { template: { spec: { containers: [{ name: 'c', args: ['b'], command: ['bash', '-c'] }] } } } };
    const [merged] = podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers as Array<Record<string, unknown>>;
    expect([merged?.args, merged?.command]).toEqual([['b'], ['bash', '-c']]);
  });

  it('unions finalizers (a primitive list with the merge strategy)', () => {
    const live = { ...deployment({}), metadata: { name: 'x', finalizers: ['a', 'b'] } };
    const result = applyStrategicMergePatch(live, { metadata: { finalizers: ['b', 'c'] } }, meta);
    expect((result.metadata as { finalizers: string[] }).finalizers).toEqual(['a', 'b', 'c']);
  });

  it('removes primitives listed in $deleteFromPrimitiveList/finalizers and nothing else', () => {
    const live = { ...deployment({}), metadata: { name: 'x', finalizers: ['a', 'b', 'c'] } };
    const result = applyStrategicMergePatch(live, { metadata: { '$deleteFromPrimitiveList/finalizers': ['b', 'z'] } }, meta);
    expect(result.metadata).toEqual({ name: 'x', finalizers: ['a', 'c'] });
  });

  it('puts a new primitive before the live ones it does not follow, as apimachinery orders merged lists', () => {
    const live = { ...deployment({}), metadata: { name: 'x', finalizers: ['a', 'b'] } };
    const result = applyStrategicMergePatch(live, { metadata: { finalizers: ['d'], '$deleteFromPrimitiveList/finalizers': ['b'] } }, meta);
    expect(result.metadata).toEqual({ name: 'x', finalizers: ['d', 'a'] });
  });
});

describe('applyStrategicMergePatch: $setElementOrder', () => {
  it('reorders containers as listed', () => {
    const live = deployment({ containers: [container('a', 'x'), container('b', 'y')] });
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } } } };
    expect(names(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers)).toEqual(['b', 'a']);
  });

  it('places a new container where the order says, between existing ones', () => {
    const live = deployment({ containers: [container('a', 'x'), container('c', 'z')] });
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }, { name: 'c' }], containers: [{ name: 'b', image: 'y' }] } } } };
    expect(names(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers)).toEqual(['a', 'b', 'c']);
  });

  it('keeps items added by someone else, after the items the order names', () => {
    const live = deployment({ containers: [container('a', 'x'), container('sidecar', 'injected')] });
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b', image: 'y' }] } } } };
    expect(names(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers)).toEqual(['a', 'b', 'sidecar']);
  });

  it('removes a container the way kubectl apply does: ordering plus a $patch: delete item', () => {
    const live = deployment({ containers: [container('a', 'x'), container('b', 'y')] });
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }], containers: [{ $patch: 'delete', name: 'b' }] } } } };
    expect(podSpecOf(applyStrategicMergePatch(live, patch, meta)).containers).toEqual([container('a', 'x')]);
  });

  it('applies the body kubectl diff sends for an existing Deployment', () => {
    const lastApplied = '{"apiVersion":"apps/v1","kind":"Deployment"}';
    const live = deployment({ containers: [container('c', 'nginx:1.26', { resources: {} })] });
    const patch = {
      metadata: { annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
      spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'c' }], containers: [{ image: 'nginx:1.27', name: 'c' }] } } },
    };
    const result = applyStrategicMergePatch(live, patch, meta);
    expect(result).toEqual({
      ...live,
      metadata: { ...live.metadata, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied } },
      spec: { ...live.spec, template: { ...live.spec.template, spec: { restartPolicy: 'Always', containers: [container('c', 'nginx:1.27', { resources: {} })] } } },
    });
    expect(JSON.stringify(result)).not.toContain('$setElementOrder');
  });

  it('orders finalizers by a primitive $setElementOrder list', () => {
    const live = { ...deployment({}), metadata: { name: 'x', finalizers: ['a', 'b'] } };
    const result = applyStrategicMergePatch(live, { metadata: { '$setElementOrder/finalizers': ['c', 'b', 'a'], finalizers: ['c'] } }, meta);
    expect((result.metadata as { finalizers: string[] }).finalizers).toEqual(['c', 'b', 'a']);
  });

  it('refuses a patch list whose order contradicts $setElementOrder with kube-apiserver’s bare 500', () => {
    const live = deployment({ containers: [container('a', 'x'), container('b', 'y')] });
    const patch = { spec: { template: { spec: { '$setElementOrder/containers': [{ name: 'a' }, { name: 'b' }], containers: [{ name: 'b' }, { name: 'a' }] } } } };
    const error = failure(() => applyStrategicMergePatch(live, patch, meta));
    expect([error.code, error.reason]).toEqual([500, '']);
    expect(error.message).toBe("The order in patch list:\n[map[name:b] map[name:a]]\n doesn't match $setElementOrder list:\n[map[name:a] map[name:b]]\n");
  });
});

describe('applyStrategicMergePatch: map directives and retainKeys', () => {
  it('deletes fields with null and merges nested maps', () => {
    const live = deployment({ containers: [] });
    const result = applyStrategicMergePatch(live, { metadata: { labels: { app: null, tier: 'web' } }, spec: { paused: true, replicas: null } }, meta);
    expect(result.metadata).toEqual({ ...live.metadata, labels: { tier: 'web' } });
    expect(result.spec).toEqual({ ...(({ replicas: _r, ...rest }) => rest)(live.spec), paused: true });
  });

  it('replaces a map with $patch: replace', () => {
    const live = deployment({ containers: [], nodeSelector: { a: '1', b: '2' } });
    const result = applyStrategicMergePatch(live, { spec: { template: { spec: { nodeSelector: { $patch: 'replace', c: '3' } } } } }, meta);
    expect(podSpecOf(result).nodeSelector).toEqual({ c: '3' });
  });

  it('removes a map with $patch: delete', () => {
    const live = deployment({ containers: [], securityContext: { runAsNonRoot: true } });
    const result = applyStrategicMergePatch(live, { spec: { template: { spec: { securityContext: { $patch: 'delete' } } } } }, meta);
    expect(podSpecOf(result)).not.toHaveProperty('securityContext');
  });

  it('reads $patch: merge as the default merge', () => {
    const live = deployment({ containers: [container('a', 'x')] });
    const result = applyStrategicMergePatch(live, { metadata: { $patch: 'merge', labels: { extra: 'y' } } }, meta);
    expect(result.metadata).toEqual({ ...live.metadata, labels: { app: 'nginx', extra: 'y' } });
  });

  it('drops the other strategy keys with $retainKeys (kubectl patch docs, Recreate)', () => {
    const live = deployment({ containers: [] }, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '30%' } } });
    const result = applyStrategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, meta);
    expect((result.spec as { strategy: unknown }).strategy).toEqual({ type: 'Recreate' });
  });

  it('swaps a volume source with $retainKeys on the volume item', () => {
    const live = deployment({ containers: [], volumes: [{ name: 'foo', emptyDir: { medium: '' } }, { name: 'bar', emptyDir: {} }] });
    const patch = { spec: { template: { spec: { volumes: [{ name: 'foo', hostPath: { path: '/tmp' }, $retainKeys: ['name', 'hostPath'] }] } } } };
    expect(podSpecOf(applyStrategicMergePatch(live, patch, meta)).volumes).toEqual([{ name: 'foo', hostPath: { path: '/tmp' } }, { name: 'bar', emptyDir: {} }]);
  });

  it('refuses a patch setting a key missing from $retainKeys with 400', () => {
    const live = deployment({ containers: [] });
    const error = failure(() => applyStrategicMergePatch(live, { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: {} } } }, meta));
    expect([error.code, error.reason, error.message]).toEqual([400, 'BadRequest', 'invalid patch format of retainKeys']);
  });
});

describe('applyStrategicMergePatch: new subtrees, errors and purity', () => {
  it('resolves directives inside values the live object does not have yet', () => {
    const live = deployment({ containers: [container('a', 'x')] });
    const patch = {
      spec: {
        template: {
          spec: {
            '$setElementOrder/initContainers': [{ name: 'i2' }, { name: 'i1' }],
            initContainers: [{ name: 'i2', image: 'two' }, { name: 'i1', image: 'one', env: [{ name: 'E', value: null }] }, { name: 'gone', $patch: 'delete' }],
            affinity: { $patch: 'replace', nodeAffinity: { weight: null } },
          },
        },
      },
    };
    const spec = podSpecOf(applyStrategicMergePatch(live, patch, meta));
    expect(spec.initContainers).toEqual([{ name: 'i2', image: 'two' }, { name: 'i1', image: 'one', env: [{ name: 'E' }] }]);
    expect(spec.affinity).toEqual({ nodeAffinity: {} });
    expect(JSON.stringify(spec)).not.toMatch(/\$patch|\$setElementOrder/);
  });

  it('answers a list item without its merge key with the bare 500 kube-apiserver gives', () => {
    const live = deployment({ containers: [container('a', 'x')] });
    const error = failure(() => applyStrategicMergePatch(live, { spec: { template: { spec: { containers: [{ image: 'nginx' }] } } } }, meta));
    expect([error.code, error.message]).toEqual([500, 'map: map[image:nginx] does not contain declared merge key: name']);
  });

  it('answers an unknown $patch value with 500', () => {
    const error = failure(() => applyStrategicMergePatch(deployment({}), { metadata: { $patch: 'frob' } }, meta));
    expect([error.code, error.message]).toEqual([500, 'unknown patch type: frob in map: map[$patch:frob]']);
  });

  it('refuses lists of lists with 422', () => {
    const live = { ...deployment({}), metadata: { name: 'x', finalizers: ['a'] } };
    expect(failure(() => applyStrategicMergePatch(live, { metadata: { finalizers: [['b']] } }, meta)).code).toBe(422);
  });

  it('answers a patch that is not a JSON object with 400', () => {
    const error = failure(() => applyStrategicMergePatch(deployment({}), [], meta));
    expect([error.code, error.message]).toEqual([400, 'json: cannot unmarshal array into Go value of type map[string]interface {}']);
  });

  it('returns an empty object for a root $patch: delete', () => {
    expect(applyStrategicMergePatch(deployment({}), { $patch: 'delete' }, meta)).toEqual({});
  });

  it('mutates neither input and shares no structure with them', () => {
    const live = deployment({ containers: [container('a', 'x'), container('b', 'y')] });
    const patch = { spec: { template: { spec: { containers: [{ name: 'a', image: 'z', env: [{ name: 'N', value: 'v' }] }] } } } };
    const before = structuredClone({ live, patch });
    const result = applyStrategicMergePatch(live, patch, meta);
    expect({ live, patch }).toEqual(before);
    const containers = podSpecOf(result).containers as Array<{ name: string; env?: unknown[] }>;
    containers[1]!.name = 'changed';
    containers[0]!.env!.push('x');
    expect({ live, patch }).toEqual(before);
  });
});
