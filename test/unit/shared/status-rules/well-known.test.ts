import { describe, expect, it } from 'vitest';
import { objectStatus, type StatusSubject } from '../../../../shared/object-status.ts';
import { node, patched, webHpa } from '../../engine/graph/fixtures.ts';
import {
  certificateFailed,
  certificateIssuing,
  certificateNew,
  certificateReady,
  clusterIssuerFailed,
  composition,
  edited,
  gitRepositoryAuthFailed,
  gitRepositoryReady,
  helmReleaseReady,
  helmReleaseUpgradeFailed,
  issuerReady,
  kustomizationFailed,
  kustomizationNew,
  kustomizationReady,
  kustomizationReconciling,
  kustomizationSuspended,
  rdsInstanceSyncFailed,
  rolloutDegraded,
  rolloutHealthy,
  rolloutInvalidLegacy,
  rolloutNew,
  rolloutPaused,
  vpcAvailable,
  vpcCreated,
} from './fixtures.ts';

describe('cert-manager', () => {
  it('calls a Certificate being issued progressing, in the Issuing condition’s words', () => {
    expect(objectStatus(certificateIssuing)).toMatchObject({ state: 'progressing', reason: 'DoesNotExist', message: 'Issuing certificate as Secret does not exist', source: 'kind-rule' });
  });

  it('calls a Certificate with Ready=True current', () => {
    expect(objectStatus(certificateReady)).toMatchObject({ state: 'current', reason: 'Ready', message: 'Certificate is up to date and has not expired', tone: 'ok' });
  });

  it('calls a Certificate whose issuance failed failed, once Issuing is no longer True', () => {
    expect(objectStatus(certificateFailed)).toMatchObject({ state: 'failed', reason: 'DoesNotExist', tone: 'danger' });
  });

  it('waits for a new Certificate without calling it healthy', () => {
    expect(objectStatus(certificateNew)).toMatchObject({ state: 'progressing', reason: 'WaitingForCertificate', message: 'Waiting for certificate: no Ready condition yet' });
  });

  it('reads Issuer and ClusterIssuer by their Ready condition', () => {
    expect(objectStatus(clusterIssuerFailed)).toMatchObject({ state: 'failed', reason: 'ErrRegisterACMEAccount' });
    expect(objectStatus(clusterIssuerFailed).message).toMatch(/^Failed to register ACME account: /);
    expect(objectStatus(issuerReady)).toMatchObject({ state: 'current', reason: 'IsReady', message: '' });
    const initializing = edited(issuerReady, (issuer) => {
      delete issuer.status;
    });
    expect(objectStatus(initializing)).toMatchObject({ state: 'progressing', reason: 'InitializingIssuer' });
  });

  it('does not give a Certificate of another group cert-manager’s rule', () => {
    const other = { ...certificateIssuing, apiVersion: 'pki.example.com/v1' };
    expect(objectStatus(other)).toMatchObject({ source: 'ready', state: 'progressing', reason: 'DoesNotExist' });
  });
});

describe('Argo Rollouts', () => {
  it('calls a Rollout paused at a canary step suspended, with its phase and message', () => {
    expect(objectStatus(rolloutPaused)).toMatchObject({ state: 'suspended', reason: 'Paused', message: 'CanaryPauseStep', tone: 'neutral', source: 'kind-rule', generation: 3, observedGeneration: 3 });
  });

  it('calls a Degraded Rollout failed, in the controller’s message', () => {
    expect(objectStatus(rolloutDegraded)).toMatchObject({
      state: 'failed',
      reason: 'Degraded',
      message: 'RolloutAborted: Rollout aborted update to revision 4: Metric "success-rate" assessed Failed due to failed (3) > failureLimit (2)',
    });
  });

  it('calls a Healthy Rollout current, saying which field told', () => {
    expect(objectStatus(rolloutHealthy)).toMatchObject({ state: 'current', reason: 'Healthy', message: 'status.phase is "Healthy"' });
  });

  it('reads conditions when an older controller writes no phase', () => {
    expect(objectStatus(rolloutInvalidLegacy)).toMatchObject({ state: 'failed', reason: 'InvalidSpec' });
    const aborted = edited(rolloutDegraded, (rollout) => {
      delete (rollout.status as Record<string, unknown>).phase;
    });
    expect(objectStatus(aborted)).toMatchObject({ state: 'failed', reason: 'RolloutAborted' });
    const paused = edited(rolloutPaused, (rollout) => {
      delete (rollout.status as Record<string, unknown>).phase;
    });
    expect(objectStatus(paused)).toMatchObject({ state: 'suspended', reason: 'Paused', message: 'Rollout is paused' });
  });

  it('says a Rollout without status has not observed its spec', () => {
    expect(objectStatus(rolloutNew)).toMatchObject({ state: 'unobserved', reason: 'LatestGenerationNotObserved', message: 'Waiting for rollout spec update to be observed', source: 'kind-rule' });
  });
});

describe('Flux', () => {
  it('calls a Kustomization with Ready=Unknown and Reconciling=True progressing, in Ready’s words', () => {
    expect(objectStatus(kustomizationReconciling)).toMatchObject({ state: 'progressing', reason: 'Progressing', message: 'Reconciliation in progress', source: 'kind-rule' });
  });

  it('calls a Kustomization with Ready=True current', () => {
    expect(objectStatus(kustomizationReady)).toMatchObject({ state: 'current', reason: 'ReconciliationSucceeded', message: 'Applied revision: main@sha1:8b1d1e0' });
  });

  it('calls a Kustomization whose build failed failed', () => {
    const status = objectStatus(kustomizationFailed);
    expect(status).toMatchObject({ state: 'failed', reason: 'BuildFailed' });
    expect(status.message).toMatch(/^kustomize build failed: /);
  });

  it('calls a Kustomization with spec.suspend suspended, whatever its conditions say', () => {
    expect(objectStatus(kustomizationSuspended)).toMatchObject({ state: 'suspended', reason: 'Suspended', message: 'spec.suspend is true: Kustomization reconciliation is suspended', tone: 'neutral' });
  });

  it('says a new Kustomization (observedGeneration -1) has not observed its spec', () => {
    expect(objectStatus(kustomizationNew)).toMatchObject({ state: 'unobserved', source: 'generation', observedGeneration: -1, generation: 1 });
  });

  it('calls a Kustomization without conditions progressing, not failed', () => {
    const quiet = edited(kustomizationNew, (k) => {
      (k.status as Record<string, unknown>).observedGeneration = 1;
    });
    expect(objectStatus(quiet)).toMatchObject({ state: 'progressing', reason: 'NoConditions' });
  });

  it('calls a HelmRelease current only when Released (or TestSuccess) is True with Ready', () => {
    expect(objectStatus(helmReleaseReady)).toMatchObject({ state: 'current', reason: 'UpgradeSucceeded' });
    const tested = edited(helmReleaseReady, (release) => {
      const conditions = (release.status as { conditions: Array<Record<string, unknown>> }).conditions;
      conditions[1] = { type: 'TestSuccess', status: 'True', reason: 'TestSucceeded', message: 'Helm test succeeded for release apps/podinfo.v2 with chart podinfo@6.5.4: 1 test hook completed successfully' };
    });
    expect(objectStatus(tested)).toMatchObject({ state: 'current', reason: 'UpgradeSucceeded' });
    const readyAlone = edited(helmReleaseReady, (release) => {
      (release.status as { conditions: unknown[] }).conditions.pop();
    });
    expect(objectStatus(readyAlone)).toMatchObject({ state: 'failed', reason: 'UpgradeSucceeded' });
  });

  it('calls a failed HelmRelease upgrade failed, in Ready’s words', () => {
    expect(objectStatus(helmReleaseUpgradeFailed)).toMatchObject({ state: 'failed', reason: 'UpgradeFailed', message: 'Helm upgrade failed for release apps/podinfo with chart podinfo@6.5.4: context deadline exceeded' });
  });

  it('calls a GitRepository current once Ready and its artifact is stored, failed when it cannot fetch', () => {
    expect(objectStatus(gitRepositoryReady)).toMatchObject({ state: 'current', reason: 'Succeeded', message: "stored artifact for revision 'main@sha1:8b1d1e0'" });
    expect(objectStatus(gitRepositoryAuthFailed)).toMatchObject({ state: 'failed', reason: 'GitOperationFailed' });
    expect(objectStatus(gitRepositoryAuthFailed).message).toMatch(/authentication required$/);
  });
});

describe('Crossplane', () => {
  it('calls Synced=False failed whatever order the conditions come in', () => {
    const status = objectStatus(rdsInstanceSyncFailed);
    expect(status).toMatchObject({ state: 'failed', reason: 'ReconcileError', source: 'kind-rule' });
    expect(status.message).toMatch(/^observe failed: cannot describe DB instance/);
  });

  it('reads *.upbound.io managed resources too: Ready=True is current', () => {
    expect(objectStatus(vpcAvailable)).toMatchObject({ state: 'current', reason: 'Available', message: '' });
  });

  it('calls a managed resource not yet looked at progressing, not healthy', () => {
    expect(objectStatus(vpcCreated)).toMatchObject({ state: 'progressing', reason: 'Provisioning', message: 'Crossplane reports no healthy condition yet' });
  });

  it('calls a Composition, which never has conditions, current', () => {
    expect(objectStatus(composition)).toMatchObject({ state: 'current', reason: 'NoConditionsExpected', message: 'Crossplane sets no conditions on a Composition' });
  });

  it('fails LastAsyncOperation=False', () => {
    const failed = edited(vpcAvailable, (vpc) => {
      (vpc.status as { conditions: unknown[] }).conditions.push({ type: 'LastAsyncOperation', status: 'False', reason: 'ApplyFailure', message: 'apply failed: error creating EC2 VPC: VpcLimitExceeded' });
    });
    expect(objectStatus(failed)).toMatchObject({ state: 'failed', reason: 'ApplyFailure', message: 'apply failed: error creating EC2 VPC: VpcLimitExceeded' });
  });
});

describe('core kinds without a dedicated workload rule', () => {
  it('reads a Node as the graph does: NotReady failed, cordoned drifting, Ready current', () => {
    expect(objectStatus(node('worker-2', 'n-2', false))).toMatchObject({ state: 'failed', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    expect(objectStatus(patched(node('worker-3', 'n-3', true), { spec: { unschedulable: true } }))).toMatchObject({ state: 'drifting', reason: 'SchedulingDisabled', tone: 'warning' });
    expect(objectStatus(node('worker-4', 'n-4', true))).toMatchObject({ state: 'current', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
    const silent = patched(node('worker-5', 'n-5', true), { status: { conditions: [{ type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory' }] } });
    expect(objectStatus(silent)).toMatchObject({ state: 'none' });
  });

  it('reads an HPA by AbleToScale and ScalingActive', () => {
    expect(objectStatus(webHpa)).toMatchObject({ state: 'current', reason: 'ValidMetricFound' });
    const blocked = edited(webHpa as StatusSubject, (hpa) => {
      (hpa.status as { conditions: Array<Record<string, unknown>> }).conditions[1] = { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: 'the HPA was unable to compute the replica count: failed to get cpu utilization' };
    });
    expect(objectStatus(blocked)).toMatchObject({ state: 'failed', reason: 'FailedGetResourceMetric' });
  });

  it('reads a PersistentVolumeClaim by its phase', () => {
    const claim = (phase: string): StatusSubject => ({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: {}, spec: { accessModes: ['ReadWriteOnce'] }, status: { phase } });
    expect(objectStatus(claim('Bound'))).toMatchObject({ state: 'current', reason: 'Bound', message: 'status.phase is "Bound"' });
    expect(objectStatus(claim('Pending'))).toMatchObject({ state: 'progressing', reason: 'Pending' });
    expect(objectStatus(claim('Lost'))).toMatchObject({ state: 'failed', reason: 'Lost' });
  });
});
