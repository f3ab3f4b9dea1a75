/**
 * The graph part of the IPC contract (merged into shared/contract.ts): the ownership graph of a
 * namespace or of one focused object (ownerReferences of any kind, custom resources included,
 * Service selectors, HPA targets, the node a pod runs on, the ConfigMaps, Secrets, claims and
 * ServiceAccount a pod uses), live or at a past time, with pods beyond a threshold collapsed into group nodes
 * so a namespace of 10,000 pods stays a message of a few hundred nodes; and one object's spec
 * against its status for the side panel. `graph:changed` tells the view when to ask again, so the
 * renderer never polls.
 */
import { z } from 'zod';

/** How a node is doing, the graph's colours. `neutral`: done, suspended, scaled to 0. */
export const GRAPH_HEALTHS = ['ready', 'progressing', 'drifting', 'failing', 'neutral', 'unknown'] as const;
export const GraphHealthSchema = z.enum(GRAPH_HEALTHS);
export type GraphHealth = z.infer<typeof GraphHealthSchema>;

/**
 * What is odd about a node:
 * - `dangling-owner`: an ownerReference names an object of a watched kind that is not in the cluster;
 * - `missing`: this node stands for such an absent owner (or an HPA's absent target);
 * - `external`: an owner of a kind the app does not watch (excluded, forbidden or not served), known only by its reference;
 * - `orphan`: carries a controller's labels (pod-template-hash, controller-revision-hash, job-name) but no controller owns it;
 * - `unmanaged`: a bare pod no controller will replace;
 * - `selects-nothing`: a Service whose selector matches no pod;
 * - `missing-target`: an HPA whose scaleTargetRef is not in the cluster;
 * - `deleting`: has a deletionTimestamp.
 */
export const GRAPH_FLAGS = ['dangling-owner', 'missing', 'external', 'orphan', 'unmanaged', 'selects-nothing', 'missing-target', 'deleting'] as const;
export const GraphFlagSchema = z.enum(GRAPH_FLAGS);
export type GraphFlag = z.infer<typeof GraphFlagSchema>;

/** A collapsed set of siblings: pods of one owner, or a Deployment's scaled-down ReplicaSets. */
export const GraphGroupSchema = z.object({
  /** `Pod` or `ReplicaSet`. */
  of: z.string(),
  count: z.number().int(),
  /** Pods by status.phase (Running, Pending, Succeeded, Failed, Unknown); ReplicaSets by health. */
  byPhase: z.record(z.string(), z.number().int()),
  byHealth: z.partialRecord(GraphHealthSchema, z.number().int()),
  /** Distinct nodes the grouped pods run on. */
  nodes: z.number().int(),
  /** false for the remainder of an expanded group that hit the per-group limit. */
  expandable: z.boolean(),
});
export type GraphGroup = z.infer<typeof GraphGroupSchema>;

export const GraphNodeSchema = z.object({
  /** The object's uid; `group:<owner uid>:<of>` for groups; `ref:<uid>` for absent or external owners. */
  id: z.string(),
  /** The Kubernetes kind, or `Group`. */
  kind: z.string(),
  /**
   * The kind key (shared/kinds.ts: `pods`, `jobs.batch`, `databases.db.kubedrift.dev`) when the
   * engine knows the kind: it tells a custom `Job` from a batch Job, which `kind` cannot.
   */
  kindKey: z.string().optional(),
  name: z.string(),
  namespace: z.string().optional(),
  health: GraphHealthSchema,
  /** One line: Running, 2/3 ready, Rolling out, 4 pods... */
  status: z.string(),
  /** A second line where one helps: the image tag, the schedule, the replica range. */
  detail: z.string().optional(),
  flags: z.array(GraphFlagSchema),
  /** The node that places this one in the layout (its controller owner, a group's owner). */
  parent: z.string().optional(),
  /** creationTimestamp (ms), for a stable order of siblings; absent for groups and references. */
  created: z.number().optional(),
  group: GraphGroupSchema.optional(),
});
export type GraphNode = z.infer<typeof GraphNodeSchema>;

/**
 * owns: ownerReference (owner -> dependent); selects: Service -> pod; scales: HPA -> target;
 * runs-on: pod -> Node; uses: pod -> the ConfigMap, Secret, PersistentVolumeClaim or
 * ServiceAccount its spec names (volumes, projected sources, envFrom, env, imagePullSecrets,
 * serviceAccountName).
 */
export const GRAPH_EDGE_TYPES = ['owns', 'selects', 'scales', 'runs-on', 'uses'] as const;
export const GraphEdgeSchema = z.object({
  from: z.string(),
  to: z.string(),
  type: z.enum(GRAPH_EDGE_TYPES),
});
export type GraphEdge = z.infer<typeof GraphEdgeSchema>;
export type GraphEdgeType = GraphEdge['type'];

export const GraphStatsSchema = z.object({
  /** Objects in scope (before collapsing), pods among them. */
  objects: z.number().int(),
  pods: z.number().int(),
  /** Nodes and groups in this answer. */
  shown: z.number().int(),
  groups: z.number().int(),
  byHealth: z.partialRecord(GraphHealthSchema, z.number().int()),
  danglingOwners: z.number().int(),
  orphans: z.number().int(),
  /** Cluster nodes the pods run on that were left out because there are too many to draw. */
  hiddenNodes: z.number().int(),
  buildMs: z.number(),
});
export type GraphStats = z.infer<typeof GraphStatsSchema>;

export const GraphRequestSchema = z
  .object({
    /** One namespace; absent: every namespace. Ignored with `focus`. */
    namespace: z.string().max(253).optional(),
    /** The uid of the object to focus on: its owners, its whole subtree, the Services and HPAs on it. */
    focus: z.string().min(1).max(128).optional(),
    /** Group ids (from `GraphNode.id`) to show member by member. */
    expand: z.array(z.string().max(300)).max(200).optional(),
    /** A past time (ms since the epoch) from the timeline; absent: live. */
    at: z.number().optional(),
  })
  .strict();
export type GraphRequest = z.infer<typeof GraphRequestSchema>;

export const GraphResultSchema = z.object({
  context: z.string().nullable(),
  namespace: z.string().nullable(),
  focus: z.string().nullable(),
  /** The moment shown: null live, else the recorded moment nearest the asked time. */
  at: z.number().nullable(),
  /** The engine's change revision the graph was built at (live only; compare with `graph:changed`). */
  revision: z.number().int(),
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
  stats: GraphStatsSchema,
  /** Some top-level workloads were left out (too many to draw); `message` says how many. */
  truncated: z.boolean(),
  message: z.string().optional(),
});
export type GraphResult = z.infer<typeof GraphResultSchema>;

/** One desired-vs-actual line of the side panel: `Replicas 3 | 2 ready`. */
export const GraphPairSchema = z.object({
  field: z.string(),
  desired: z.string(),
  actual: z.string(),
  /** false: the two disagree (the panel marks the line). */
  match: z.boolean(),
});
export type GraphPair = z.infer<typeof GraphPairSchema>;

export const GraphConditionSchema = z.object({
  type: z.string(),
  status: z.string(),
  reason: z.string().optional(),
  message: z.string().optional(),
  /** lastTransitionTime (ms). */
  lastTransition: z.number().optional(),
});

export const GraphEventSchema = z.object({
  type: z.string(),
  reason: z.string(),
  message: z.string(),
  count: z.number().int(),
  /** Last seen (ms), NaN-free: 0 when the Event carries no time. */
  last: z.number(),
  source: z.string(),
});
export type GraphEvent = z.infer<typeof GraphEventSchema>;

export const GraphObjectSchema = z.object({
  at: z.number().nullable(),
  node: GraphNodeSchema,
  apiVersion: z.string(),
  uid: z.string(),
  labels: z.record(z.string(), z.string()),
  owners: z.array(z.object({ kind: z.string(), name: z.string(), uid: z.string(), present: z.boolean() })),
  /** Why it is not in sync (the Overview's drift reasons), worst first. */
  reasons: z.array(z.string()),
  pairs: z.array(GraphPairSchema),
  /** The slim object's spec and status, shown side by side. */
  spec: z.unknown(),
  status: z.unknown(),
  conditions: z.array(GraphConditionSchema),
  /** Events about the object, newest first (at most 30). */
  events: z.array(GraphEventSchema),
});
export type GraphObject = z.infer<typeof GraphObjectSchema>;

/** Per namespace (`''` for cluster-scoped objects): a counter bumped when its graph changed. */
export const GraphChangedSchema = z.object({
  context: z.string().nullable(),
  revision: z.number().int(),
  objects: z.record(z.string(), z.number().int()),
  /** Bumped when Events about objects of the namespace arrive (the side panel's list). */
  events: z.record(z.string(), z.number().int()),
});
export type GraphChanged = z.infer<typeof GraphChangedSchema>;

export const graphRequests = {
  /** The graph of a namespace (or all) or of one focused object, collapsed to stay drawable. */
  'graph:get': { request: GraphRequestSchema, response: GraphResultSchema },
  /** One object for the side panel: spec vs status, conditions, recent Events. */
  'graph:object': {
    request: z.object({ uid: z.string().min(1).max(128), at: z.number().optional() }).strict(),
    response: GraphObjectSchema,
  },
} as const;

export const graphStreams = {
  /** Throttled change counters of the live graph (kept: a late subscriber gets the latest). */
  'graph:changed': GraphChangedSchema,
} as const;
