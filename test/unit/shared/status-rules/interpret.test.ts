import { describe, expect, it } from 'vitest';
import { readConditions } from '../../../../shared/conditions.ts';
import { applyRule, check, findRule, groupOf, kindMatches, readField, type Subject } from '../../../../shared/status-rules/interpret.ts';
import type { KindRule, StatusSubject } from '../../../../shared/status-rules/types.ts';
import { WELL_KNOWN_RULES } from '../../../../shared/status-rules/well-known.ts';
import { certificateIssuing, databaseReady, rolloutNew, rolloutPaused } from './fixtures.ts';

const subjectOf = (object: StatusSubject): Subject => ({ object, conditions: readConditions(object.status as { conditions?: unknown }) });

describe('status rule interpreter: kinds', () => {
  it('reads the API group from apiVersion, "" for the core group', () => {
    expect(groupOf('apps/v1')).toBe('apps');
    expect(groupOf('cert-manager.io/v1')).toBe('cert-manager.io');
    expect(groupOf('v1')).toBe('');
    expect(groupOf(undefined)).toBe('');
  });

  it('matches group patterns exactly, by domain wildcard, or the core group by name', () => {
    expect(kindMatches('cert-manager.io/Certificate', 'cert-manager.io', 'Certificate')).toBe(true);
    expect(kindMatches('cert-manager.io/Certificate', 'acme.cert-manager.io', 'Certificate')).toBe(false);
    expect(kindMatches('*.crossplane.io/*', 'database.aws.crossplane.io', 'RDSInstance')).toBe(true);
    expect(kindMatches('*.crossplane.io/*', 'crossplane.io', 'RDSInstance')).toBe(false);
    expect(kindMatches('*.crossplane.io/*', 'evilcrossplane.io', 'RDSInstance')).toBe(false);
    expect(kindMatches('core/Node', '', 'Node')).toBe(true);
    expect(kindMatches('/Node', '', 'Node')).toBe(true);
    expect(kindMatches('core/Node', 'example.com', 'Node')).toBe(false);
    expect(kindMatches('Node', '', 'Node')).toBe(false);
  });

  it('finds the first rule naming a kind, and none for kinds no rule names', () => {
    expect(findRule(WELL_KNOWN_RULES, 'cert-manager.io', 'ClusterIssuer')?.source).toMatch(/ClusterIssuer/);
    expect(findRule(WELL_KNOWN_RULES, 'pkg.crossplane.io', 'Provider')?.kinds).toContain('*.crossplane.io/*');
    expect(findRule(WELL_KNOWN_RULES, 'example.com', 'Certificate')).toBeUndefined();
    // Asked twice, answered from the cache the same way.
    expect(findRule(WELL_KNOWN_RULES, 'example.com', 'Certificate')).toBeUndefined();
  });

  it('keeps every well-known pattern well formed', () => {
    for (const rule of WELL_KNOWN_RULES) {
      expect(rule.matchers.length + (rule.otherwise ? 1 : 0)).toBeGreaterThan(0);
      for (const pattern of rule.kinds) expect(pattern).toMatch(/^(\*|core|\*\.[a-z0-9.-]+|[a-z0-9.-]+)\/(\*|[A-Z][A-Za-z0-9]*)$/);
    }
  });
});

describe('status rule interpreter: tests', () => {
  it('reads dotted field paths and nothing through lists or scalars', () => {
    expect(readField(rolloutPaused, 'status.phase')).toBe('Paused');
    expect(readField(rolloutPaused, 'status.pauseConditions.reason')).toBeUndefined();
    expect(readField(rolloutPaused, 'status.phase.length')).toBeUndefined();
    expect(readField(rolloutNew, 'status.phase')).toBeUndefined();
  });

  it('checks a condition by type, status and reason', () => {
    const subject = subjectOf(certificateIssuing);
    expect(check({ condition: 'Issuing' }, subject)?.condition?.reason).toBe('DoesNotExist');
    expect(check({ condition: 'Issuing', status: ['False'] }, subject)).toBeNull();
    expect(check({ condition: 'Issuing', status: ['True'], reason: ['Renewing'] }, subject)).toBeNull();
    expect(check({ condition: 'Missing' }, subject)).toBeNull();
  });

  it('counts empty objects and lists as absent', () => {
    const empty: StatusSubject = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: {}, status: { conditions: [] } };
    expect(check({ field: 'status.conditions', present: false }, subjectOf(empty))).not.toBeNull();
    expect(check({ field: 'status', present: false }, subjectOf({ ...empty, status: {} }))).not.toBeNull();
    expect(check({ field: 'status', present: true }, subjectOf(empty))).not.toBeNull();
  });

  it('tells an observed generation apart from a missing status or a lagging one', () => {
    expect(check({ generationObserved: true }, subjectOf(rolloutPaused))).not.toBeNull();
    expect(check({ generationObserved: false }, subjectOf(rolloutNew))).not.toBeNull();
    const lagging = { ...databaseReady, metadata: { ...databaseReady.metadata, generation: 6 } };
    expect(check({ generationObserved: false }, subjectOf(lagging))).not.toBeNull();
    const hashed = { ...rolloutPaused, status: { ...(rolloutPaused.status as object), observedGeneration: '5c788f4484' } };
    expect(check({ generationObserved: true }, subjectOf(hashed))).not.toBeNull();
  });

  it('combines tests with allOf and anyOf, taking the words of a condition that held', () => {
    const subject = subjectOf(certificateIssuing);
    const both = check({ allOf: [{ field: 'spec.secretName', equals: 'web-tls' }, { condition: 'Ready', status: ['False'] }] }, subject);
    expect(both?.condition?.type).toBe('Ready');
    expect(check({ allOf: [{ condition: 'Ready' }, { condition: 'Missing' }] }, subject)).toBeNull();
    expect(check({ anyOf: [{ condition: 'Missing' }, { condition: 'Issuing', status: ['True'] }] }, subject)?.condition?.type).toBe('Issuing');
    expect(check({ anyOf: [{ condition: 'Missing' }, { kindIn: ['Issuer'] }] }, subject)).toBeNull();
  });
});

describe('status rule interpreter: words', () => {
  const rule: KindRule = {
    kinds: ['example.com/Widget'],
    source: 'test',
    matchers: [
      { when: { field: 'spec.paused', equals: true }, state: 'suspended', say: { reason: 'Paused', message: '{kind} is paused' } },
      { when: { field: 'status.phase', oneOf: ['Broken', 'Lost'] }, state: 'failed', say: { messageField: 'status.detail' } },
      { when: { field: 'status.phase', equals: 'Mixed' }, state: 'drifting', say: { reason: 'Fallback', condition: 'Ready' } },
    ],
    otherwise: { state: 'progressing', say: { reason: 'Waiting', message: 'No phase yet' } },
  };
  const widget = (spec: object, status: object): StatusSubject => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: {}, spec, status });

  it('fills {kind} in fixed words', () => {
    expect(applyRule(rule, subjectOf(widget({ paused: true }, {})))).toEqual({ state: 'suspended', reason: 'Paused', message: 'Widget is paused' });
  });

  it('takes the reason from a string field and the message from a message field', () => {
    expect(applyRule(rule, subjectOf(widget({}, { phase: 'Lost', detail: 'volume vol-1 is gone' })))).toEqual({ state: 'failed', reason: 'Lost', message: 'volume vol-1 is gone' });
    expect(applyRule(rule, subjectOf(widget({}, { phase: 'Broken' })))).toEqual({ state: 'failed', reason: 'Broken', message: 'status.phase is "Broken"' });
  });

  it('prefers a named condition’s words to fixed ones, and falls back to them without it', () => {
    const withReady = widget({}, { phase: 'Mixed', conditions: [{ type: 'Ready', status: 'False', reason: 'PartiallyReady', message: '2 of 3 parts ready' }] });
    expect(applyRule(rule, subjectOf(withReady))).toEqual({ state: 'drifting', reason: 'PartiallyReady', message: '2 of 3 parts ready' });
    expect(applyRule(rule, subjectOf(widget({}, { phase: 'Mixed' })))).toEqual({ state: 'drifting', reason: 'Fallback', message: 'status.phase is "Mixed"' });
  });

  it('gives an unobserved generation the kstatus reason, not the generation number', () => {
    const gate: KindRule = { kinds: ['argoproj.io/Rollout'], source: 'test', matchers: [{ when: { generationObserved: false }, state: 'unobserved' }] };
    expect(applyRule(gate, subjectOf(rolloutNew))).toEqual({ state: 'unobserved', reason: 'LatestGenerationNotObserved', message: '' });
  });

  it('uses `otherwise` when no matcher holds, and returns null for a rule without one', () => {
    expect(applyRule(rule, subjectOf(widget({}, {})))).toEqual({ state: 'progressing', reason: 'Waiting', message: 'No phase yet' });
    expect(applyRule({ ...rule, otherwise: undefined }, subjectOf(widget({}, {})))).toBeNull();
  });
});
