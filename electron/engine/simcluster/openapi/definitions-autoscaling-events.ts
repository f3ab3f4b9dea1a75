/**
 * autoscaling/v2 HorizontalPodAutoscaler, the autoscaling/v1 Scale subresource, and
 * events.k8s.io/v1 Event.
 */
import {
  ATOMIC,
  AUTOSCALING_V1,
  AUTOSCALING_V2,
  CORE,
  EVENTS,
  LABEL_SELECTOR,
  MICRO_TIME,
  QUANTITY,
  TIME,
  arr,
  condition,
  int,
  int64,
  kind,
  mergeBy,
  obj,
  ref,
  str,
  type Schema,
} from './schema.ts';

const V2 = AUTOSCALING_V2;
const SPEC_AND_STATUS = 'https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';

function hpaSpec(): Record<string, Schema> {
  return {
    [`${V2}HorizontalPodAutoscalerSpec`]: obj(
      'HorizontalPodAutoscalerSpec describes the desired functionality of the HorizontalPodAutoscaler.',
      {
        behavior: ref(`${V2}HorizontalPodAutoscalerBehavior`, 'behavior configures the scaling behavior of the target in both Up and Down directions (scaleUp and scaleDown fields respectively). If not set, the default HPAScalingRules for scale up and scale down are used.'),
        maxReplicas: int('maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.'),
        metrics: arr(
          ref(`${V2}MetricSpec`),
          'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used). The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods. If not set, the default metric will be set to 80% average CPU utilization.',
          ATOMIC,
        ),
        minReplicas: int('minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.'),
        scaleTargetRef: ref(`${V2}CrossVersionObjectReference`, 'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.'),
      },
      { required: ['scaleTargetRef', 'maxReplicas'] },
    ),
    [`${V2}CrossVersionObjectReference`]: obj(
      'CrossVersionObjectReference contains enough information to let you identify the referred resource.',
      {
        apiVersion: str('apiVersion is the API version of the referent'),
        kind: str('kind is the kind of the referent; More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds'),
        name: str('name is the name of the referent; More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names/#names'),
      },
      { required: ['kind', 'name'] },
    ),
    [`${V2}HorizontalPodAutoscalerBehavior`]: obj('HorizontalPodAutoscalerBehavior configures the scaling behavior of the target in both Up and Down directions (scaleUp and scaleDown fields respectively).', {
      scaleDown: ref(`${V2}HPAScalingRules`, 'scaleDown is scaling policy for scaling Down. If not set, the default value is to allow to scale down to minReplicas pods, with a 300 second stabilization window.'),
      scaleUp: ref(`${V2}HPAScalingRules`, 'scaleUp is scaling policy for scaling Up. If not set, the default value is the higher of 4 pods or 100% per 15 seconds, with no stabilization window.'),
    }),
    [`${V2}HPAScalingRules`]: obj('HPAScalingRules configures the scaling behavior for one direction via scaling Policy Rules and a configurable metric tolerance.', {
      policies: arr(ref(`${V2}HPAScalingPolicy`), 'policies is a list of potential scaling polices which can be used during scaling.', ATOMIC),
      selectPolicy: str('selectPolicy is used to specify which policy should be used. If not set, the default value Max is used.'),
      stabilizationWindowSeconds: int('stabilizationWindowSeconds is the number of seconds for which past recommendations should be considered while scaling up or scaling down.'),
    }),
    [`${V2}HPAScalingPolicy`]: obj(
      'HPAScalingPolicy is a single policy which must hold true for a specified past interval.',
      {
        periodSeconds: int('periodSeconds specifies the window of time for which the policy should hold true. PeriodSeconds must be greater than zero and less than or equal to 1800 (30 min).'),
        type: str('type is used to specify the scaling policy.'),
        value: int('value contains the amount of change which is permitted by the policy. It must be greater than zero'),
      },
      { required: ['type', 'value', 'periodSeconds'] },
    ),
  };
}

function metrics(): Record<string, Schema> {
  const source = (what: string, fields: Record<string, Schema>, required: string[]): Schema => obj(what, fields, { required });
  const metric = ref(`${V2}MetricIdentifier`, 'metric identifies the target metric by name and selector');
  const target = ref(`${V2}MetricTarget`, 'target specifies the target value for the given metric');
  return {
    [`${V2}MetricSpec`]: obj(
      'MetricSpec specifies how to scale based on a single metric (only `type` and one other matching field should be set at once).',
      {
        containerResource: ref(`${V2}ContainerResourceMetricSource`, 'containerResource refers to a resource metric (such as those specified in requests and limits) known to Kubernetes describing a single container in each pod of the current scale target (e.g. CPU or memory).'),
        external: ref(`${V2}ExternalMetricSource`, 'external refers to a global metric that is not associated with any Kubernetes object.'),
        object: ref(`${V2}ObjectMetricSource`, 'object refers to a metric describing a single kubernetes object (for example, hits-per-second on an Ingress object).'),
        pods: ref(`${V2}PodsMetricSource`, 'pods refers to a metric describing each pod in the current scale target (for example, transactions-processed-per-second).  The values will be averaged together before being compared to the target value.'),
        resource: ref(`${V2}ResourceMetricSource`, 'resource refers to a resource metric (such as those specified in requests and limits) known to Kubernetes describing each pod in the current scale target (e.g. CPU or memory).'),
        type: str('type is the type of metric source.  It should be one of "ContainerResource", "External", "Object", "Pods" or "Resource", each mapping to a matching field in the object.'),
      },
      { required: ['type'] },
    ),
    [`${V2}ResourceMetricSource`]: source(
      'ResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as specified in requests and limits, describing each pod in the current scale target (e.g. CPU or memory).',
      { name: str('name is the name of the resource in question.'), target },
      ['name', 'target'],
    ),
    [`${V2}ContainerResourceMetricSource`]: source(
      'ContainerResourceMetricSource indicates how to scale on a resource metric known to Kubernetes, as specified in requests and limits, describing a single container in each pod of the current scale target.',
      { container: str('container is the name of the container in the pods of the scaling target'), name: str('name is the name of the resource in question.'), target },
      ['name', 'target', 'container'],
    ),
    [`${V2}PodsMetricSource`]: source('PodsMetricSource indicates how to scale on a metric describing each pod in the current scale target (for example, transactions-processed-per-second).', { metric, target }, ['metric', 'target']),
    [`${V2}ExternalMetricSource`]: source('ExternalMetricSource indicates how to scale on a metric not associated with any Kubernetes object.', { metric, target }, ['metric', 'target']),
    [`${V2}ObjectMetricSource`]: source(
      'ObjectMetricSource indicates how to scale on a metric describing a kubernetes object (for example, hits-per-second on an Ingress object).',
      { describedObject: ref(`${V2}CrossVersionObjectReference`, 'describedObject specifies the descriptions of a object,such as kind,name apiVersion'), metric, target },
      ['describedObject', 'target', 'metric'],
    ),
    [`${V2}MetricIdentifier`]: source(
      'MetricIdentifier defines the name and optionally selector for a metric',
      { name: str('name is the name of the given metric'), selector: ref(LABEL_SELECTOR, 'selector is the string-encoded form of a standard kubernetes label selector for the given metric.') },
      ['name'],
    ),
    [`${V2}MetricTarget`]: source(
      'MetricTarget defines the target value, average value, or average utilization of a specific metric',
      {
        averageUtilization: int('averageUtilization is the target value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods. Currently only valid for Resource metric source type'),
        averageValue: ref(QUANTITY, 'averageValue is the target value of the average of the metric across all relevant pods (as a quantity)'),
        type: str('type represents whether the metric type is Utilization, Value, or AverageValue'),
        value: ref(QUANTITY, 'value is the target value of the metric (as a quantity).'),
      },
      ['type'],
    ),
  };
}

function hpaStatus(): Record<string, Schema> {
  return {
    [`${V2}HorizontalPodAutoscalerStatus`]: obj(
      'HorizontalPodAutoscalerStatus describes the current status of a horizontal pod autoscaler.',
      {
        conditions: arr(
          ref(`${V2}HorizontalPodAutoscalerCondition`),
          'conditions is the set of conditions required for this autoscaler to scale its target, and indicates whether or not those conditions are met.',
          mergeBy('type'),
        ),
        currentMetrics: arr(ref(`${V2}MetricStatus`), 'currentMetrics is the last read state of the metrics used by this autoscaler.', ATOMIC),
        currentReplicas: int('currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.'),
        desiredReplicas: int('desiredReplicas is the desired number of replicas of pods managed by this autoscaler, as last calculated by the autoscaler.'),
        lastScaleTime: ref(TIME, 'lastScaleTime is the last time the HorizontalPodAutoscaler scaled the number of pods, used by the autoscaler to control how often the number of pods is changed.'),
        observedGeneration: int64('observedGeneration is the most recent generation observed by this autoscaler.'),
      },
      { required: ['desiredReplicas'] },
    ),
    [`${V2}HorizontalPodAutoscalerCondition`]: condition('HorizontalPodAutoscaler'),
    [`${V2}MetricStatus`]: obj(
      'MetricStatus describes the last-read state of a single metric.',
      {
        resource: ref(`${V2}ResourceMetricStatus`, 'resource refers to a resource metric (such as those specified in requests and limits) known to Kubernetes describing each pod in the current scale target (e.g. CPU or memory).'),
        type: str('type is the type of metric source.  It will be one of "ContainerResource", "External", "Object", "Pods" or "Resource", each corresponds to a matching field in the object.'),
      },
      { required: ['type'] },
    ),
    [`${V2}ResourceMetricStatus`]: obj(
      'ResourceMetricStatus indicates the current value of a resource metric known to Kubernetes, as specified in requests and limits, describing each pod in the current scale target (e.g. CPU or memory).',
      {
        current: ref(`${V2}MetricValueStatus`, 'current contains the current value for the given metric'),
        name: str('name is the name of the resource in question.'),
      },
      { required: ['name', 'current'] },
    ),
    [`${V2}MetricValueStatus`]: obj('MetricValueStatus holds the current value for a metric', {
      averageUtilization: int('currentAverageUtilization is the current value of the average of the resource metric across all relevant pods, represented as a percentage of the requested value of the resource for the pods.'),
      averageValue: ref(QUANTITY, 'averageValue is the current value of the average of the metric across all relevant pods (as a quantity)'),
      value: ref(QUANTITY, 'value is the current value of the metric (as a quantity).'),
    }),
  };
}

function scaleDefinitions(): Record<string, Schema> {
  return {
    [`${AUTOSCALING_V1}Scale`]: kind({ group: 'autoscaling', kind: 'Scale', version: 'v1' }, 'Scale represents a scaling request for a resource.', {
      spec: ref(`${AUTOSCALING_V1}ScaleSpec`, `spec defines the behavior of the scale. More info: ${SPEC_AND_STATUS}.`),
      status: ref(`${AUTOSCALING_V1}ScaleStatus`, `status is the current status of the scale. More info: ${SPEC_AND_STATUS}. Read-only.`),
    }),
    [`${AUTOSCALING_V1}ScaleSpec`]: obj('ScaleSpec describes the attributes of a scale subresource.', { replicas: int('replicas is the desired number of instances for the scaled object.') }),
    [`${AUTOSCALING_V1}ScaleStatus`]: obj(
      'ScaleStatus represents the current status of a scale subresource.',
      {
        replicas: int('replicas is the actual number of observed instances of the scaled object.'),
        selector: str('selector is the label query over pods that should match the replicas count. This is same as the label selector but in the string format to avoid introspection by clients. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels#label-selectors'),
      },
      { required: ['replicas'] },
    ),
  };
}

function eventsDefinitions(): Record<string, Schema> {
  return {
    [`${EVENTS}Event`]: kind(
      { group: 'events.k8s.io', kind: 'Event', version: 'v1' },
      'Event is a report of an event somewhere in the cluster. It generally denotes some state change in the system. Events have a limited retention time and triggers and messages may evolve with time.  Event consumers should not rely on the timing of an event with a given Reason reflecting a consistent underlying trigger, or the continued existence of events with that Reason.',
      {
        action: str('action is what action was taken/failed regarding to the regarding object. It is machine-readable. This field cannot be empty for new Events and it can have at most 128 characters.'),
        deprecatedCount: int('deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.'),
        deprecatedFirstTimestamp: ref(TIME, 'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.'),
        deprecatedLastTimestamp: ref(TIME, 'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.'),
        deprecatedSource: ref(`${CORE}EventSource`, 'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.'),
        eventTime: ref(MICRO_TIME, 'eventTime is the time when this Event was first observed. It is required.'),
        note: str('note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.'),
        reason: str('reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.'),
        regarding: ref(
          `${CORE}ObjectReference`,
          "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object.",
        ),
        related: ref(`${CORE}ObjectReference`, 'related is the optional secondary object for more complex actions. E.g. when regarding object triggers a creation or deletion of related object.'),
        reportingController: str('reportingController is the name of the controller that emitted this Event, e.g. `kubernetes.io/kubelet`. This field cannot be empty for new Events.'),
        reportingInstance: str('reportingInstance is the ID of the controller instance, e.g. `kubelet-xyzf`. This field cannot be empty for new Events and it can have at most 128 characters.'),
        series: ref(`${EVENTS}EventSeries`, "series is data about the Event series this event represents or nil if it's a singleton Event."),
        type: str('type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.'),
      },
      ['eventTime'],
    ),
    [`${EVENTS}EventSeries`]: obj(
      'EventSeries contain information on series of events, i.e. thing that was/is happening continuously for some time. How often to update the EventSeries is up to the event reporters.',
      {
        count: int('count is the number of occurrences in this series up to the last heartbeat time.'),
        lastObservedTime: ref(MICRO_TIME, 'lastObservedTime is the time when last Event from the series was seen before last heartbeat.'),
      },
      { required: ['count', 'lastObservedTime'] },
    ),
  };
}

/** autoscaling/v2 HPA, autoscaling/v1 Scale and events.k8s.io/v1 Event definitions. */
export function autoscalingEventsDefinitions(): Record<string, Schema> {
  return {
    [`${V2}HorizontalPodAutoscaler`]: kind(
      { group: 'autoscaling', kind: 'HorizontalPodAutoscaler', version: 'v2' },
      'HorizontalPodAutoscaler is the configuration for a horizontal pod autoscaler, which automatically manages the replica count of any resource implementing the scale subresource based on the metrics specified.',
      {
        spec: ref(`${V2}HorizontalPodAutoscalerSpec`, `spec is the specification for the behaviour of the autoscaler. More info: ${SPEC_AND_STATUS}.`),
        status: ref(`${V2}HorizontalPodAutoscalerStatus`, 'status is the current information about the autoscaler.'),
      },
    ),
    ...hpaSpec(),
    ...metrics(),
    ...hpaStatus(),
    ...scaleDefinitions(),
    ...eventsDefinitions(),
  };
}
