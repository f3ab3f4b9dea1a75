/**
 * Custom resources as their controllers write them (`kubectl get -o json`, managedFields
 * dropped): cert-manager, Argo Rollouts, Flux, Crossplane, and a database operator that follows
 * the kstatus conventions (observedGeneration, Ready / Reconciling / Stalled).
 */
import type { StatusSubject } from '../../../../shared/object-status.ts';

const T0 = '2025-05-01T10:00:00Z';
const T1 = '2025-05-01T10:04:12Z';

type Json = Record<string, unknown>;

/** An object's JSON as a test may change it. */
export interface Editable {
  metadata: { generation?: number; deletionTimestamp?: string; finalizers?: string[]; [field: string]: unknown };
  spec?: Json;
  status?: Json;
}

/** A deep copy of `object` with `change` applied, as the next version the server would send. */
export function edited<T extends StatusSubject>(object: T, change: (copy: Editable) => void): T {
  const copy = structuredClone(object);
  change(copy as unknown as Editable);
  return copy;
}

function meta(name: string, namespace: string | undefined, uid: string, generation: number, extra: Json = {}): StatusSubject['metadata'] & Json {
  return { name, ...(namespace ? { namespace } : {}), uid, resourceVersion: '88231', generation, creationTimestamp: T0, ...extra };
}

// --- cert-manager ---------------------------------------------------------------------------

const certificateSpec = { secretName: 'web-tls', dnsNames: ['shop.example.com'], issuerRef: { name: 'letsencrypt-prod', kind: 'ClusterIssuer', group: 'cert-manager.io' }, privateKey: { rotationPolicy: 'Always' } };

/** First issuance under way: cert-manager sets Issuing=True and Ready=False together. */
export const certificateIssuing: StatusSubject = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: meta('web-tls', 'shop', '0b6f4a2e-51d3-4c8a-9b1e-6a2d7c3f8e01', 1),
  spec: certificateSpec,
  status: {
    conditions: [
      { type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', lastTransitionTime: T0, observedGeneration: 1 },
      { type: 'Issuing', status: 'True', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', lastTransitionTime: T0, observedGeneration: 1 },
    ],
    nextPrivateKeySecretName: 'web-tls-7xk2p',
  },
};

export const certificateReady: StatusSubject = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: meta('web-tls', 'shop', '0b6f4a2e-51d3-4c8a-9b1e-6a2d7c3f8e01', 1),
  spec: certificateSpec,
  status: {
    conditions: [{ type: 'Ready', status: 'True', reason: 'Ready', message: 'Certificate is up to date and has not expired', lastTransitionTime: T1, observedGeneration: 1 }],
    notBefore: '2025-05-01T09:04:12Z',
    notAfter: '2025-07-30T09:04:11Z',
    renewalTime: '2025-06-30T09:04:11Z',
    revision: 1,
  },
};

/** The ACME order failed: Issuing went False with Failed, Ready stays False. */
export const certificateFailed: StatusSubject = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Certificate',
  metadata: meta('web-tls', 'shop', '0b6f4a2e-51d3-4c8a-9b1e-6a2d7c3f8e01', 1),
  spec: certificateSpec,
  status: {
    conditions: [
      { type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', lastTransitionTime: T0, observedGeneration: 1 },
      {
        type: 'Issuing',
        status: 'False',
        reason: 'Failed',
        message: 'The certificate request has failed to complete and will be retried: Failed to wait for order resource "web-tls-1-3735388414" to become ready: order is in "invalid" state: ',
        lastTransitionTime: T1,
        observedGeneration: 1,
      },
    ],
    failedIssuanceAttempts: 1,
    lastFailureTime: T1,
  },
};

export const certificateNew: StatusSubject = { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', metadata: meta('api-tls', 'shop', '1c7a5b3f-62e4-4d9b-8c2f-7b3e8d4a9f12', 1), spec: { ...certificateSpec, secretName: 'api-tls' } };

export const clusterIssuerFailed: StatusSubject = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'ClusterIssuer',
  metadata: meta('letsencrypt-prod', undefined, '2d8b6c4a-73f5-4eac-9d3a-8c4f9e5bab23', 1),
  spec: { acme: { server: 'https://acme-v02.api.letsencrypt.org/directory', email: 'ops@example.com', privateKeySecretRef: { name: 'letsencrypt-prod' }, solvers: [{ http01: { ingress: { ingressClassName: 'nginx' } } }] } },
  status: {
    acme: {},
    conditions: [
      {
        type: 'Ready',
        status: 'False',
        reason: 'ErrRegisterACMEAccount',
        message: 'Failed to register ACME account: Get "https://acme-v02.api.letsencrypt.org/directory": dial tcp: lookup acme-v02.api.letsencrypt.org: no such host',
        lastTransitionTime: T0,
        observedGeneration: 1,
      },
    ],
  },
};

export const issuerReady: StatusSubject = {
  apiVersion: 'cert-manager.io/v1',
  kind: 'Issuer',
  metadata: meta('selfsigned', 'shop', '3e9c7d5b-8406-4fbd-8e4b-9d5a0f6cbc34', 1),
  spec: { selfSigned: {} },
  status: { conditions: [{ type: 'Ready', status: 'True', reason: 'IsReady', message: '', lastTransitionTime: T0, observedGeneration: 1 }] },
};

// --- Argo Rollouts --------------------------------------------------------------------------

const rolloutSpec = {
  replicas: 5,
  selector: { matchLabels: { app: 'checkout' } },
  strategy: { canary: { steps: [{ setWeight: 20 }, { pause: {} }, { setWeight: 60 }, { pause: { duration: '10m' } }] } },
  template: { metadata: { labels: { app: 'checkout' } }, spec: { containers: [{ name: 'checkout', image: 'ghcr.io/acme/checkout:v2.4.0' }] } },
};

/** Paused at a canary step waiting for promotion (Argo Rollouts writes observedGeneration as a string). */
export const rolloutPaused: StatusSubject = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Rollout',
  metadata: meta('checkout', 'shop', '4fad8e6c-9517-40ce-9f5c-ae6b1a7dcd45', 3),
  spec: rolloutSpec,
  status: {
    observedGeneration: '3',
    phase: 'Paused',
    message: 'CanaryPauseStep',
    replicas: 5,
    updatedReplicas: 1,
    readyReplicas: 5,
    availableReplicas: 5,
    currentPodHash: '6b566f47b7',
    stableRS: '5c788f4484',
    currentStepIndex: 1,
    pauseConditions: [{ reason: 'CanaryPauseStep', startTime: T1 }],
    controllerPause: true,
    conditions: [
      { type: 'Available', status: 'True', reason: 'AvailableReason', message: 'Rollout has minimum availability', lastTransitionTime: T0, lastUpdateTime: T0 },
      { type: 'Paused', status: 'True', reason: 'RolloutPaused', message: 'Rollout is paused', lastTransitionTime: T1, lastUpdateTime: T1 },
      { type: 'Progressing', status: 'Unknown', reason: 'RolloutPaused', message: 'Rollout is paused', lastTransitionTime: T1, lastUpdateTime: T1 },
    ],
  },
};

export const rolloutDegraded = edited(rolloutPaused, (rollout) => {
  const status = rollout.status as Json;
  status.phase = 'Degraded';
  status.message = 'RolloutAborted: Rollout aborted update to revision 4: Metric "success-rate" assessed Failed due to failed (3) > failureLimit (2)';
  status.abort = true;
  delete status.pauseConditions;
  status.conditions = [{ type: 'Progressing', status: 'False', reason: 'RolloutAborted', message: 'Rollout aborted update to revision 4: Metric "success-rate" assessed Failed due to failed (3) > failureLimit (2)', lastTransitionTime: T1, lastUpdateTime: T1 }];
});

export const rolloutHealthy = edited(rolloutPaused, (rollout) => {
  const status = rollout.status as Json;
  Object.assign(status, { phase: 'Healthy', updatedReplicas: 5, stableRS: '6b566f47b7', currentStepIndex: 4 });
  delete status.message;
  delete status.pauseConditions;
  delete status.controllerPause;
  status.conditions = [
    { type: 'Available', status: 'True', reason: 'AvailableReason', message: 'Rollout has minimum availability', lastTransitionTime: T0, lastUpdateTime: T0 },
    { type: 'Healthy', status: 'True', reason: 'RolloutHealthy', message: 'Rollout is healthy', lastTransitionTime: T1, lastUpdateTime: T1 },
    { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable', message: 'Rollout "checkout" has successfully progressed.', lastTransitionTime: T1, lastUpdateTime: T1 },
  ];
});

/** Before Argo Rollouts v1.0: no phase, an InvalidSpec condition. */
export const rolloutInvalidLegacy: StatusSubject = {
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Rollout',
  metadata: meta('legacy', 'shop', '50be9f7d-a628-41df-80d7-bf7c2b8ede56', 2),
  spec: rolloutSpec,
  status: {
    observedGeneration: '2',
    conditions: [{ type: 'InvalidSpec', status: 'True', reason: 'InvalidSpec', message: 'The Rollout "legacy" is invalid: spec.strategy.canary.steps[0].setWeight: Invalid value: 120: must be between 0 and 100', lastTransitionTime: T0, lastUpdateTime: T0 }],
  },
};

export const rolloutNew: StatusSubject = { apiVersion: 'argoproj.io/v1alpha1', kind: 'Rollout', metadata: meta('fresh', 'shop', '61cfa08e-b739-42e0-91e8-c03d9c9fef67', 1), spec: rolloutSpec };

// --- Flux -----------------------------------------------------------------------------------

const kustomizationSpec = { interval: '10m', path: './apps/production', prune: true, sourceRef: { kind: 'GitRepository', name: 'flux-system' }, timeout: '5m' };

/** A reconcile under way after a new revision: Ready=Unknown and Reconciling=True, written together. */
export const kustomizationReconciling: StatusSubject = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: meta('apps', 'flux-system', '72d0b19f-c84a-43f1-a2f9-d14eadaf0078', 2, { finalizers: ['finalizers.fluxcd.io'] }),
  spec: kustomizationSpec,
  status: {
    observedGeneration: 2,
    lastAppliedRevision: 'main@sha1:2f1c3a9',
    lastAttemptedRevision: 'main@sha1:8b1d1e0',
    conditions: [
      { type: 'Reconciling', status: 'True', reason: 'Progressing', message: "Detecting drift for revision main@sha1:8b1d1e0 with a timeout of 5m0s", observedGeneration: 2, lastTransitionTime: T1 },
      { type: 'Ready', status: 'Unknown', reason: 'Progressing', message: 'Reconciliation in progress', observedGeneration: 2, lastTransitionTime: T1 },
    ],
  },
};

export const kustomizationReady = edited(kustomizationReconciling, (k) => {
  (k.status as Json).lastAppliedRevision = 'main@sha1:8b1d1e0';
  (k.status as Json).conditions = [{ type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:8b1d1e0', observedGeneration: 2, lastTransitionTime: T1 }];
});

export const kustomizationFailed = edited(kustomizationReconciling, (k) => {
  (k.status as Json).conditions = [
    { type: 'Ready', status: 'False', reason: 'BuildFailed', message: "kustomize build failed: accumulating resources: accumulation err='accumulating resources from 'ingress.yaml': open /tmp/kustomization-1/apps/production/ingress.yaml: no such file or directory'", observedGeneration: 2, lastTransitionTime: T1 },
  ];
});

export const kustomizationSuspended = edited(kustomizationFailed, (k) => {
  (k.spec as Json).suspend = true;
  k.metadata.generation = 3;
  (k.status as Json).observedGeneration = 3;
});

/** Just created: Flux starts status.observedGeneration at -1 until the first reconcile. */
export const kustomizationNew: StatusSubject = {
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: meta('infra', 'flux-system', '83e1c2a0-d95b-4402-b30a-e25fbeb01189', 1),
  spec: kustomizationSpec,
  status: { observedGeneration: -1 },
};

const helmReleaseSpec = { interval: '5m', chart: { spec: { chart: 'podinfo', version: '6.5.4', sourceRef: { kind: 'HelmRepository', name: 'podinfo' } } } };

export const helmReleaseReady: StatusSubject = {
  apiVersion: 'helm.toolkit.fluxcd.io/v2',
  kind: 'HelmRelease',
  metadata: meta('podinfo', 'apps', '94f2d3b1-ea6c-4513-84a1-f36acfc1229a', 1),
  spec: helmReleaseSpec,
  status: {
    observedGeneration: 1,
    lastAttemptedRevision: '6.5.4',
    conditions: [
      { type: 'Ready', status: 'True', reason: 'UpgradeSucceeded', message: 'Helm upgrade succeeded for release apps/podinfo.v2 with chart podinfo@6.5.4', observedGeneration: 1, lastTransitionTime: T1 },
      { type: 'Released', status: 'True', reason: 'UpgradeSucceeded', message: 'Helm upgrade succeeded for release apps/podinfo.v2 with chart podinfo@6.5.4', observedGeneration: 1, lastTransitionTime: T1 },
    ],
  },
};

export const helmReleaseUpgradeFailed = edited(helmReleaseReady, (release) => {
  const failed = 'Helm upgrade failed for release apps/podinfo with chart podinfo@6.5.4: context deadline exceeded';
  (release.status as Json).conditions = [
    { type: 'Ready', status: 'False', reason: 'UpgradeFailed', message: failed, observedGeneration: 1, lastTransitionTime: T1 },
    { type: 'Released', status: 'False', reason: 'UpgradeFailed', message: failed, observedGeneration: 1, lastTransitionTime: T1 },
  ];
});

export const gitRepositoryReady: StatusSubject = {
  apiVersion: 'source.toolkit.fluxcd.io/v1',
  kind: 'GitRepository',
  metadata: meta('flux-system', 'flux-system', 'a503e4c2-fb7d-4624-95b2-047bd0d233ab', 1),
  spec: { interval: '1m', url: 'https://github.com/acme/fleet', ref: { branch: 'main' } },
  status: {
    observedGeneration: 1,
    artifact: { path: 'gitrepository/flux-system/flux-system/8b1d1e0.tar.gz', revision: 'main@sha1:8b1d1e0', digest: 'sha256:0f5e', lastUpdateTime: T1 },
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Succeeded', message: "stored artifact for revision 'main@sha1:8b1d1e0'", observedGeneration: 1, lastTransitionTime: T1 },
      { type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded', message: "stored artifact for revision 'main@sha1:8b1d1e0'", observedGeneration: 1, lastTransitionTime: T1 },
    ],
  },
};

export const gitRepositoryAuthFailed = edited(gitRepositoryReady, (repository) => {
  const failure = "failed to checkout and determine revision: unable to clone 'https://github.com/acme/fleet': authentication required";
  (repository.status as Json).conditions = [
    { type: 'Ready', status: 'False', reason: 'GitOperationFailed', message: failure, observedGeneration: 1, lastTransitionTime: T1 },
    { type: 'FetchFailed', status: 'True', reason: 'GitOperationFailed', message: failure, observedGeneration: 1, lastTransitionTime: T1 },
    { type: 'ArtifactInStorage', status: 'True', reason: 'Succeeded', message: "stored artifact for revision 'main@sha1:2f1c3a9'", observedGeneration: 1, lastTransitionTime: T0 },
  ];
});

// --- Crossplane -----------------------------------------------------------------------------

/** A managed resource that was Available, and now the provider cannot reach it: Synced=False with ReconcileError. */
export const rdsInstanceSyncFailed: StatusSubject = {
  apiVersion: 'database.aws.crossplane.io/v1beta1',
  kind: 'RDSInstance',
  metadata: meta('orders-db-x7k2p', undefined, 'b614f5d3-0c8e-4735-a6c3-158ce1e344bc', 1, { annotations: { 'crossplane.io/external-name': 'orders-db-x7k2p' } }),
  spec: { forProvider: { region: 'eu-west-1', dbInstanceClass: 'db.t3.small', engine: 'postgres', allocatedStorage: 20 }, providerConfigRef: { name: 'default' } },
  status: {
    atProvider: {},
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Available', lastTransitionTime: T0 },
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'observe failed: cannot describe DB instance: operation error RDS: DescribeDBInstances, https response error StatusCode: 403, RequestID: 5f3c, api error AccessDenied: User is not authorized', lastTransitionTime: T1 },
    ],
  },
};

export const vpcAvailable: StatusSubject = {
  apiVersion: 'ec2.aws.upbound.io/v1beta1',
  kind: 'VPC',
  metadata: meta('main-vpc', undefined, 'c7250ae4-1d9f-4846-b7d4-269df2f455cd', 1),
  spec: { forProvider: { region: 'eu-west-1', cidrBlock: '10.0.0.0/16' }, providerConfigRef: { name: 'default' } },
  status: {
    atProvider: { id: 'vpc-0a1b2c3d' },
    conditions: [
      { type: 'Ready', status: 'True', reason: 'Available', lastTransitionTime: T1 },
      { type: 'Synced', status: 'True', reason: 'ReconcileSuccess', lastTransitionTime: T0 },
    ],
  },
};

export const vpcCreated: StatusSubject = { apiVersion: 'ec2.aws.upbound.io/v1beta1', kind: 'VPC', metadata: meta('edge-vpc', undefined, 'd8361bf5-2ea0-4957-88e5-37aef306a6de', 1), spec: { forProvider: { region: 'eu-west-1', cidrBlock: '10.1.0.0/16' } } };

export const composition: StatusSubject = {
  apiVersion: 'apiextensions.crossplane.io/v1',
  kind: 'Composition',
  metadata: meta('xpostgresqlinstances.aws', undefined, 'e9472c06-3fb1-4a68-99f6-48bf0a17b7ef', 1),
  spec: { compositeTypeRef: { apiVersion: 'database.example.org/v1alpha1', kind: 'XPostgreSQLInstance' }, mode: 'Pipeline', pipeline: [{ step: 'patch-and-transform', functionRef: { name: 'function-patch-and-transform' } }] },
};

/** A claim, in the platform team's own group: Crossplane's rule does not reach it, a user rule can. */
export const postgresClaimSyncFailed: StatusSubject = {
  apiVersion: 'database.example.org/v1alpha1',
  kind: 'PostgreSQLInstance',
  metadata: meta('orders-db', 'shop', 'fa583d17-40c2-4b79-8a07-59c01b28c800', 1, { finalizers: ['finalizer.apiextensions.crossplane.io'] }),
  spec: { parameters: { storageGB: 20 }, compositionRef: { name: 'xpostgresqlinstances.aws' }, writeConnectionSecretToRef: { name: 'orders-db-conn' } },
  status: {
    conditions: [
      { type: 'Synced', status: 'False', reason: 'ReconcileError', message: 'cannot compose resources: cannot apply composed resource "db": cannot patch object: RDSInstance.database.aws.crossplane.io "orders-db-x7k2p" is invalid: spec.forProvider.allocatedStorage: Invalid value: 2: spec.forProvider.allocatedStorage in body should be greater than or equal to 20', lastTransitionTime: T1 },
      { type: 'Ready', status: 'False', reason: 'Waiting', message: 'Claim is waiting for composite resource to become Ready', lastTransitionTime: T0 },
    ],
  },
};

// --- A database operator following kstatus' conventions -------------------------------------

export const databaseReady: StatusSubject = {
  apiVersion: 'db.example.com/v1',
  kind: 'Database',
  metadata: meta('orders', 'shop', '0b694e28-51d3-4c8a-9b18-6ad02c39d911', 4),
  spec: { engine: 'postgres', version: '16', replicas: 3, storage: '50Gi' },
  status: {
    observedGeneration: 4,
    readyReplicas: 3,
    conditions: [{ type: 'Ready', status: 'True', reason: 'ReplicasReady', message: '3 of 3 replicas ready', observedGeneration: 4, lastTransitionTime: T1 }],
  },
};

export const databaseStalled = edited(databaseReady, (database) => {
  (database.status as Json).conditions = [
    { type: 'Ready', status: 'False', reason: 'VolumeResizeFailed', message: 'PersistentVolumeClaim data-orders-0 cannot grow to 50Gi', observedGeneration: 4, lastTransitionTime: T1 },
    { type: 'Stalled', status: 'True', reason: 'InsufficientStorage', message: 'StorageClass standard does not allow volume expansion', observedGeneration: 4, lastTransitionTime: T1 },
  ];
});

export const databaseReconciling = edited(databaseReady, (database) => {
  (database.status as Json).conditions = [
    { type: 'Ready', status: 'False', reason: 'ReplicasNotReady', message: '1 of 3 replicas ready', observedGeneration: 4, lastTransitionTime: T1 },
    { type: 'Reconciling', status: 'True', reason: 'ScalingUp', message: 'Creating replica orders-2', observedGeneration: 4, lastTransitionTime: T1 },
  ];
});

/** The spec changed (generation 5) and the operator has not looked yet: its Ready is about generation 4. */
export const databaseUnobserved = edited(databaseReady, (database) => {
  database.metadata.generation = 5;
});
