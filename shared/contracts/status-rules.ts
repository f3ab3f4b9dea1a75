/**
 * The status vocabulary every kind shares (shared/object-status.ts) and the rules a user adds
 * for a kind in Settings: "when condition X is Y (with reason Z), this kind is in state S".
 * Settings sends these over the contract, so the engine parses them with these schemas.
 */
import { z } from 'zod';

/**
 * Where an object stands between desired and actual, kstatus' states in the app's words:
 * - `terminating`: deletion requested, finalizers still running;
 * - `unobserved`: the controller has not yet seen the latest spec (observedGeneration behind);
 * - `progressing`: a controller says it is working towards the spec;
 * - `drifting`: desired and actual differ and nothing says a controller is on it;
 * - `failed`: a controller gave up or reports an error;
 * - `suspended`: reconciling was paused on purpose (spec.suspend, a paused rollout);
 * - `current`: actual matches desired, as the object's controller reports it;
 * - `none`: the object reports no status signal. Shown neutral, never as healthy.
 */
export const OBJECT_STATES = ['terminating', 'unobserved', 'progressing', 'drifting', 'failed', 'suspended', 'current', 'none'] as const;
export const ObjectStateSchema = z.enum(OBJECT_STATES);
export type ObjectState = z.infer<typeof ObjectStateSchema>;

/** The states a user rule may give: the first two come only from metadata and status.observedGeneration. */
export const USER_RULE_STATES = ['progressing', 'drifting', 'failed', 'suspended', 'current', 'none'] as const;

/** The `status` of a condition (metav1.ConditionStatus). */
export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
export type ConditionStatus = (typeof CONDITION_STATUSES)[number];

/** An API group, "" or "core" for the core group, or "*.suffix" for every group under a domain. */
const GROUP_PATTERN = /^(\*\.)?([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)?$/;
/** A Kind as the API spells it (CamelCase, starting with a capital letter). */
const KIND_PATTERN = /^[A-Z][A-Za-z0-9]*$/;
/** metav1.Condition's type: an optional DNS prefix and a name. */
const CONDITION_TYPE_PATTERN = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
/** metav1.Condition's reason: CamelCase, digits, `_`, `,` and `:`. */
const CONDITION_REASON_PATTERN = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;

/** One user rule: the kind it applies to, the condition it reads, and the state that condition means. */
export const UserStatusRuleSchema = z.strictObject({
  group: z
    .string()
    .max(253, { error: 'group is longer than an API group can be (253 characters)' })
    .regex(GROUP_PATTERN, { error: 'group must be an API group such as "cert-manager.io", "" or "core" for the core group, or "*.example.com" for every group under a domain' }),
  kind: z.string().max(63, { error: 'kind is longer than 63 characters' }).regex(KIND_PATTERN, { error: 'kind must be a Kind as the API spells it, such as "Certificate"' }),
  conditionType: z
    .string()
    .max(316, { error: 'conditionType is longer than a condition type can be (316 characters)' })
    .regex(CONDITION_TYPE_PATTERN, { error: 'conditionType must be a condition type such as "Ready" or "example.com/Synced"' }),
  conditionStatus: z.enum(CONDITION_STATUSES, { error: 'conditionStatus must be "True", "False" or "Unknown"' }).optional(),
  reason: z
    .string()
    .max(1024, { error: 'reason is longer than a condition reason can be (1024 characters)' })
    .regex(CONDITION_REASON_PATTERN, { error: 'reason must be a condition reason such as "ReconcileError" (CamelCase)' })
    .optional(),
  state: z.enum(USER_RULE_STATES, { error: `state must be one of ${USER_RULE_STATES.join(', ')}` }),
});
export type UserStatusRule = z.infer<typeof UserStatusRuleSchema>;

/** Most rules a user keeps; each is read for every object of its kind. */
export const MAX_USER_STATUS_RULES = 500;

export const UserStatusRulesSchema = z.array(UserStatusRuleSchema).max(MAX_USER_STATUS_RULES, { error: `at most ${MAX_USER_STATUS_RULES} status rules` });
