import { describe, expect, it } from 'vitest';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { ApiError, invalid } from '../../../../electron/engine/simcluster/errors.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { IncomingObject, KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { kubectlCreateCronJob, kubectlCreateJob, kubectlCreateService, NOW, resourceType, stored } from './fixtures.ts';

const spec = (object: KubeObject) => object['spec'] as Record<string, unknown>;

describe('applyDefaults: Job', () => {
  const jobs = resourceType('jobs.batch');

  it('on create through the store, selects its pods by the uid the store assigned, with the labels real Jobs carry', () => {
    const store = new ObjectStore({ now: () => NOW, uid: () => '9d1c6f3e-4b1a-4d5e-9f00-aa11bb22cc33' });
    const job = store.create(jobs, kubectlCreateJob(), {
      admit: (object) => {
        const defaulted = applyDefaults(jobs, object);
        const causes = validate(jobs, defaulted);
        if (causes.length > 0) throw invalid(jobs.kind, jobs.group, object.metadata.name, causes);
        return defaulted;
      },
    });
    const uid = '9d1c6f3e-4b1a-4d5e-9f00-aa11bb22cc33';
    const labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' };
    expect(job.metadata.uid).toBe(uid);
    expect(job.metadata.labels).toEqual(labels);
    expect(spec(job)).toMatchObject({
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      completions: 1,
      manualSelector: false,
      parallelism: 1,
      podReplacementPolicy: 'TerminatingOrFailed',
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
      suspend: false,
      template: { metadata: { creationTimestamp: null, labels } },
    });
    expect(store.get(jobs, 'default', 'pi')).toBe(job);
  });

  it('leaves parallelism alone and completions unset for a work-queue Job', () => {
    const incoming = kubectlCreateJob();
    spec(incoming as KubeObject)['parallelism'] = 3;
    const out = spec(applyDefaults(jobs, stored('jobs.batch', incoming)));
    expect(out['parallelism']).toBe(3);
    expect(out).not.toHaveProperty('completions');
  });

  it('does not generate a selector when the client asked for a manual one', () => {
    const incoming = kubectlCreateJob();
    Object.assign(spec(incoming as KubeObject), { manualSelector: true, selector: { matchLabels: { app: 'pi' } } });
    const out = spec(applyDefaults(jobs, stored('jobs.batch', incoming)));
    expect(out['selector']).toEqual({ matchLabels: { app: 'pi' } });
  });
});

describe('applyDefaults: CronJob, StatefulSet, DaemonSet, HPA', () => {
  it('gives `kubectl create cronjob backup` its policy defaults and a defaulted pod template, but no Job defaults', () => {
    const out = spec(applyDefaults(resourceType('cronjobs.batch'), stored('cronjobs.batch', kubectlCreateCronJob())));
    expect(out).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    const jobTemplate = out['jobTemplate'] as { spec: Record<string, unknown> };
    expect(jobTemplate.spec).not.toHaveProperty('backoffLimit');
    expect(jobTemplate.spec['template']).toMatchObject({ spec: { restartPolicy: 'OnFailure', schedulerName: 'default-scheduler', terminationGracePeriodSeconds: 30 } });
  });

  it('gives a StatefulSet OrderedReady pods, a partition-0 rolling update and Retain claim policies', () => {
    const sts = stored('statefulsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'shop' },
      spec: {
        serviceName: 'db',
        selector: { matchLabels: { app: 'db' } },
        template: { metadata: { labels: { app: 'db' } }, spec: { containers: [{ name: 'postgres', image: 'postgres:16', volumeMounts: [{ name: 'data', mountPath: '/var/lib/postgresql' }] }] } },
        volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      },
    });
    const out = spec(applyDefaults(resourceType('statefulsets.apps'), sts));
    expect(out).toMatchObject({
      podManagementPolicy: 'OrderedReady',
      replicas: 1,
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    expect(out['volumeClaimTemplates']).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'data', creationTimestamp: null },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    ]);
  });

  it('rolls a DaemonSet one node at a time without surge', () => {
    const ds = stored('daemonsets.apps', {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'node-exporter', namespace: 'monitoring' },
      spec: { selector: { matchLabels: { app: 'node-exporter' } }, template: { metadata: { labels: { app: 'node-exporter' } }, spec: { containers: [{ name: 'exporter', image: 'prom/node-exporter:v1.8.2' }] } } },
    });
    expect(spec(applyDefaults(resourceType('daemonsets.apps'), ds))).toMatchObject({
      revisionHistoryLimit: 10,
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
    });
  });

  it('gives an HPA minReplicas 1 and the 80% CPU metric, and fills a partial behavior with upstream rules', () => {
    const hpas = resourceType('horizontalpodautoscalers.autoscaling');
    const base = { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'web', namespace: 'default' } };
    const plain = spec(applyDefaults(hpas, stored('horizontalpodautoscalers.autoscaling', { ...base, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 10 } })));
    expect(plain['minReplicas']).toBe(1);
    expect(plain['metrics']).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
    expect(plain).not.toHaveProperty('behavior');

    const withBehavior = spec(
      applyDefaults(hpas, stored('horizontalpodautoscalers.autoscaling', { ...base, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 10, behavior: { scaleDown: { stabilizationWindowSeconds: 60 } } } })),
    );
    expect(withBehavior['behavior']).toEqual({
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
  });
});

describe('applyDefaults: Service, Namespace, Secret', () => {
  const services = resourceType('services');

  it('gives `kubectl create service clusterip web --tcp=80:8080` its policies and IPv4 single stack, allocating nothing', () => {
    const out = spec(applyDefaults(services, stored('services', kubectlCreateService())));
    expect(out).toEqual({
      internalTrafficPolicy: 'Cluster',
      ipFamilies: ['IPv4'],
      ipFamilyPolicy: 'SingleStack',
      ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }],
      selector: { app: 'web' },
      sessionAffinity: 'None',
      type: 'ClusterIP',
    });
  });

  it('targets the service port when no targetPort is given, and sets NodePort traffic policies', () => {
    const incoming: IncomingObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'shop', namespace: 'default' }, spec: { type: 'NodePort', ports: [{ port: 443 }], selector: { app: 'shop' } } };
    const out = spec(applyDefaults(services, stored('services', incoming)));
    expect(out['ports']).toEqual([{ port: 443, protocol: 'TCP', targetPort: 443 }]);
    expect(out).toMatchObject({ externalTrafficPolicy: 'Cluster', internalTrafficPolicy: 'Cluster' });
  });

  it('makes a headless Service without selector RequireDualStack and mirrors clusterIP into clusterIPs', () => {
    const incoming: IncomingObject = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'external-db', namespace: 'default' }, spec: { clusterIP: 'None', ports: [{ port: 5432 }] } };
    expect(spec(applyDefaults(services, stored('services', incoming)))).toMatchObject({ clusterIP: 'None', clusterIPs: ['None'], ipFamilyPolicy: 'RequireDualStack' });
  });

  it('labels a Namespace with its name and starts it Active with the kubernetes finalizer', () => {
    const ns = applyDefaults(resourceType('namespaces'), stored('namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } }));
    expect(ns.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'shop' });
    expect(ns['spec']).toEqual({ finalizers: ['kubernetes'] });
    expect(ns['status']).toEqual({ phase: 'Active' });
  });

  it('types a Secret Opaque', () => {
    const secret = applyDefaults(resourceType('secrets'), stored('secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, data: { password: 'aHVudGVyMg==' } }));
    expect(secret['type']).toBe('Opaque');
  });

  it('lets an admit hook refuse a create with a 422 and nothing stored', () => {
    const store = new ObjectStore({ now: () => NOW });
    const incoming = kubectlCreateService();
    (incoming['spec'] as { type: string }).type = 'Internal';
    const create = () =>
      store.create(services, incoming, {
        admit: (object) => {
          const causes = validate(services, applyDefaults(services, object));
          if (causes.length > 0) throw invalid(services.kind, services.group, object.metadata.name, causes);
          return object;
        },
      });
    expect(create).toThrow(ApiError);
    expect(create).toThrow('Service "web" is invalid: spec.type: Unsupported value: "Internal": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"');
    expect(store.find(services, 'default', 'web')).toBeUndefined();
  });
});
