import { describe, expect, it } from 'vitest';
import { BUILTIN_KEYS, BUILTIN_KINDS, BUILTIN_RESOLVER, builtinKeyOf, isBuiltinObject, keyFromLegacy, KindResolver, kindNameOf, LEGACY_KIND_KEYS } from '../../../shared/builtin-kinds.ts';
import { KindKeySchema, WATCHED_KINDS } from '../../../shared/cluster.ts';
import { kindKey } from '../../../shared/kinds.ts';

describe('built-in kinds', () => {
  it('writes out each built-in key as kindKey computes it from the kind’s group and plural', () => {
    for (const builtin of Object.values(BUILTIN_KINDS)) {
      expect(builtin.key).toBe(kindKey(builtin.ref));
      expect(KindKeySchema.safeParse(builtin.key).success).toBe(true);
    }
    expect(BUILTIN_KEYS.Deployment).toBe('deployments.apps');
    expect(BUILTIN_KEYS.HorizontalPodAutoscaler).toBe('horizontalpodautoscalers.autoscaling');
  });

  it('watches the same twelve kinds as the enum did, in its order', () => {
    expect(WATCHED_KINDS.map(kindNameOf)).toEqual(['Namespace', 'Node', 'Pod', 'Service', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'HorizontalPodAutoscaler', 'Event']);
  });

  it('refuses a kind name or an apiVersion as a kind key', () => {
    expect(KindKeySchema.safeParse('Deployment').success).toBe(false);
    expect(KindKeySchema.safeParse('apps/v1').success).toBe(false);
    expect(KindKeySchema.safeParse('certificates.cert-manager.io').success).toBe(true);
  });

  it('reads the old enum names as keys and leaves keys as they are', () => {
    expect(Object.keys(LEGACY_KIND_KEYS)).toHaveLength(12);
    expect(keyFromLegacy('ReplicaSet')).toBe('replicasets.apps');
    expect(keyFromLegacy('replicasets.apps')).toBe('replicasets.apps');
    expect(keyFromLegacy('certificates.cert-manager.io')).toBe('certificates.cert-manager.io');
  });
});

describe('kind resolver', () => {
  it('finds a key by group and kind, whatever the version, and files both Event APIs under events', () => {
    expect(BUILTIN_RESOLVER.keyOf('apps/v1', 'Deployment')).toBe('deployments.apps');
    expect(BUILTIN_RESOLVER.keyOf('batch/v1beta1', 'CronJob')).toBe('cronjobs.batch');
    expect(BUILTIN_RESOLVER.keyOf('v1', 'Event')).toBe('events');
    expect(BUILTIN_RESOLVER.keyOf('events.k8s.io/v1', 'Event')).toBe('events');
  });

  it('does not take a custom Job for a batch Job, nor a kind in the wrong group', () => {
    expect(BUILTIN_RESOLVER.keyOf('example.com/v1', 'Job')).toBeUndefined();
    expect(BUILTIN_RESOLVER.keyOf('apps/v1', 'HorizontalPodAutoscaler')).toBeUndefined();
    expect(BUILTIN_RESOLVER.keyOf('not/an/apiVersion', 'Job')).toBeUndefined();
    expect(isBuiltinObject({ apiVersion: 'example.com/v1', kind: 'Job' }, BUILTIN_KEYS.Job)).toBe(false);
    expect(isBuiltinObject({ apiVersion: 'batch/v1', kind: 'Job' }, BUILTIN_KEYS.Job)).toBe(true);
    expect(() => builtinKeyOf({ apiVersion: 'example.com/v1', kind: 'Job' })).toThrow('example.com/v1 Job is not a built-in kind');
  });

  it('learns further kinds, such as a custom resource discovery found', () => {
    const resolver = new KindResolver();
    resolver.add('certificates.cert-manager.io', { group: 'cert-manager.io', kind: 'Certificate' });
    expect(resolver.keyOf('cert-manager.io/v1', 'Certificate')).toBe('certificates.cert-manager.io');
    expect(resolver.keyOf('apps/v1', 'Deployment')).toBe('deployments.apps');
    expect(BUILTIN_RESOLVER.keyOf('cert-manager.io/v1', 'Certificate')).toBeUndefined();
  });
});
