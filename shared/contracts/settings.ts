/**
 * What `settings:update` accepts: the preferences, one context's kind exclusion rules (or null to
 * go back to the defaults), one context's hand-added namespaces, and the user's status rules. The engine parses every update with
 * this schema, so a rule the renderer let through still gets a clear refusal.
 */
import { z } from 'zod';
import { AccessibleNamespacesSchema } from '../access.ts';
import { KindExclusionListSchema } from '../kind-exclusions.ts';
import { SettingsSchema, ThemeSchema, type Settings } from '../model.ts';
import { UserStatusRulesSchema } from './status-rules.ts';

/** Most exclusion rules one context keeps (each is checked against every discovered kind). */
export const MAX_KIND_EXCLUSIONS = 200;

/** One context's exclusion rules; `rules: null` forgets them, so the context has the defaults again. */
export const KindExclusionsPatchSchema = z.strictObject({
  context: z.string().min(1, { error: 'context must name a context' }).max(253),
  rules: KindExclusionListSchema.max(MAX_KIND_EXCLUSIONS, { error: `at most ${MAX_KIND_EXCLUSIONS} exclusion rules per context` }).nullable(),
});
export type KindExclusionsPatch = z.infer<typeof KindExclusionsPatchSchema>;

/** One context's hand-added namespaces; an empty list forgets them. */
export const AccessibleNamespacesPatchSchema = z.strictObject({
  context: z.string().min(1, { error: 'context must name a context' }).max(253),
  namespaces: AccessibleNamespacesSchema,
});
export type AccessibleNamespacesPatch = z.infer<typeof AccessibleNamespacesPatchSchema>;

export const SettingsUpdateSchema = SettingsSchema.pick({ historyRecording: true, historyRetentionDays: true, historyMaxBytes: true, historyStore: true, historyTakeoverSeconds: true, updateChecks: true, backgroundContexts: true })
  .extend({ theme: ThemeSchema.optional(), kindExclusions: KindExclusionsPatchSchema.optional(), accessibleNamespaces: AccessibleNamespacesPatchSchema.optional(), statusRules: UserStatusRulesSchema.optional() })
  .strict();
export type SettingsUpdate = z.infer<typeof SettingsUpdateSchema>;

/**
 * The settings after an update, as the engine stores them: preferences replace theirs, one
 * context's kind exclusion rules replace that context's (null rules forget them: the defaults
 * apply again) and one context's hand-added namespaces replace that context's (an empty list
 * forgets them). Pure, so the engine and the renderer's tests merge alike.
 */
export function applySettingsUpdate(current: Settings, update: SettingsUpdate): Settings {
  const { kindExclusions, accessibleNamespaces, ...rest } = update;
  const next: Settings = { ...current, ...(Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)) as Partial<Settings>) };
  if (kindExclusions) {
    const all = { ...current.kindExclusions };
    if (kindExclusions.rules === null) delete all[kindExclusions.context];
    else all[kindExclusions.context] = kindExclusions.rules;
    next.kindExclusions = all;
  }
  if (accessibleNamespaces) {
    const all = { ...current.accessibleNamespaces };
    if (accessibleNamespaces.namespaces.length === 0) delete all[accessibleNamespaces.context];
    else all[accessibleNamespaces.context] = accessibleNamespaces.namespaces;
    next.accessibleNamespaces = all;
  }
  return next;
}
