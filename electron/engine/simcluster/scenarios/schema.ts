/**
 * The scenario file's header document (`kind: Scenario`): nodes, namespaces, simulation speed
 * and the timeline. Schemas are strict so a misspelt key fails loudly with its path and line
 * instead of being ignored.
 */
import { z } from 'zod';
import { CronError, parseGoDuration } from '../controllers/cron.ts';
import { RESOURCE_TYPES, type ResourceType } from '../resources.ts';
import type { IncomingObject } from '../types.ts';

const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/;
const QUANTITY = /^\d+(\.\d+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

const name = z.string().regex(NAME, 'must be a lowercase RFC 1123 name (a-z, 0-9, "-", ".")');
const quantity = z.union([z.number().positive(), z.string().regex(QUANTITY, 'must be a Kubernetes quantity like "4", "500m", "16Gi"')]).transform(String);

/** A Go duration string (`30s`, `5m`, `1h30m`) as milliseconds. */
export const durationMs = z.string().transform((text, ctx) => {
  try {
    return parseGoDuration(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `${error instanceof CronError ? error.message : String(error)} (use a duration like 30s, 5m or 1h30m)` });
    return z.NEVER;
  }
});

const taint = z.strictObject({
  key: z.string().min(1),
  value: z.string().optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']),
});

/** One `spec.nodes` entry. */
export const nodeSchema = z.strictObject({
  name,
  cpu: quantity.default('4'),
  memory: quantity.default('16Gi'),
  pods: z.number().int().positive().default(110),
  /** `control-plane` adds the role label and the NoSchedule taint kubeadm puts on such nodes. */
  role: z.enum(['control-plane', 'worker']).default('worker'),
  zone: z.string().optional(),
  labels: z.record(z.string(), z.string()).default({}),
  taints: z.array(taint).default([]),
});

/** The served kind a kubectl-style word names: `deployment`, `deploy`, `deployments`, `Deployment`. */
function kindByWord(word: string): ResourceType | undefined {
  const w = word.toLowerCase();
  const [bare = '', group] = w.split(/\.(.*)/);
  return RESOURCE_TYPES.find(
    (t) => (group === undefined || t.group === group) && (t.kind.toLowerCase() === bare || t.plural === bare || t.singular === bare || t.shortNames.includes(bare)),
  );
}

/** The object a timeline action is about. */
export interface Target {
  type: ResourceType;
  name: string;
}

/** `deployment/cart`, `sts/postgres`, `pod/web-0`: a kind (any spelling kubectl accepts) and a name. */
const target = z.string().transform((text, ctx): Target => {
  const m = /^([A-Za-z.]+)\/([a-z0-9]([-a-z0-9.]*[a-z0-9])?)$/.exec(text);
  const type = m ? kindByWord(m[1] ?? '') : undefined;
  if (!m || !type) {
    ctx.addIssue({ code: 'custom', message: m ? `unknown kind "${m[1]}" in "${text}"` : `must be kind/name, like deployment/cart (got "${text}")` });
    return z.NEVER;
  }
  return { type, name: m[2] ?? '' };
});
const namespace = name.default('default');

/** The payload schema of each timeline action, by its key in a timeline entry. */
export const actionSchemas = {
  apply: z.looseObject({ apiVersion: z.string(), kind: z.string(), metadata: z.looseObject({ name }) }),
  setImage: z.strictObject({ target, namespace, container: z.string().min(1), image: z.string().min(1) }),
  scale: z.strictObject({ target, namespace, replicas: z.number().int().min(0) }),
  deletePod: z.strictObject({ namespace, selector: z.string().min(1) }),
  delete: z.strictObject({ target, namespace }),
  nodeNotReady: name,
  nodeReady: name,
  setLoad: z.strictObject({ target, namespace, cpu: z.number().min(0).max(10_000) }),
  runJob: z.strictObject({ namespace, cronJob: name, name: name.optional() }),
  pauseRollout: z.strictObject({ target, namespace }),
  resumeRollout: z.strictObject({ target, namespace }),
  metricsUnavailable: z.strictObject({ target, namespace }),
} as const;

/** The key naming an action in a timeline entry. */
export type ActionKey = keyof typeof actionSchemas;
/** Every action key, in the order error messages list them. */
export const ACTION_KEYS = Object.keys(actionSchemas) as ActionKey[];

type Payload<K extends ActionKey> = z.output<(typeof actionSchemas)[K]>;

/** A timeline action, discriminated by `type` (the key it had in the file). */
export type TimelineAction =
  | { type: 'apply'; manifest: IncomingObject }
  | ({ type: 'setImage' } & Payload<'setImage'>)
  | ({ type: 'scale' } & Payload<'scale'>)
  | ({ type: 'deletePod' } & Payload<'deletePod'>)
  | ({ type: 'delete' } & Payload<'delete'>)
  | { type: 'nodeNotReady' | 'nodeReady'; node: string }
  | ({ type: 'setLoad' } & Payload<'setLoad'>)
  | ({ type: 'runJob' } & Payload<'runJob'>)
  | ({ type: 'pauseRollout' | 'resumeRollout' } & Payload<'pauseRollout'>)
  | ({ type: 'metricsUnavailable' } & Payload<'metricsUnavailable'>);

/** Timing keys of a timeline entry, besides its one action key. */
export const entryTimingSchema = z.strictObject({
  at: durationMs.optional(),
  every: durationMs.optional(),
  note: z.string().optional(),
});

const kubeletSchema = z
  .strictObject({
    /** Image pull duration. */
    pullDelay: durationMs.optional(),
    /** Sandbox and container start. */
    startDelay: durationMs.optional(),
    /** From container start to Ready. */
    readinessDelay: durationMs.optional(),
    /** How long Job pods run before exiting 0. */
    jobRun: durationMs.optional(),
    /** How long a `:crash` image runs before exiting 1. */
    crashAfter: durationMs.optional(),
    /** From deletion to the pod being gone. */
    killDelay: durationMs.optional(),
  })
  .default({});

/** `spec.kubelet`, in milliseconds. */
export type KubeletTimings = z.output<typeof kubeletSchema>;

/** `spec.history`: start as a cluster that has run for `age` (scenarios/aging.ts). */
const historySchema = z.strictObject({
  age: durationMs,
  /** Where the aged workloads live (created if missing). */
  namespace: name.default('history'),
  /** Deployment revisions left behind, the last current. */
  revisions: z.number().int().min(1).max(10).default(3),
});

/** `spec.history`, the age in milliseconds. */
export type HistorySpec = z.output<typeof historySchema>;

/** The Scenario header document. */
export const headerSchema = z.strictObject({
  apiVersion: z.literal('simcluster.kubedrift.dev/v1alpha1'),
  kind: z.literal('Scenario'),
  metadata: z.strictObject({ name, description: z.string().default('') }),
  spec: z.strictObject({
    /** Multiplies every simulated delay's speed: 2 runs the timeline and controllers twice as fast. */
    speed: z.number().positive().max(1000).default(1),
    /** The version the control plane reports (`v1.32.2`); controllers pick version-specific texts. */
    kubernetesVersion: z.string().regex(/^v1\.\d+\.\d+$/, 'must look like v1.32.2').optional(),
    /** Kubelet timing (simulated time, before speed is applied). */
    kubelet: kubeletSchema,
    nodes: z.array(nodeSchema).min(1, 'a scenario needs at least one node'),
    namespaces: z.array(name).default([]),
    /** The demo operators to run besides the built-in controllers (they act on their CRDs' kinds). */
    operators: z.array(z.enum(['certificates', 'databases'])).default([]),
    /** Checked entry by entry (see actionSchemas) so errors point at the entry. */
    timeline: z.array(z.record(z.string(), z.unknown())).default([]),
    history: historySchema.optional(),
  }),
});

/** A `spec.nodes` entry with its defaults. */
export type ScenarioNode = z.output<typeof nodeSchema>;
