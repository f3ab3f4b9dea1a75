/**
 * The user's status rules as text in Settings: YAML (JSON is YAML too), a list of rules as
 * UserStatusRulesSchema defines them. Parsing says every problem with where it is ("line 3",
 * "rule 2, state"), so the user can fix them all at once.
 */
import { parse, stringify, YAMLParseError } from 'yaml';
import { UserStatusRulesSchema, type UserStatusRule } from '../../../shared/contracts/status-rules.ts';

/** What the editor shows when no rule is set: an example, commented out. */
export const STATUS_RULES_EXAMPLE = `# One rule per kind and condition, read before the built-in ones. For example:
# - group: example.com
#   kind: Widget
#   conditionType: Synced
#   conditionStatus: "False"
#   reason: ReconcileError
#   state: failed
`;

/** The rules as the editor shows them (an empty list as the commented example). */
export function rulesToText(rules: readonly UserStatusRule[] | undefined): string {
  if (!rules || rules.length === 0) return STATUS_RULES_EXAMPLE;
  return stringify(rules, { lineWidth: 0 });
}

function where(path: readonly PropertyKey[]): string {
  const [index, field] = path;
  if (typeof index !== 'number') return 'the rules';
  return field === undefined ? `rule ${index + 1}` : `rule ${index + 1}, ${String(field)}`;
}

/** The rules in `text`, or every problem with it. Empty text (or only comments) is no rules. */
export function parseStatusRules(text: string): { rules: UserStatusRule[] } | { errors: string[] } {
  let value: unknown;
  try {
    value = parse(text, { uniqueKeys: true });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const line = error.linePos?.[0]?.line;
      const firstLine = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
      return { errors: [`${line !== undefined ? `Line ${line}: ` : ''}${firstLine}`] };
    }
    return { errors: [(error as Error).message] };
  }
  if (value === null || value === undefined) return { rules: [] };
  if (!Array.isArray(value)) return { errors: ['The rules must be a list: start each rule with "- ".'] };
  const parsed = UserStatusRulesSchema.safeParse(value);
  if (parsed.success) return { rules: parsed.data };
  return {
    errors: parsed.error.issues.map((issue) => {
      if (issue.code === 'unrecognized_keys') return `${where(issue.path)}: unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')} (known: group, kind, conditionType, conditionStatus, reason, state)`;
      if (issue.code === 'invalid_type' && issue.path.length === 1) return `${where(issue.path)}: each rule is a mapping of group, kind, conditionType, state...`;
      if (issue.code === 'invalid_type' && issue.input === undefined) return `${where(issue.path)} is missing`;
      return `${where(issue.path)}: ${issue.message}`;
    }),
  };
}
