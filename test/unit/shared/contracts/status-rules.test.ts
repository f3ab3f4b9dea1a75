import { describe, expect, it } from 'vitest';
import { MAX_USER_STATUS_RULES, UserStatusRuleSchema, UserStatusRulesSchema } from '../../../../shared/contracts/status-rules.ts';

const RULE = { group: 'database.example.org', kind: 'PostgreSQLInstance', conditionType: 'Synced', conditionStatus: 'False', reason: 'ReconcileError', state: 'failed' };

/** The first error message zod gives for `input`, or null when it parses. */
function firstError(input: unknown): string | null {
  const parsed = UserStatusRuleSchema.safeParse(input);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'no message');
}

describe('user status rule schema', () => {
  it('accepts a rule for a kind, with or without status and reason', () => {
    expect(firstError(RULE)).toBeNull();
    expect(firstError({ group: 'cert-manager.io', kind: 'Certificate', conditionType: 'Ready', state: 'current' })).toBeNull();
    expect(firstError({ ...RULE, group: '' })).toBeNull();
    expect(firstError({ ...RULE, group: 'core', kind: 'Node' })).toBeNull();
    expect(firstError({ ...RULE, group: '*.crossplane.io' })).toBeNull();
    expect(firstError({ ...RULE, conditionType: 'example.com/Synced' })).toBeNull();
  });

  it('says what is wrong with each field', () => {
    expect(firstError({ ...RULE, group: 'Example.COM' })).toMatch(/^group must be an API group/);
    expect(firstError({ ...RULE, group: 'a.*.example.com' })).toMatch(/^group must be an API group/);
    expect(firstError({ ...RULE, kind: 'postgresqlinstance' })).toBe('kind must be a Kind as the API spells it, such as "Certificate"');
    expect(firstError({ ...RULE, conditionType: 'not ready' })).toMatch(/^conditionType must be a condition type/);
    expect(firstError({ ...RULE, conditionStatus: 'false' })).toBe('conditionStatus must be "True", "False" or "Unknown"');
    expect(firstError({ ...RULE, reason: 'Reconcile error' })).toMatch(/^reason must be a condition reason/);
    expect(firstError({ ...RULE, state: 'healthy' })).toBe('state must be one of progressing, drifting, failed, suspended, current, none');
  });

  it('keeps terminating and unobserved for metadata and observedGeneration alone', () => {
    expect(firstError({ ...RULE, state: 'terminating' })).toMatch(/^state must be one of/);
    expect(firstError({ ...RULE, state: 'unobserved' })).toMatch(/^state must be one of/);
  });

  it('refuses fields it does not know', () => {
    expect(firstError({ ...RULE, script: 'return "Healthy"' })).not.toBeNull();
  });

  it('caps the number of rules', () => {
    expect(UserStatusRulesSchema.safeParse(Array.from({ length: MAX_USER_STATUS_RULES }, () => RULE)).success).toBe(true);
    const tooMany = UserStatusRulesSchema.safeParse(Array.from({ length: MAX_USER_STATUS_RULES + 1 }, () => RULE));
    expect(tooMany.success ? null : tooMany.error.issues[0]?.message).toBe(`at most ${MAX_USER_STATUS_RULES} status rules`);
  });
});
