import { describe, expect, it } from 'vitest';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { toTable } from '../../../../electron/engine/simcluster/tables/index.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const NOW = Date.parse('2025-03-01T12:00:00Z');
const ago = (seconds: number) => new Date(NOW - seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function object(kind: string, apiVersion: string, name: string, body: Record<string, unknown>): KubeObject {
  return { apiVersion, kind, metadata: { name, namespace: 'shop', uid: `uid-${name}`, resourceVersion: '4242', creationTimestamp: ago(2 * 24 * 3600 + 5 * 3600) }, ...body };
}

function cells(id: string, obj: KubeObject) {
  return toTable(typeById(id)!, [obj], { now: NOW }).rows[0]!.cells;
}

const template = {
  metadata: { labels: { app: 'web' } },
  spec: {
    containers: [
      { name: 'nginx', image: 'nginx:1.27' },
      { name: 'metrics', image: 'nginx/nginx-prometheus-exporter:1.3' },
    ],
  },
};

describe('workload rows', () => {
  it('prints a Deployment mid-rollout: READY 2/3, UP-TO-DATE, AVAILABLE, and the wide columns', () => {
    const deployment = object('Deployment', 'apps/v1', 'web', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['frontend', 'edge'] }] }, template },
      status: { replicas: 4, updatedReplicas: 2, readyReplicas: 2, availableReplicas: 2, unavailableReplicas: 2 },
    });
    expect(cells('deployments.apps', deployment)).toEqual(['web', '2/3', 2, 2, '2d5h', 'nginx,metrics', 'nginx:1.27,nginx/nginx-prometheus-exporter:1.3', 'app=web,tier in (edge,frontend)']);
  });

  it('prints a new Deployment without status as 0/3', () => {
    expect(cells('deployments.apps', object('Deployment', 'apps/v1', 'web', { spec: { replicas: 3, selector: { matchLabels: { app: 'web' } }, template } })).slice(1, 4)).toEqual(['0/3', 0, 0]);
  });

  it('prints ReplicaSet DESIRED/CURRENT/READY as integers and its selector', () => {
    const rs = object('ReplicaSet', 'apps/v1', 'web-7d4b9c8f5', {
      spec: { replicas: 3, selector: { matchLabels: { app: 'web', 'pod-template-hash': '7d4b9c8f5' } }, template },
      status: { replicas: 3, readyReplicas: 1 },
    });
    expect(cells('replicasets.apps', rs)).toEqual(['web-7d4b9c8f5', 3, 3, 1, '2d5h', 'nginx,metrics', 'nginx:1.27,nginx/nginx-prometheus-exporter:1.3', 'app=web,pod-template-hash=7d4b9c8f5']);
  });

  it('prints a StatefulSet READY ready/desired', () => {
    const sts = object('StatefulSet', 'apps/v1', 'db', { spec: { replicas: 3, selector: { matchLabels: { app: 'db' } }, template }, status: { replicas: 3, readyReplicas: 2 } });
    expect(cells('statefulsets.apps', sts)).toEqual(['db', '2/3', '2d5h', 'nginx,metrics', 'nginx:1.27,nginx/nginx-prometheus-exporter:1.3']);
  });

  it('prints a DaemonSet with its node selector, "<none>" when it has none', () => {
    const ds = (nodeSelector?: Record<string, string>) =>
      object('DaemonSet', 'apps/v1', 'node-exporter', {
        spec: { selector: { matchLabels: { app: 'node-exporter' } }, template: { ...template, spec: { ...template.spec, nodeSelector } } },
        status: { desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2 },
      });
    expect(cells('daemonsets.apps', ds({ 'kubernetes.io/os': 'linux' })).slice(0, 8)).toEqual(['node-exporter', 3, 3, 2, 3, 2, 'kubernetes.io/os=linux', '2d5h']);
    expect(cells('daemonsets.apps', ds())[6]).toBe('<none>');
  });
});

describe('Job and CronJob rows', () => {
  const job = (spec: Record<string, unknown>, status: Record<string, unknown>, metadata: Record<string, unknown> = {}) => {
    const j = object('Job', 'batch/v1', 'pi', { spec: { selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'abc' } }, template, ...spec }, status });
    Object.assign(j.metadata, metadata);
    return j;
  };

  it('prints a finished Job: Complete, 1/1, the run time', () => {
    const done = job({ completions: 1, parallelism: 1 }, { succeeded: 1, startTime: ago(300), completionTime: ago(262), conditions: [{ type: 'Complete', status: 'True' }] });
    expect(cells('jobs.batch', done)).toEqual(['pi', 'Complete', '1/1', '38s', '2d5h', 'nginx,metrics', 'nginx:1.27,nginx/nginx-prometheus-exporter:1.3', 'batch.kubernetes.io/controller-uid=abc']);
  });

  it('prints a running Job with the time since it started', () => {
    expect(cells('jobs.batch', job({ completions: 5 }, { active: 2, succeeded: 3, startTime: ago(200) })).slice(1, 4)).toEqual(['Running', '3/5', '3m20s']);
  });

  it('prints a work queue Job as n/1 of parallelism', () => {
    expect(cells('jobs.batch', job({ parallelism: 3 }, { succeeded: 0 })).slice(1, 4)).toEqual(['Running', '0/1 of 3', '']);
  });

  it('prints Failed, Suspended and Terminating from conditions and deletion', () => {
    expect(cells('jobs.batch', job({ completions: 1 }, { conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded' }] }))[1]).toBe('Failed');
    expect(cells('jobs.batch', job({ completions: 1 }, { conditions: [{ type: 'Suspended', status: 'True' }] }))[1]).toBe('Suspended');
    expect(cells('jobs.batch', job({ completions: 1 }, {}, { deletionTimestamp: ago(1) }))[1]).toBe('Terminating');
  });

  it('prints a CronJob: schedule, <none> time zone, suspend, active count, last schedule', () => {
    const cj = object('CronJob', 'batch/v1', 'backup', {
      spec: { schedule: '*/5 * * * *', suspend: false, jobTemplate: { spec: { template } } },
      status: { active: [{ kind: 'Job', name: 'backup-29012345' }], lastScheduleTime: ago(75) },
    });
    expect(cells('cronjobs.batch', cj)).toEqual(['backup', '*/5 * * * *', '<none>', 'False', 1, '75s', '2d5h', 'nginx,metrics', 'nginx:1.27,nginx/nginx-prometheus-exporter:1.3', '<none>']);
    const zoned = object('CronJob', 'batch/v1', 'report', { spec: { schedule: '0 6 * * *', timeZone: 'Europe/Berlin', suspend: true, jobTemplate: { spec: { template } } }, status: {} });
    expect(cells('cronjobs.batch', zoned).slice(1, 6)).toEqual(['0 6 * * *', 'Europe/Berlin', 'True', 0, '<none>']);
  });
});

describe('HorizontalPodAutoscaler rows', () => {
  const hpa = (metrics: unknown[], currentMetrics?: unknown[]) =>
    object('HorizontalPodAutoscaler', 'autoscaling/v2', 'web', {
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, minReplicas: 2, maxReplicas: 10, metrics },
      status: { currentReplicas: 3, desiredReplicas: 3, ...(currentMetrics ? { currentMetrics } : {}) },
    });
  const cpu80 = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };

  it('prints the reference and "cpu: 45%/80%" targets', () => {
    const row = cells('horizontalpodautoscalers.autoscaling', hpa([cpu80], [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 45, averageValue: '90m' } } }]));
    expect(row).toEqual(['web', 'Deployment/web', 'cpu: 45%/80%', '2', 10, 3, '2d5h']);
  });

  it('prints <unknown> until metrics arrive, and at most two metrics', () => {
    expect(cells('horizontalpodautoscalers.autoscaling', hpa([cpu80]))[2]).toBe('cpu: <unknown>/80%');
    const memory = { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '512Mi' } } };
    const rps = { type: 'Pods', pods: { metric: { name: 'http_requests' }, target: { type: 'AverageValue', averageValue: '100' } } };
    expect(cells('horizontalpodautoscalers.autoscaling', hpa([cpu80, memory, rps]))[2]).toBe('cpu: <unknown>/80%, memory: <unknown>/512Mi + 1 more...');
  });
});
