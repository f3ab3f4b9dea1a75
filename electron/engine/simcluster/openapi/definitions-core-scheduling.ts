/** core/v1 scheduling constraints a PodSpec carries: affinity, tolerations, topology spread. */
import { ATOMIC, ATOMIC_MAP, CORE, LABEL_SELECTOR, arr, int, int64, obj, ref, str, strs, type Schema } from './schema.ts';

function nodeAffinity(): Record<string, Schema> {
  return {
    [`${CORE}NodeAffinity`]: obj('Node affinity is a group of node affinity scheduling rules.', {
      preferredDuringSchedulingIgnoredDuringExecution: arr(
        ref(`${CORE}PreferredSchedulingTerm`),
        'The scheduler will prefer to schedule pods to nodes that satisfy the affinity expressions specified by this field, but it may choose a node that violates one or more of the expressions.',
        ATOMIC,
      ),
      requiredDuringSchedulingIgnoredDuringExecution: ref(
        `${CORE}NodeSelector`,
        'If the affinity requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.',
      ),
    }),
    [`${CORE}NodeSelector`]: obj(
      'A node selector represents the union of the results of one or more label queries over a set of nodes; that is, it represents the OR of the selectors represented by the node selector terms.',
      { nodeSelectorTerms: arr(ref(`${CORE}NodeSelectorTerm`), 'Required. A list of node selector terms. The terms are ORed.', ATOMIC) },
      { required: ['nodeSelectorTerms'], extra: ATOMIC_MAP },
    ),
    [`${CORE}NodeSelectorTerm`]: obj(
      'A null or empty node selector term matches no objects. The requirements of them are ANDed.',
      {
        matchExpressions: arr(ref(`${CORE}NodeSelectorRequirement`), "A list of node selector requirements by node's labels.", ATOMIC),
        matchFields: arr(ref(`${CORE}NodeSelectorRequirement`), "A list of node selector requirements by node's fields.", ATOMIC),
      },
      { extra: ATOMIC_MAP },
    ),
    [`${CORE}NodeSelectorRequirement`]: obj(
      'A node selector requirement is a selector that contains values, a key, and an operator that relates the key and values.',
      {
        key: str('The label key that the selector applies to.'),
        operator: str("Represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. Gt, and Lt.", {
          enum: ['DoesNotExist', 'Exists', 'Gt', 'In', 'Lt', 'NotIn'],
        }),
        values: strs('An array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.', ATOMIC),
      },
      { required: ['key', 'operator'] },
    ),
    [`${CORE}PreferredSchedulingTerm`]: obj(
      "An empty preferred scheduling term matches all objects with implicit weight 0 (i.e. it's a no-op). A null preferred scheduling term matches no objects (i.e. is also a no-op).",
      {
        preference: ref(`${CORE}NodeSelectorTerm`, 'A node selector term, associated with the corresponding weight.'),
        weight: int('Weight associated with matching the corresponding nodeSelectorTerm, in the range 1-100.'),
      },
      { required: ['weight', 'preference'] },
    ),
  };
}

function podAffinity(): Record<string, Schema> {
  const rules = (what: string): Record<string, Schema> => ({
    preferredDuringSchedulingIgnoredDuringExecution: arr(
      ref(`${CORE}WeightedPodAffinityTerm`),
      `The scheduler will prefer to schedule pods to nodes that satisfy the ${what} expressions specified by this field, but it may choose a node that violates one or more of the expressions.`,
      ATOMIC,
    ),
    requiredDuringSchedulingIgnoredDuringExecution: arr(
      ref(`${CORE}PodAffinityTerm`),
      `If the ${what} requirements specified by this field are not met at scheduling time, the pod will not be scheduled onto the node.`,
      ATOMIC,
    ),
  });
  return {
    [`${CORE}PodAffinity`]: obj('Pod affinity is a group of inter pod affinity scheduling rules.', rules('affinity')),
    [`${CORE}PodAntiAffinity`]: obj('Pod anti affinity is a group of inter pod anti affinity scheduling rules.', rules('anti-affinity')),
    [`${CORE}PodAffinityTerm`]: obj(
      'Defines a set of pods (namely those matching the labelSelector relative to the given namespace(s)) that this pod should be co-located (affinity) or not co-located (anti-affinity) with, where co-located is defined as running on a node whose value of the label with key <topologyKey> matches that of any node on which a pod of the set of pods is running',
      {
        labelSelector: ref(LABEL_SELECTOR, 'A label query over a set of resources, in this case pods. If it\'s null, this PodAffinityTerm matches with no Pods.'),
        namespaceSelector: ref(LABEL_SELECTOR, 'A label query over the set of namespaces that the term applies to.'),
        namespaces: strs('namespaces specifies a static list of namespace names that the term applies to. null or empty namespaces list and null namespaceSelector means "this pod\'s namespace".', ATOMIC),
        topologyKey: str(
          'This pod should be co-located (affinity) or not co-located (anti-affinity) with the pods matching the labelSelector in the specified namespaces, where co-located is defined as running on a node whose value of the label with key topologyKey matches that of any node on which any of the selected pods is running. Empty topologyKey is not allowed.',
        ),
      },
      { required: ['topologyKey'] },
    ),
    [`${CORE}WeightedPodAffinityTerm`]: obj(
      'The weights of all of the matched WeightedPodAffinityTerm fields are added per-node to find the most preferred node(s)',
      {
        podAffinityTerm: ref(`${CORE}PodAffinityTerm`, 'Required. A pod affinity term, associated with the corresponding weight.'),
        weight: int('weight associated with matching the corresponding podAffinityTerm, in the range 1-100.'),
      },
      { required: ['weight', 'podAffinityTerm'] },
    ),
  };
}

/** Affinity, Toleration and TopologySpreadConstraint with what they reference. */
export function schedulingDefinitions(): Record<string, Schema> {
  return {
    [`${CORE}Affinity`]: obj('Affinity is a group of affinity scheduling rules.', {
      nodeAffinity: ref(`${CORE}NodeAffinity`, 'Describes node affinity scheduling rules for the pod.'),
      podAffinity: ref(`${CORE}PodAffinity`, 'Describes pod affinity scheduling rules (e.g. co-locate this pod in the same node, zone, etc. as some other pod(s)).'),
      podAntiAffinity: ref(`${CORE}PodAntiAffinity`, 'Describes pod anti-affinity scheduling rules (e.g. avoid putting this pod in the same node, zone, etc. as some other pod(s)).'),
    }),
    ...nodeAffinity(),
    ...podAffinity(),
    [`${CORE}Toleration`]: obj('The pod this Toleration is attached to tolerates any taint that matches the triple <key,value,effect> using the matching operator <operator>.', {
      effect: str('Effect indicates the taint effect to match. Empty means match all taint effects. When specified, allowed values are NoSchedule, PreferNoSchedule and NoExecute.', {
        enum: ['NoExecute', 'NoSchedule', 'PreferNoSchedule'],
      }),
      key: str('Key is the taint key that the toleration applies to. Empty means match all taint keys. If the key is empty, operator must be Exists; this combination means to match all values and all keys.'),
      operator: str(
        "Operator represents a key's relationship to the value. Valid operators are Exists and Equal. Defaults to Equal. Exists is equivalent to wildcard for value, so that a pod can tolerate all taints of a particular category.",
        { enum: ['Equal', 'Exists'] },
      ),
      tolerationSeconds: int64(
        'TolerationSeconds represents the period of time the toleration (which must be of effect NoExecute, otherwise this field is ignored) tolerates the taint. By default, it is not set, which means tolerate the taint forever (do not evict).',
      ),
      value: str('Value is the taint value the toleration matches to. If the operator is Exists, the value should be empty, otherwise just a regular string.'),
    }),
    [`${CORE}TopologySpreadConstraint`]: obj(
      'TopologySpreadConstraint specifies how to spread matching pods among the given topology.',
      {
        labelSelector: ref(LABEL_SELECTOR, 'LabelSelector is used to find matching pods. Pods that match this label selector are counted to determine the number of pods in their corresponding topology domain.'),
        maxSkew: int('MaxSkew describes the degree to which pods may be unevenly distributed. It is the maximum permitted difference between the number of matching pods in the target topology and the global minimum.'),
        topologyKey: str('TopologyKey is the key of node labels. Nodes that have a label with this key and identical values are considered to be in the same topology.'),
        whenUnsatisfiable: str(
          "WhenUnsatisfiable indicates how to deal with a pod if it doesn't satisfy the spread constraint. DoNotSchedule (default) tells the scheduler not to schedule it; ScheduleAnyway tells the scheduler to schedule the pod in any location, but giving higher precedence to topologies that would help reduce the skew.",
          { enum: ['DoNotSchedule', 'ScheduleAnyway'] },
        ),
      },
      { required: ['maxSkew', 'topologyKey', 'whenUnsatisfiable'] },
    ),
  };
}
