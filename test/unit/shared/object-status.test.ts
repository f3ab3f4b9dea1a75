import { describe, expect, it } from 'vitest';
import type { UserStatusRule } from '../../../shared/contracts/status-rules.ts';
import { objectStatus, type KindRule, type StatusSubject } from '../../../shared/object-status.ts';
import { patched, reportJob, web } from '../engine/graph/fixtures.ts';
import {
  certificateIssuing,
  certificateReady,
  databaseReady,
  databaseReconciling,
  databaseStalled,
  databaseUnobserved,
  edited,
  postgresClaimSyncFailed,
  rolloutPaused,
} from './status-rules/fixtures.ts';

const STALLED_DEPLOYMENT_CONDITIONS = [
  { type: 'Available', status: 'False', reason: 'MinimumReplicasUnavailable', message: 'Deployment does not have minimum availability.', lastTransitionTime: '2025-05-01T10:00:00Z' },
  { type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded', message: 'ReplicaSet "web-7c9d" has timed out progressing.', lastTransitionTime: '2025-05-01T10:10:00Z' },
];
const stalledDeployment = patched(web, { status: { readyReplicas: 1, availableReplicas: 1, conditions: STALLED_DEPLOYMENT_CONDITIONS } });

/** A ConfigMap: no status at all. */
const configMap: StatusSubject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'web-config', namespace: 'shop', uid: '1d2e3f40-5a6b-4c7d-8e9f-0a1b2c3d4e5f', resourceVersion: '812', creationTimestamp: '2025-05-01T10:00:00Z' } as StatusSubject['metadata'],
  data: { 'LOG_LEVEL': 'info' },
} as StatusSubject;

/** A custom `Job` kind of another API group, shaped like batch/v1's on purpose. */
const customJob: StatusSubject = {
  apiVersion: 'jobs.example.com/v1',
  kind: 'Job',
  metadata: { name: 'nightly-export', namespace: 'shop', uid: '2e3f4051-6b7c-4d8e-9f0a-1b2c3d4e5f60', resourceVersion: '913', generation: 1 } as StatusSubject['metadata'],
  spec: { completions: 1, target: 's3://exports/nightly' },
  status: { succeeded: 0, failed: 3, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Export retried 3 times' }] },
};

describe('objectStatus: the generic order', () => {
  it('calls an object with a deletionTimestamp terminating before anything else, naming its finalizers', () => {
    const deleting = edited(certificateReady, (certificate) => {
      Object.assign(certificate.metadata, { deletionTimestamp: '2025-05-01T11:00:00Z', finalizers: ['cert-manager.io/certificate-secret'] });
    });
    expect(objectStatus(deleting)).toMatchObject({
      state: 'terminating',
      reason: 'Terminating',
      message: 'Deletion requested at 2025-05-01T11:00:00Z; waiting for finalizers: cert-manager.io/certificate-secret',
      tone: 'pending',
      source: 'terminating',
    });
  });

  it('says the spec is not yet observed when status.observedGeneration is behind, though Ready is still True', () => {
    expect(objectStatus(databaseUnobserved)).toEqual({
      state: 'unobserved',
      reason: 'LatestGenerationNotObserved',
      message: 'Spec generation 5 not yet observed (controller at 4)',
      tone: 'pending',
      source: 'generation',
      generation: 5,
      observedGeneration: 4,
    });
  });

  it('skips the generation check when the object does not report observedGeneration', () => {
    const noObserved = edited(databaseReady, (database) => {
      delete (database.status as Record<string, unknown>).observedGeneration;
      database.metadata.generation = 9;
    });
    expect(objectStatus(noObserved)).toMatchObject({ state: 'current', source: 'ready', generation: 9 });
    expect(objectStatus(noObserved).observedGeneration).toBeUndefined();
  });

  it('reads a numeric string observedGeneration, as Argo Rollouts writes it', () => {
    const behind = edited(rolloutPaused, (rollout) => {
      rollout.metadata.generation = 4;
    });
    expect(objectStatus(behind)).toMatchObject({ state: 'unobserved', generation: 4, observedGeneration: 3, message: 'Spec generation 4 not yet observed (controller at 3)' });
  });

  it('calls Stalled=True failed, with the condition’s reason and message verbatim', () => {
    expect(objectStatus(databaseStalled)).toMatchObject({ state: 'failed', reason: 'InsufficientStorage', message: 'StorageClass standard does not allow volume expansion', tone: 'danger', source: 'stalled' });
  });

  it('calls Reconciling=True progressing, before Ready=False', () => {
    expect(objectStatus(databaseReconciling)).toMatchObject({ state: 'progressing', reason: 'ScalingUp', message: 'Creating replica orders-2', source: 'reconciling' });
  });

  it('lets Stalled win when a controller says Stalled and Reconciling at once', () => {
    const both = edited(databaseStalled, (database) => {
      ((database.status as { conditions: unknown[] }).conditions).push({ type: 'Reconciling', status: 'True', reason: 'Retrying', message: 'Retrying in 30s' });
    });
    expect(objectStatus(both)).toMatchObject({ state: 'failed', reason: 'InsufficientStorage' });
  });

  it('calls Ready=True current and Ready=False or Unknown progressing, in the Ready condition’s words', () => {
    expect(objectStatus(databaseReady)).toMatchObject({ state: 'current', reason: 'ReplicasReady', message: '3 of 3 replicas ready', tone: 'ok', source: 'ready' });
    const notReady = edited(databaseReady, (database) => {
      (database.status as Record<string, unknown>).conditions = [{ type: 'Ready', status: 'False', reason: 'ReplicasNotReady', message: '2 of 3 replicas ready' }];
    });
    expect(objectStatus(notReady)).toMatchObject({ state: 'progressing', reason: 'ReplicasNotReady', message: '2 of 3 replicas ready', tone: 'pending' });
    const unknown = edited(databaseReady, (database) => {
      (database.status as Record<string, unknown>).conditions = [{ type: 'Ready', status: 'Unknown' }];
    });
    expect(objectStatus(unknown)).toMatchObject({ state: 'progressing', reason: 'Ready=Unknown', message: '' });
  });

  it('reads an object without metadata instead of throwing', () => {
    const bare = { apiVersion: 'example.com/v1', kind: 'Widget', status: { conditions: [{ type: 'Ready', status: 'True', reason: 'Up' }] } } as unknown as StatusSubject;
    expect(objectStatus(bare)).toMatchObject({ state: 'current', reason: 'Up', source: 'ready' });
  });

  it('gives an object with no status signal `none`, neutral and never ok', () => {
    expect(objectStatus(configMap)).toEqual({ state: 'none', reason: 'NoStatusSignal', message: 'No Ready, Stalled or Reconciling condition, and no status rule for core/ConfigMap', tone: 'neutral', source: 'none' });
  });
});

describe('objectStatus: built-in kinds by API group and kind', () => {
  it('uses the Deployment rule: ProgressDeadlineExceeded is failed, in the controller’s words', () => {
    expect(objectStatus(stalledDeployment)).toMatchObject({
      state: 'failed',
      reason: 'ProgressDeadlineExceeded',
      message: 'ReplicaSet "web-7c9d" has timed out progressing.',
      tone: 'danger',
      source: 'built-in',
    });
  });

  it('does not give a custom Job kind of another group batch/Job’s rules', () => {
    const status = objectStatus(customJob);
    expect(status).toMatchObject({ state: 'none', source: 'none', message: 'No Ready, Stalled or Reconciling condition, and no status rule for jobs.example.com/Job' });
    // The same object as a batch/v1 Job is failed by the Job rule.
    expect(objectStatus({ ...customJob, apiVersion: 'batch/v1' })).toMatchObject({ state: 'failed', reason: 'BackoffLimitExceeded', source: 'built-in' });
  });

  it('does not give a custom Deployment kind the apps/Deployment rule', () => {
    const custom = { ...stalledDeployment, apiVersion: 'platform.example.com/v1' };
    expect(objectStatus(custom)).toMatchObject({ state: 'none', source: 'none' });
  });

  it('reads a finished batch Job as current but neutral, as the Overview shows it', () => {
    expect(objectStatus(reportJob)).toMatchObject({ state: 'current', reason: 'Complete', tone: 'neutral', source: 'built-in' });
  });
});

describe('objectStatus: user rules', () => {
  const claimRule: UserStatusRule = { group: 'database.example.org', kind: 'PostgreSQLInstance', conditionType: 'Synced', conditionStatus: 'False', state: 'failed' };

  it('lets a user rule read a condition the generic rule ignores', () => {
    expect(objectStatus(postgresClaimSyncFailed)).toMatchObject({ state: 'progressing', reason: 'Waiting', source: 'ready' });
    const status = objectStatus(postgresClaimSyncFailed, { userRules: [claimRule] });
    expect(status).toMatchObject({ state: 'failed', reason: 'ReconcileError', tone: 'danger', source: 'user-rule' });
    expect(status.message).toMatch(/^cannot compose resources: /);
  });

  it('puts a user rule before the table’s rule for that kind', () => {
    expect(objectStatus(certificateIssuing)).toMatchObject({ state: 'progressing', source: 'kind-rule' });
    const rule: UserStatusRule = { group: 'cert-manager.io', kind: 'Certificate', conditionType: 'Issuing', conditionStatus: 'True', reason: 'DoesNotExist', state: 'drifting' };
    expect(objectStatus(certificateIssuing, { userRules: [rule] })).toMatchObject({ state: 'drifting', reason: 'DoesNotExist', tone: 'warning', source: 'user-rule' });
  });

  it('falls back to the table when no user rule for the kind matches', () => {
    const rule: UserStatusRule = { group: 'cert-manager.io', kind: 'Certificate', conditionType: 'Issuing', conditionStatus: 'True', reason: 'Renewing', state: 'current' };
    expect(objectStatus(certificateIssuing, { userRules: [rule] })).toMatchObject({ state: 'progressing', source: 'kind-rule' });
  });

  it('applies a rule only to its own group', () => {
    const elsewhere: UserStatusRule = { ...claimRule, group: 'database.example.com' };
    expect(objectStatus(postgresClaimSyncFailed, { userRules: [elsewhere] })).toMatchObject({ source: 'ready' });
    const wildcard: UserStatusRule = { ...claimRule, group: '*.example.org' };
    expect(objectStatus(postgresClaimSyncFailed, { userRules: [wildcard] })).toMatchObject({ source: 'user-rule', state: 'failed' });
  });

  it('names the core group "core" or ""', () => {
    const configMapRule: UserStatusRule = { group: 'core', kind: 'Node', conditionType: 'Ready', conditionStatus: 'True', state: 'none' };
    const node: StatusSubject = { apiVersion: 'v1', kind: 'Node', metadata: {}, status: { conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }] } };
    expect(objectStatus(node, { userRules: [configMapRule] })).toMatchObject({ state: 'none', source: 'user-rule', reason: 'KubeletReady' });
    expect(objectStatus(node, { userRules: [{ ...configMapRule, group: '' }] })).toMatchObject({ state: 'none', source: 'user-rule' });
  });

  it('never outranks deletion or an unobserved spec', () => {
    const rule: UserStatusRule = { group: 'db.example.com', kind: 'Database', conditionType: 'Ready', state: 'current' };
    expect(objectStatus(databaseUnobserved, { userRules: [rule] })).toMatchObject({ state: 'unobserved' });
    const deleting = edited(databaseReady, (database) => {
      database.metadata.deletionTimestamp = '2025-05-01T11:00:00Z';
    });
    expect(objectStatus(deleting, { userRules: [rule] })).toMatchObject({ state: 'terminating', message: 'Deletion requested at 2025-05-01T11:00:00Z' });
  });
});

describe('objectStatus: a rule table given in options', () => {
  it('uses the given table instead of the well-known one', () => {
    const table: KindRule[] = [{ kinds: ['db.example.com/Database'], source: 'test', matchers: [{ when: { condition: 'Ready', status: ['True'] }, state: 'suspended' }] }];
    expect(objectStatus(databaseReady, { rules: table })).toMatchObject({ state: 'suspended', source: 'kind-rule', reason: 'ReplicasReady', tone: 'neutral' });
    expect(objectStatus(certificateIssuing, { rules: table })).toMatchObject({ source: 'ready', state: 'progressing', reason: 'DoesNotExist' });
  });
});
