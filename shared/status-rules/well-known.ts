/**
 * Status rules for well-known kinds, as data. The custom resources' rules follow Argo CD's
 * health checks (argo-cd resource_customizations/<group>/<Kind>/health.lua) and Flux's docs:
 * Argo CD's Healthy is `current`, Progressing `progressing`, Degraded `failed`, Suspended
 * `suspended`. Where Argo CD walks the condition list in order, these rules test the worse
 * condition first, so the answer does not depend on the order a controller wrote them in.
 * The core kinds' rules say what the graph's node health says today (electron/engine/graph).
 */
import type { KindRule, StatusMatcher } from './types.ts';

const FLUX_SUSPENDED: StatusMatcher = {
  when: { field: 'spec.suspend', equals: true },
  state: 'suspended',
  say: { reason: 'Suspended', message: 'spec.suspend is true: {kind} reconciliation is suspended' },
};

/** Flux: Ready=Unknown while Reconciling=True is a reconcile under way (Flux writes both together). */
const FLUX_RECONCILING: StatusMatcher = {
  when: { allOf: [{ condition: 'Ready', status: ['Unknown'] }, { condition: 'Reconciling', status: ['True'] }] },
  state: 'progressing',
  say: { condition: 'Ready' },
};

/** Flux: any other set of conditions is Degraded in Argo CD; the words are Ready's when it has them. */
const FLUX_DEGRADED: StatusMatcher = {
  when: { field: 'status.conditions', present: true },
  state: 'failed',
  say: { reason: 'NotReady', message: '{kind} reports conditions but no Ready=True', condition: 'Ready' },
};

const FLUX_NO_CONDITIONS = { state: 'progressing', say: { reason: 'NoConditions', message: 'The controller has not reported any condition yet' } } as const;

/** Crossplane kinds that carry no conditions (configuration, not reconciled resources). */
const CROSSPLANE_NO_STATUS_KINDS = [
  'Composition',
  'CompositionRevision',
  'DeploymentRuntimeConfig',
  'ControllerConfig',
  'ProviderConfig',
  'ClusterProviderConfig',
  'ProviderConfigUsage',
  'ClusterProviderConfigUsage',
  'EnvironmentConfig',
  'ImageConfig',
  'StoreConfig',
];

/** Condition types Crossplane sets True on a healthy object of one kind or another. */
const CROSSPLANE_HEALTHY_TYPES = ['Ready', 'Healthy', 'Offered', 'Established', 'ValidPipeline', 'RevisionHealthy'];

export const WELL_KNOWN_RULES: readonly KindRule[] = [
  {
    kinds: ['cert-manager.io/Certificate'],
    source: 'Argo CD health check cert-manager.io/Certificate',
    matchers: [
      { when: { condition: 'Issuing', status: ['True'] }, state: 'progressing' },
      { when: { condition: 'Ready', status: ['False'] }, state: 'failed' },
      { when: { condition: 'Ready', status: ['True'] }, state: 'current' },
    ],
    otherwise: { state: 'progressing', say: { reason: 'WaitingForCertificate', message: 'Waiting for certificate: no Ready condition yet' } },
  },
  {
    kinds: ['cert-manager.io/Issuer', 'cert-manager.io/ClusterIssuer'],
    source: 'Argo CD health checks cert-manager.io/Issuer and ClusterIssuer',
    matchers: [
      { when: { condition: 'Ready', status: ['False'] }, state: 'failed' },
      { when: { condition: 'Ready', status: ['True'] }, state: 'current' },
    ],
    otherwise: { state: 'progressing', say: { reason: 'InitializingIssuer', message: 'Initializing issuer: no Ready condition yet' } },
  },
  {
    // Argo Rollouts v1.0+ computes status.phase and status.message itself; Argo CD surfaces them
    // once the spec is observed, and reads conditions and spec.paused for older controllers.
    kinds: ['argoproj.io/Rollout'],
    source: 'Argo CD health check argoproj.io/Rollout',
    matchers: [
      { when: { generationObserved: false }, state: 'unobserved', say: { reason: 'LatestGenerationNotObserved', message: 'Waiting for rollout spec update to be observed' } },
      { when: { field: 'status.phase', equals: 'Paused' }, state: 'suspended', say: { messageField: 'status.message' } },
      { when: { field: 'status.phase', equals: 'Degraded' }, state: 'failed', say: { messageField: 'status.message' } },
      { when: { field: 'status.phase', equals: 'Progressing' }, state: 'progressing', say: { messageField: 'status.message' } },
      { when: { field: 'status.phase', equals: 'Healthy' }, state: 'current', say: { messageField: 'status.message' } },
      { when: { condition: 'InvalidSpec' }, state: 'failed' },
      { when: { condition: 'Progressing', reason: ['RolloutAborted', 'ProgressDeadlineExceeded'] }, state: 'failed' },
      { when: { field: 'status.pauseConditions', present: true }, state: 'suspended', say: { reason: 'Paused', message: 'Rollout is paused' } },
      { when: { field: 'spec.paused', equals: true }, state: 'suspended', say: { reason: 'Paused', message: 'spec.paused is true: Rollout is paused' } },
    ],
    otherwise: { state: 'progressing', say: { reason: 'InProgress', message: 'Waiting for the rollout to finish', condition: 'Progressing' } },
  },
  {
    kinds: ['kustomize.toolkit.fluxcd.io/Kustomization'],
    source: 'Argo CD health check kustomize.toolkit.fluxcd.io/Kustomization; Flux docs',
    matchers: [FLUX_SUSPENDED, { when: { condition: 'Ready', status: ['True'] }, state: 'current' }, FLUX_RECONCILING, FLUX_DEGRADED],
    otherwise: FLUX_NO_CONDITIONS,
  },
  {
    // A release is healthy once Ready and either Released or TestSuccess are True.
    kinds: ['helm.toolkit.fluxcd.io/HelmRelease'],
    source: 'Argo CD health check helm.toolkit.fluxcd.io/HelmRelease; Flux docs',
    matchers: [
      FLUX_SUSPENDED,
      {
        when: { allOf: [{ condition: 'Ready', status: ['True'] }, { anyOf: [{ condition: 'Released', status: ['True'] }, { condition: 'TestSuccess', status: ['True'] }] }] },
        state: 'current',
        say: { condition: 'Ready' },
      },
      FLUX_RECONCILING,
      FLUX_DEGRADED,
    ],
    otherwise: FLUX_NO_CONDITIONS,
  },
  {
    // A source is healthy once Ready and its artifact is in storage.
    kinds: ['source.toolkit.fluxcd.io/GitRepository'],
    source: 'Argo CD health check source.toolkit.fluxcd.io/GitRepository; Flux docs',
    matchers: [
      FLUX_SUSPENDED,
      { when: { allOf: [{ condition: 'Ready', status: ['True'] }, { condition: 'ArtifactInStorage', status: ['True'] }] }, state: 'current', say: { condition: 'Ready' } },
      FLUX_RECONCILING,
      FLUX_DEGRADED,
    ],
    otherwise: FLUX_NO_CONDITIONS,
  },
  {
    // Argo CD calls any Crossplane object without a status Healthy; here only the kinds that
    // never get conditions are, so a managed resource created a moment ago is not green
    // before Crossplane has looked at it.
    kinds: ['*.crossplane.io/*', '*.upbound.io/*'],
    source: 'Argo CD health checks _.crossplane.io and _.upbound.io',
    matchers: [
      {
        when: { allOf: [{ kindIn: CROSSPLANE_NO_STATUS_KINDS }, { field: 'status.conditions', present: false }] },
        state: 'current',
        say: { reason: 'NoConditionsExpected', message: 'Crossplane sets no conditions on a {kind}' },
      },
      { when: { condition: 'LastAsyncOperation', status: ['False'] }, state: 'failed' },
      { when: { condition: 'Synced', status: ['False'] }, state: 'failed' },
      { when: { anyOf: CROSSPLANE_HEALTHY_TYPES.map((type) => ({ condition: type, status: ['True'] as const })) }, state: 'current' },
    ],
    otherwise: { state: 'progressing', say: { reason: 'Provisioning', message: 'Crossplane reports no healthy condition yet', condition: 'Ready' } },
  },
  {
    kinds: ['core/Node'],
    source: 'Kubedrift graph node health',
    matchers: [
      { when: { condition: 'Ready', status: ['False', 'Unknown'] }, state: 'failed' },
      { when: { field: 'spec.unschedulable', equals: true }, state: 'drifting', say: { reason: 'SchedulingDisabled', message: 'spec.unschedulable is true: the node is cordoned' } },
      { when: { condition: 'Ready', status: ['True'] }, state: 'current' },
    ],
  },
  {
    kinds: ['autoscaling/HorizontalPodAutoscaler'],
    source: 'Kubedrift graph node health',
    matchers: [
      { when: { anyOf: [{ condition: 'AbleToScale', status: ['False'] }, { condition: 'ScalingActive', status: ['False'] }] }, state: 'failed' },
      { when: { allOf: [{ condition: 'AbleToScale', status: ['True'] }, { condition: 'ScalingActive', status: ['True'] }] }, state: 'current', say: { condition: 'ScalingActive' } },
    ],
  },
  {
    kinds: ['core/PersistentVolumeClaim'],
    source: 'kstatus (Bound is current), Lost failed',
    matchers: [
      { when: { field: 'status.phase', equals: 'Bound' }, state: 'current' },
      { when: { field: 'status.phase', equals: 'Lost' }, state: 'failed' },
      { when: { field: 'status.phase', equals: 'Pending' }, state: 'progressing' },
    ],
  },
  {
    kinds: ['core/Namespace'],
    source: 'kstatus',
    matchers: [
      { when: { field: 'status.phase', equals: 'Terminating' }, state: 'terminating' },
      { when: { field: 'status.phase', equals: 'Active' }, state: 'current' },
    ],
  },
];
