/**
 * Discovery documents in the shapes a 1.30 kube-apiserver serves (trimmed to the resources the
 * tests need, fields as on the wire): aggregated v2 for `/api` and `/apis` with cert-manager's
 * CRDs, a CRD group serving two versions, and metrics-server's APIService down (Stale); and the
 * legacy APIVersions / APIGroupList / APIResourceList of the same cluster.
 */

const CRUD = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const SUB = ['get', 'patch', 'update'];

const statusOf = (kind: string) => ({ subresource: 'status', responseKind: { group: '', version: '', kind }, verbs: SUB });
const scale = { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: SUB };

function aggregated(resource: string, kind: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { resource, responseKind: { group: '', version: '', kind }, scope: 'Namespaced', singularResource: kind.toLowerCase(), verbs: CRUD, ...extra };
}

export const AGGREGATED_API = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            aggregated('bindings', 'Binding', { verbs: ['create'] }),
            aggregated('componentstatuses', 'ComponentStatus', { scope: 'Cluster', verbs: ['get', 'list'], shortNames: ['cs'] }),
            aggregated('configmaps', 'ConfigMap', { shortNames: ['cm'] }),
            aggregated('endpoints', 'Endpoints', { shortNames: ['ep'] }),
            aggregated('events', 'Event', { shortNames: ['ev'] }),
            aggregated('namespaces', 'Namespace', { scope: 'Cluster', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ns'], subresources: [{ subresource: 'finalize', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['update'] }, statusOf('Namespace')] }),
            aggregated('nodes', 'Node', { scope: 'Cluster', shortNames: ['no'], subresources: [{ subresource: 'proxy', responseKind: { group: '', version: '', kind: 'NodeProxyOptions' }, verbs: ['create', 'delete', 'get', 'patch', 'update'] }, statusOf('Node')] }),
            aggregated('persistentvolumeclaims', 'PersistentVolumeClaim', { shortNames: ['pvc'], subresources: [statusOf('PersistentVolumeClaim')] }),
            aggregated('pods', 'Pod', { shortNames: ['po'], categories: ['all'], subresources: [{ subresource: 'log', responseKind: { group: '', version: '', kind: 'Pod' }, verbs: ['get'] }, statusOf('Pod')] }),
            aggregated('secrets', 'Secret'),
            aggregated('serviceaccounts', 'ServiceAccount', { shortNames: ['sa'], subresources: [{ subresource: 'token', responseKind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] }] }),
            aggregated('services', 'Service', { shortNames: ['svc'], categories: ['all'], subresources: [statusOf('Service')] }),
          ],
          freshness: 'Current',
        },
      ],
    },
  ],
};

export const AGGREGATED_APIS = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { name: 'apps', creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            aggregated('controllerrevisions', 'ControllerRevision'),
            aggregated('daemonsets', 'DaemonSet', { shortNames: ['ds'], categories: ['all'], subresources: [statusOf('DaemonSet')] }),
            aggregated('deployments', 'Deployment', { shortNames: ['deploy'], categories: ['all'], subresources: [scale, statusOf('Deployment')] }),
            aggregated('replicasets', 'ReplicaSet', { shortNames: ['rs'], categories: ['all'], subresources: [scale, statusOf('ReplicaSet')] }),
            aggregated('statefulsets', 'StatefulSet', { shortNames: ['sts'], categories: ['all'], subresources: [scale, statusOf('StatefulSet')] }),
          ],
          freshness: 'Current',
        },
      ],
    },
    {
      metadata: { name: 'authorization.k8s.io', creationTimestamp: null },
      versions: [{ version: 'v1', resources: [aggregated('subjectaccessreviews', 'SubjectAccessReview', { scope: 'Cluster', verbs: ['create'] })], freshness: 'Current' }],
    },
    {
      metadata: { name: 'autoscaling', creationTimestamp: null },
      versions: [
        { version: 'v2', resources: [aggregated('horizontalpodautoscalers', 'HorizontalPodAutoscaler', { shortNames: ['hpa'], categories: ['all'], subresources: [statusOf('HorizontalPodAutoscaler')] })], freshness: 'Current' },
        { version: 'v1', resources: [aggregated('horizontalpodautoscalers', 'HorizontalPodAutoscaler', { shortNames: ['hpa'], categories: ['all'], subresources: [statusOf('HorizontalPodAutoscaler')] })], freshness: 'Current' },
      ],
    },
    {
      metadata: { name: 'batch', creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            aggregated('cronjobs', 'CronJob', { shortNames: ['cj'], categories: ['all'], subresources: [statusOf('CronJob')] }),
            aggregated('jobs', 'Job', { categories: ['all'], subresources: [statusOf('Job')] }),
          ],
          freshness: 'Current',
        },
      ],
    },
    {
      metadata: { name: 'coordination.k8s.io', creationTimestamp: null },
      versions: [{ version: 'v1', resources: [aggregated('leases', 'Lease')], freshness: 'Current' }],
    },
    {
      metadata: { name: 'discovery.k8s.io', creationTimestamp: null },
      versions: [{ version: 'v1', resources: [aggregated('endpointslices', 'EndpointSlice')], freshness: 'Current' }],
    },
    {
      metadata: { name: 'events.k8s.io', creationTimestamp: null },
      versions: [{ version: 'v1', resources: [aggregated('events', 'Event', { shortNames: ['ev'] })], freshness: 'Current' }],
    },
    {
      metadata: { name: 'cert-manager.io', creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            aggregated('certificates', 'Certificate', { shortNames: ['cert', 'certs'], categories: ['cert-manager'], subresources: [statusOf('Certificate')] }),
            aggregated('issuers', 'Issuer', { categories: ['cert-manager'], subresources: [statusOf('Issuer')] }),
          ],
          freshness: 'Current',
        },
      ],
    },
    {
      // A CRD serving v2 (storage, listed first: preferred) and v1; gadgets exist only in v1.
      metadata: { name: 'example.com', creationTimestamp: null },
      versions: [
        { version: 'v2', resources: [aggregated('widgets', 'Widget', { subresources: [statusOf('Widget'), scale] })], freshness: 'Current' },
        { version: 'v1', resources: [aggregated('widgets', 'Widget', { subresources: [statusOf('Widget')] }), aggregated('gadgets', 'Gadget', { scope: 'Cluster' })], freshness: 'Current' },
      ],
    },
    {
      // metrics-server down: kube-aggregator keeps the entry and marks it Stale.
      metadata: { name: 'metrics.k8s.io', creationTimestamp: null },
      versions: [
        {
          version: 'v1beta1',
          resources: [aggregated('nodes', 'NodeMetrics', { scope: 'Cluster', verbs: ['get', 'list'] }), aggregated('pods', 'PodMetrics', { verbs: ['get', 'list'] })],
          freshness: 'Stale',
        },
      ],
    },
  ],
};

/** kube-aggregator's answer for an APIService whose backend is down. */
export const SERVICE_UNAVAILABLE = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server is currently unable to handle the request',
  reason: 'ServiceUnavailable',
  details: { causes: [{ reason: 'UnexpectedServerResponse', message: 'service unavailable' }] },
  code: 503,
};

function legacy(name: string, kind: string, namespaced: boolean, verbs = CRUD, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, singularName: name.includes('/') ? '' : kind.toLowerCase(), namespaced, kind, verbs, ...extra };
}

/** The same cluster as the legacy documents an older client (or server) uses. */
export const LEGACY: Readonly<Record<string, object>> = {
  '/api': { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '172.18.0.2:6443' }] },
  '/apis': {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      { name: 'apps', versions: [{ groupVersion: 'apps/v1', version: 'v1' }], preferredVersion: { groupVersion: 'apps/v1', version: 'v1' } },
      {
        name: 'autoscaling',
        versions: [
          { groupVersion: 'autoscaling/v2', version: 'v2' },
          { groupVersion: 'autoscaling/v1', version: 'v1' },
        ],
        preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
      },
      {
        // Preferred version listed second: the preference comes from preferredVersion.
        name: 'example.com',
        versions: [
          { groupVersion: 'example.com/v1', version: 'v1' },
          { groupVersion: 'example.com/v2', version: 'v2' },
        ],
        preferredVersion: { groupVersion: 'example.com/v2', version: 'v2' },
      },
      { name: 'metrics.k8s.io', versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }], preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' } },
    ],
  },
  '/api/v1': {
    kind: 'APIResourceList',
    groupVersion: 'v1',
    resources: [
      legacy('configmaps', 'ConfigMap', true, CRUD, { shortNames: ['cm'] }),
      legacy('events', 'Event', true, CRUD, { shortNames: ['ev'] }),
      legacy('nodes', 'Node', false, CRUD, { shortNames: ['no'] }),
      legacy('nodes/status', 'Node', false, SUB),
      legacy('pods', 'Pod', true, CRUD, { shortNames: ['po'], categories: ['all'] }),
      legacy('pods/log', 'Pod', true, ['get']),
      legacy('pods/status', 'Pod', true, SUB),
      legacy('secrets', 'Secret', true),
    ],
  },
  '/apis/apps/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'apps/v1',
    resources: [
      legacy('deployments', 'Deployment', true, CRUD, { shortNames: ['deploy'], categories: ['all'] }),
      legacy('deployments/scale', 'Scale', true, SUB, { group: 'autoscaling', version: 'v1' }),
      legacy('deployments/status', 'Deployment', true, SUB),
    ],
  },
  '/apis/autoscaling/v2': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'autoscaling/v2',
    resources: [legacy('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, CRUD, { shortNames: ['hpa'] }), legacy('horizontalpodautoscalers/status', 'HorizontalPodAutoscaler', true, SUB)],
  },
  '/apis/autoscaling/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'autoscaling/v1',
    resources: [legacy('horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, CRUD, { shortNames: ['hpa'] }), legacy('horizontalpodautoscalers/status', 'HorizontalPodAutoscaler', true, SUB)],
  },
  '/apis/example.com/v1': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'example.com/v1',
    resources: [legacy('gadgets', 'Gadget', false), legacy('widgets', 'Widget', true), legacy('widgets/status', 'Widget', true, SUB)],
  },
  '/apis/example.com/v2': {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'example.com/v2',
    resources: [legacy('widgets', 'Widget', true), legacy('widgets/scale', 'Scale', true, SUB, { group: 'autoscaling', version: 'v1' }), legacy('widgets/status', 'Widget', true, SUB)],
  },
};
