/**
 * Request bodies exactly as the real kubectl sends them (captured with kubectl 1.32
 * `--dry-run=client -o json`; `kubectl run` as it builds its Pod), and a store-created copy.
 */
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import type { ContainerShape, PodSpecShape } from '../../../../electron/engine/simcluster/defaults/shapes.ts';
import type { StatusCause } from '../../../../electron/engine/simcluster/errors.ts';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { IncomingObject, KubeObject } from '../../../../electron/engine/simcluster/types.ts';

export const NOW = Date.parse('2025-03-01T12:00:00Z');

/** `kubectl create deployment web --image=nginx:1.27 --replicas=3` */
export const kubectlCreateDeployment = (): IncomingObject => ({
  kind: 'Deployment',
  apiVersion: 'apps/v1',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { creationTimestamp: null, labels: { app: 'web' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: {} }] },
    },
    strategy: {},
  },
  status: {},
});

/** `kubectl run web-1 --image=nginx` */
export const kubectlRunPod = (): IncomingObject => ({
  kind: 'Pod',
  apiVersion: 'v1',
  metadata: { name: 'web-1', namespace: 'default', labels: { run: 'web-1' } },
  spec: { containers: [{ name: 'web-1', image: 'nginx', resources: {} }], restartPolicy: 'Always', dnsPolicy: 'ClusterFirst' },
  status: {},
});

/** `kubectl create job pi --image=perl:5.34 -- perl -Mbignum=bpi -wle 'print bpi(2000)'` */
export const kubectlCreateJob = (): IncomingObject => ({
  kind: 'Job',
  apiVersion: 'batch/v1',
  metadata: { name: 'pi', namespace: 'default' },
  spec: {
    template: {
      metadata: { creationTimestamp: null },
      spec: {
        containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(2000)'], resources: {} }],
        restartPolicy: 'Never',
      },
    },
  },
  status: {},
});

/** `kubectl create cronjob backup --image=busybox:1.36 --schedule='*\/5 * * * *' -- /bin/sh -c date` */
export const kubectlCreateCronJob = (): IncomingObject => ({
  kind: 'CronJob',
  apiVersion: 'batch/v1',
  metadata: { name: 'backup', namespace: 'default' },
  spec: {
    schedule: '*/5 * * * *',
    jobTemplate: {
      metadata: { name: 'backup', creationTimestamp: null },
      spec: {
        template: {
          metadata: { creationTimestamp: null },
          spec: { containers: [{ name: 'backup', image: 'busybox:1.36', command: ['/bin/sh', '-c', 'date'], resources: {} }], restartPolicy: 'OnFailure' },
        },
      },
    },
  },
  status: {},
});

/** `kubectl create service clusterip web --tcp=80:8080` */
export const kubectlCreateService = (): IncomingObject => ({
  kind: 'Service',
  apiVersion: 'v1',
  metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
  spec: { ports: [{ name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 }], selector: { app: 'web' }, type: 'ClusterIP' },
  status: { loadBalancer: {} },
});

export function resourceType(id: string): ResourceType {
  const type = typeById(id);
  if (!type) throw new Error(`no type ${id}`);
  return type;
}

/** The object as the store would hold it, without defaulting: uid, rv and timestamps set. */
export function stored(id: string, incoming: IncomingObject): KubeObject {
  const store = new ObjectStore({ now: () => NOW, uid: () => '6a6f5b7e-1c2d-4e5f-8a9b-0c1d2e3f4a5b' });
  return store.create(resourceType(id), incoming, { dryRun: true });
}

/** Defaults then validates, as the server does on create (and on update, given the old object). */
export function check(id: string, incoming: IncomingObject, old?: KubeObject): StatusCause[] {
  const type = resourceType(id);
  return validate(type, applyDefaults(type, stored(id, incoming)), old);
}

/** A pod spec whose first container the fixtures always have. */
export type FixturePodSpec = PodSpecShape & { containers: [ContainerShape, ...ContainerShape[]] };
export type FixtureTemplate = { metadata: { labels?: Record<string, string> }; spec: FixturePodSpec };

export const podSpec = (object: IncomingObject | KubeObject) => object['spec'] as FixturePodSpec;
export const templateOf = (object: IncomingObject | KubeObject) => (object['spec'] as { template: FixtureTemplate }).template;
