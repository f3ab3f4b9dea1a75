/** Manifests as users write them, for the strict decoding tests. */
import type { IncomingObject } from '../../../../electron/engine/simcluster/types.ts';

/**
 * A Deployment using fields the simulator's hand-written OpenAPI does not describe (seccomp and
 * AppArmor profiles, DNS config, host aliases, topology spread, probes by named port, projected
 * volumes, ephemeral volume claims, lifecycle hooks, resize policy) and Quantity and
 * IntOrString values in both their number and string forms. A real apiserver accepts all of it.
 */
export function richDeployment(): IncomingObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'rich', namespace: 'default', labels: { app: 'rich', 'app.kubernetes.io/part-of': 'shop' }, annotations: { note: 'x' } },
    spec: {
      replicas: 2,
      revisionHistoryLimit: 3,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } },
      selector: { matchLabels: { app: 'rich' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db'] }] },
      template: {
        metadata: { labels: { app: 'rich' }, creationTimestamp: null },
        spec: {
          securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, supplementalGroups: [3000], seccompProfile: { type: 'RuntimeDefault' }, sysctls: [{ name: 'net.core.somaxconn', value: '1024' }] },
          dnsPolicy: 'ClusterFirst',
          dnsConfig: { nameservers: ['10.0.0.10'], searches: ['svc.cluster.local'], options: [{ name: 'ndots', value: '2' }] },
          hostAliases: [{ ip: '127.0.0.1', hostnames: ['foo.local'] }],
          topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'rich' } }, matchLabelKeys: ['pod-template-hash'] }],
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { app: 'rich' } } } }],
            },
          },
          tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'shop', effect: 'NoSchedule', tolerationSeconds: 30 }],
          terminationGracePeriodSeconds: 30,
          priorityClassName: 'high',
          enableServiceLinks: false,
          initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'true'], restartPolicy: 'Always' }],
          containers: [
            {
              name: 'app',
              image: 'shop/app:1.2.3',
              args: ['--port=8080'],
              ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
              env: [
                { name: 'MODE', value: 'prod' },
                { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
                { name: 'MEM', valueFrom: { resourceFieldRef: { resource: 'limits.memory', divisor: '1Mi' } } },
              ],
              envFrom: [{ configMapRef: { name: 'app-config', optional: true } }],
              resources: { requests: { cpu: 0.25, memory: '64Mi' }, limits: { cpu: 1, memory: '256Mi' } },
              resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
              readinessProbe: { httpGet: { path: '/healthz', port: 'http', httpHeaders: [{ name: 'X-Probe', value: '1' }] }, periodSeconds: 5 },
              livenessProbe: { tcpSocket: { port: 8080 }, failureThreshold: 3 },
              startupProbe: { grpc: { port: 9090 } },
              lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
              securityContext: {
                allowPrivilegeEscalation: false,
                readOnlyRootFilesystem: true,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'Localhost', localhostProfile: 'profiles/app.json' },
                appArmorProfile: { type: 'RuntimeDefault' },
              },
              volumeMounts: [
                { name: 'config', mountPath: '/etc/app', readOnly: true },
                { name: 'cache', mountPath: '/cache' },
                { name: 'scratch', mountPath: '/scratch' },
              ],
              terminationMessagePolicy: 'FallbackToLogsOnError',
            },
          ],
          volumes: [
            { name: 'config', projected: { sources: [{ configMap: { name: 'app-config', items: [{ key: 'a', path: 'a' }] } }, { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } }] } },
            { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '128Mi' } },
            {
              name: 'scratch',
              ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, storageClassName: 'fast' } } },
            },
          ],
        },
      },
    },
  };
}
