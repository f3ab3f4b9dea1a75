import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { kubectlCreateDeployment, kubectlRunPod, resourceType, stored } from './fixtures.ts';

const deployments = resourceType('deployments.apps');
const pods = resourceType('pods');

describe('applyDefaults: Deployment', () => {
  it('gives `kubectl create deployment web --image=nginx:1.27 --replicas=3` the spec a real cluster stores', () => {
    const out = applyDefaults(deployments, stored('deployments.apps', kubectlCreateDeployment()));
    expect(out['spec']).toEqual({
      progressDeadlineSeconds: 600,
      replicas: 3,
      revisionHistoryLimit: 10,
      selector: { matchLabels: { app: 'web' } },
      strategy: { rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' }, type: 'RollingUpdate' },
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'web' } },
        spec: {
          containers: [
            {
              image: 'nginx:1.27',
              imagePullPolicy: 'IfNotPresent',
              name: 'nginx',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          dnsPolicy: 'ClusterFirst',
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
        },
      },
    });
  });

  it('never mutates its argument and is idempotent', () => {
    const input = stored('deployments.apps', kubectlCreateDeployment());
    const before = structuredClone(input);
    const once = applyDefaults(deployments, input);
    expect(input).toEqual(before);
    expect(applyDefaults(deployments, once)).toEqual(once);
  });

  it('defaults replicas to 1 and keeps values the client chose', () => {
    const incoming = kubectlCreateDeployment();
    const spec = incoming['spec'] as Record<string, unknown>;
    delete spec['replicas'];
    spec['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } };
    spec['revisionHistoryLimit'] = 2;
    const out = applyDefaults(deployments, stored('deployments.apps', incoming))['spec'] as Record<string, unknown>;
    expect(out['replicas']).toBe(1);
    expect(out['strategy']).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
    expect(out['revisionHistoryLimit']).toBe(2);
  });

  it('gives a Recreate strategy no rollingUpdate block', () => {
    const incoming = kubectlCreateDeployment();
    (incoming['spec'] as Record<string, unknown>)['strategy'] = { type: 'Recreate' };
    const out = applyDefaults(deployments, stored('deployments.apps', incoming))['spec'] as Record<string, unknown>;
    expect(out['strategy']).toEqual({ type: 'Recreate' });
  });

  it('defaults probes, container ports and volumes inside the template', () => {
    const incoming = kubectlCreateDeployment();
    const template = (incoming['spec'] as { template: { spec: Record<string, unknown> } }).template;
    template.spec = {
      containers: [
        {
          name: 'app',
          image: 'ghcr.io/acme/app:2.1',
          ports: [{ containerPort: 8080 }],
          readinessProbe: { httpGet: { port: 8080 } },
          env: [{ name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
          volumeMounts: [{ name: 'config', mountPath: '/etc/app' }],
        },
      ],
      volumes: [{ name: 'config', configMap: { name: 'app' } }, { name: 'scratch' }],
    };
    const spec = (applyDefaults(deployments, stored('deployments.apps', incoming))['spec'] as { template: { spec: Record<string, unknown> } }).template.spec;
    const [container] = spec['containers'] as Array<Record<string, unknown>>;
    expect(container?.['ports']).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(container?.['readinessProbe']).toEqual({ httpGet: { path: '/', port: 8080, scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(container?.['env']).toEqual([{ name: 'POD_IP', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'status.podIP' } } }]);
    expect(spec['volumes']).toEqual([
      { name: 'config', configMap: { name: 'app', defaultMode: 420 } },
      { name: 'scratch', emptyDir: {} },
    ]);
  });
});

describe('applyDefaults: imagePullPolicy from the image tag', () => {
  it.each([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.27', 'IfNotPresent'],
    ['localhost:5000/shop/cart', 'Always'],
    ['registry.example.com:5000/shop/cart:v3', 'IfNotPresent'],
    ['nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31', 'IfNotPresent'],
    ['Nginx', 'IfNotPresent'],
  ])('%s pulls %s', (image, policy) => {
    const incoming = kubectlRunPod();
    (incoming['spec'] as { containers: Array<{ image: string }> }).containers[0]!.image = image;
    const out = applyDefaults(pods, stored('pods', incoming));
    expect((out['spec'] as { containers: Array<{ imagePullPolicy: string }> }).containers[0]?.imagePullPolicy).toBe(policy);
  });
});

describe('applyDefaults: Pod', () => {
  it('gives `kubectl run web-1 --image=nginx` the admission defaults and Pending status', () => {
    const out = applyDefaults(pods, stored('pods', kubectlRunPod()));
    expect(out['spec']).toEqual({
      containers: [
        {
          image: 'nginx',
          imagePullPolicy: 'Always',
          name: 'web-1',
          resources: {},
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
        },
      ],
      dnsPolicy: 'ClusterFirst',
      enableServiceLinks: true,
      preemptionPolicy: 'PreemptLowerPriority',
      priority: 0,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: 'default',
      serviceAccountName: 'default',
      terminationGracePeriodSeconds: 30,
      tolerations: [
        { effect: 'NoExecute', key: 'node.kubernetes.io/not-ready', operator: 'Exists', tolerationSeconds: 300 },
        { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 },
      ],
    });
    expect(out['status']).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('copies limits into missing requests and classes the pod Guaranteed', () => {
    const incoming = kubectlRunPod();
    (incoming['spec'] as { containers: Array<Record<string, unknown>> }).containers[0]!['resources'] = { limits: { cpu: '500m', memory: '128Mi' } };
    const out = applyDefaults(pods, stored('pods', incoming));
    const spec = out['spec'] as { containers: Array<{ resources: unknown }> };
    expect(spec.containers[0]?.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '500m', memory: '128Mi' } });
    expect((out['status'] as { qosClass: string }).qosClass).toBe('Guaranteed');
  });

  it('compares quantities by amount: requests of 0.1 cpu equal limits of 100m (Guaranteed)', () => {
    const incoming = kubectlRunPod();
    (incoming['spec'] as { containers: Array<Record<string, unknown>> }).containers[0]!['resources'] = { requests: { cpu: '0.1' }, limits: { cpu: '100m', memory: '1Gi' } };
    expect((applyDefaults(pods, stored('pods', incoming))['status'] as { qosClass: string }).qosClass).toBe('Guaranteed');
  });

  it('classes a pod with requests below its limits Burstable', () => {
    const incoming = kubectlRunPod();
    (incoming['spec'] as { containers: Array<Record<string, unknown>> }).containers[0]!['resources'] = { requests: { cpu: '50m' }, limits: { cpu: '100m', memory: '1Gi' } };
    expect((applyDefaults(pods, stored('pods', incoming))['status'] as { qosClass: string }).qosClass).toBe('Burstable');
  });

  it('keeps a toleration the client already has for an unreachable node', () => {
    const incoming = kubectlRunPod();
    (incoming['spec'] as Record<string, unknown>)['tolerations'] = [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }];
    const tolerations = (applyDefaults(pods, stored('pods', incoming))['spec'] as { tolerations: unknown[] }).tolerations;
    expect(tolerations).toEqual([
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 },
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
  });

  it('leaves the status a kubelet reported alone', () => {
    const pod = stored('pods', kubectlRunPod());
    pod['status'] = { phase: 'Running', qosClass: 'BestEffort', podIP: '10.244.1.7' };
    expect(applyDefaults(pods, pod)['status']).toEqual({ phase: 'Running', qosClass: 'BestEffort', podIP: '10.244.1.7' });
  });
});
