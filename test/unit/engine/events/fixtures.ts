/**
 * Events as a kind cluster (v1.32) shows them, trimmed of nothing but noise: the kubelet's
 * legacy recorder (core/v1, count), the scheduler's events.k8s.io recorder (eventTime, series,
 * no count, empty source) through both APIs, and the controller manager's Events.
 */
import type { SlimObject } from '../../../../shared/cluster.ts';
import { slimObject } from '../../../../electron/engine/cluster/informers/slim.ts';

const MANAGED = [{ manager: 'kubelet', operation: 'Update', apiVersion: 'v1', time: '2025-05-02T09:18:35Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:count': {} } }];

/** A crash loop: the legacy recorder bumped count and lastTimestamp 23 times. */
export const KUBELET_BACKOFF = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-7d4b9c8f6d-x2x9k.183b9a1f0c2d7e4a', namespace: 'shop', uid: '0d6c2a7e-9b1f-4e53-8a0c-5f2e1d3c4b6a', resourceVersion: '48213', creationTimestamp: '2025-05-02T09:14:35Z', managedFields: MANAGED },
  involvedObject: { kind: 'Pod', namespace: 'shop', name: 'web-7d4b9c8f6d-x2x9k', uid: '5b0f1c4e-2a61-4d8f-9f11-0c7f8e3d2a10', apiVersion: 'v1', resourceVersion: '48100', fieldPath: 'spec.containers{web}' },
  reason: 'BackOff',
  message: 'Back-off restarting failed container web in pod web-7d4b9c8f6d-x2x9k_shop(5b0f1c4e-2a61-4d8f-9f11-0c7f8e3d2a10)',
  source: { component: 'kubelet', host: 'kind-worker' },
  firstTimestamp: '2025-05-02T09:14:35Z',
  lastTimestamp: '2025-05-02T09:18:35Z',
  count: 23,
  type: 'Warning',
  eventTime: null,
  reportingComponent: 'kubelet',
  reportingInstance: 'kind-worker',
};

/** The scheduler's new recorder: a series of 4, no legacy fields (events.k8s.io/v1 JSON). */
export const SCHEDULER_FAILED_V1 = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'checkout-5f8d7b6c9-q7w2e.183b9a2c4e1f0b7d', namespace: 'shop', uid: '8e2f4a6c-1d3b-4f5e-9a7c-2b4d6f8e0a1c', resourceVersion: '48302', creationTimestamp: '2025-05-02T09:15:02Z' },
  eventTime: '2025-05-02T09:15:02.118634Z',
  series: { count: 4, lastObservedTime: '2025-05-02T09:17:32.508812Z' },
  reportingController: 'default-scheduler',
  reportingInstance: 'default-scheduler-kind-control-plane',
  action: 'Scheduling',
  reason: 'FailedScheduling',
  regarding: { kind: 'Pod', namespace: 'shop', name: 'checkout-5f8d7b6c9-q7w2e', uid: 'a1c3e5f7-2b4d-4c6e-8f0a-1b3d5f7a9c2e', apiVersion: 'v1', resourceVersion: '48290' },
  note: '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.',
  type: 'Warning',
  deprecatedSource: {},
  deprecatedFirstTimestamp: null,
  deprecatedLastTimestamp: null,
};

const SCHEDULED_METADATA = { name: 'web-7d4b9c8f6d-x2x9k.183b9a1d8c6b2f10', namespace: 'shop', uid: '3c5e7a9b-4d6f-4a8c-9e0b-6d8f0a2c4e6b', resourceVersion: '48090', creationTimestamp: '2025-05-02T09:14:01Z' };
const SCHEDULED_POD = { kind: 'Pod', namespace: 'shop', name: 'web-7d4b9c8f6d-x2x9k', uid: '5b0f1c4e-2a61-4d8f-9f11-0c7f8e3d2a10', apiVersion: 'v1', resourceVersion: '48088' };
const SCHEDULED_MESSAGE = 'Successfully assigned shop/web-7d4b9c8f6d-x2x9k to kind-worker';

/** One stored Event, as `kubectl get events.v1.events.k8s.io -o json` shows it... */
export const SCHEDULED_V1 = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: SCHEDULED_METADATA,
  eventTime: '2025-05-02T09:14:01.482313Z',
  reportingController: 'default-scheduler',
  reportingInstance: 'default-scheduler-kind-control-plane',
  action: 'Binding',
  reason: 'Scheduled',
  regarding: SCHEDULED_POD,
  note: SCHEDULED_MESSAGE,
  type: 'Normal',
  deprecatedSource: {},
  deprecatedFirstTimestamp: null,
  deprecatedLastTimestamp: null,
};

/** ...and as `kubectl get events.v1. -o json` (core/v1) shows the same object. */
export const SCHEDULED_CORE = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: SCHEDULED_METADATA,
  involvedObject: SCHEDULED_POD,
  reason: 'Scheduled',
  message: SCHEDULED_MESSAGE,
  source: {},
  firstTimestamp: null,
  lastTimestamp: null,
  type: 'Normal',
  eventTime: '2025-05-02T09:14:01.482313Z',
  action: 'Binding',
  reportingComponent: 'default-scheduler',
  reportingInstance: 'default-scheduler-kind-control-plane',
};

/** The deployment controller (legacy recorder). */
export const SCALING_REPLICASET = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web.183b9a1d7f0e3a52', namespace: 'shop', uid: '6f8a0c2e-5b7d-4e9f-8a1c-3e5a7c9e1b3d', resourceVersion: '48080', creationTimestamp: '2025-05-02T09:14:00Z' },
  involvedObject: { kind: 'Deployment', namespace: 'shop', name: 'web', uid: '2e4a6c8e-0b2d-4f6a-8c0e-4b6d8f0a2c4e', apiVersion: 'apps/v1', resourceVersion: '48077' },
  reason: 'ScalingReplicaSet',
  message: 'Scaled up replica set web-7d4b9c8f6d from 0 to 1',
  source: { component: 'deployment-controller' },
  firstTimestamp: '2025-05-02T09:14:00Z',
  lastTimestamp: '2025-05-02T09:14:00Z',
  count: 1,
  type: 'Normal',
  eventTime: null,
  reportingComponent: 'deployment-controller',
  reportingInstance: '',
};

/** An older cluster's Event: no reportingComponent, only the legacy source. */
export const LEGACY_SOURCE_ONLY = {
  apiVersion: 'v1',
  kind: 'Event',
  metadata: { name: 'web-7d4b9c8f6d.183b9a1d80112233', namespace: 'shop', uid: '9a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d', resourceVersion: '48085', creationTimestamp: '2025-05-02T09:14:00Z' },
  involvedObject: { kind: 'ReplicaSet', namespace: 'shop', name: 'web-7d4b9c8f6d', uid: '7b9d1f3a-6c8e-4a0b-9d2f-5a7c9e1b3d5f', apiVersion: 'apps/v1', resourceVersion: '48081' },
  reason: 'SuccessfulCreate',
  message: 'Created pod: web-7d4b9c8f6d-x2x9k',
  source: { component: 'replicaset-controller' },
  firstTimestamp: '2025-05-02T09:14:00Z',
  lastTimestamp: '2025-05-02T09:14:00Z',
  count: 1,
  type: 'Normal',
  eventTime: null,
  reportingComponent: '',
  reportingInstance: '',
};

/** The slim form the cache holds of raw Event JSON from either API. */
export function slim(raw: { apiVersion: string; [field: string]: unknown }): SlimObject {
  return slimObject(raw, { kind: 'events', objectKind: 'Event', apiVersion: raw.apiVersion });
}

export const at = (iso: string): number => Date.parse(iso);
