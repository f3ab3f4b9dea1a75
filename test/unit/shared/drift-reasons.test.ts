import { describe, expect, it } from 'vitest';
import { episodeSeverity, reasonLabels } from '../../../shared/drift-reasons.ts';

const labels = (...args: Parameters<typeof reasonLabels>) => reasonLabels(...args).map((badge) => `${badge.label}:${badge.tone}`);

describe('drift reason labels', () => {
  it('calls a rollout that is still going "Rolling out", in a calm tone, never "Stalled"', () => {
    expect(labels(['ready', 'generation', 'progressing'], 'deployments.apps')).toEqual(['Not ready:warning', 'Rolling out:accent', 'Spec not observed:neutral']);
    expect(episodeSeverity(['ready', 'generation', 'progressing'])).toBe('pending');
  });

  it('keeps "Stalled" and danger for a controller that gave up, and drops the rollout it gave up on', () => {
    expect(labels(['progressing', 'stalled', 'ready'], 'deployments.apps')).toEqual(['Stalled:danger', 'Not ready:warning']);
    expect(episodeSeverity(['progressing', 'stalled'])).toBe('danger');
    expect(reasonLabels(['stalled'], 'deployments.apps')[0]?.description).toContain('ProgressDeadlineExceeded');
  });

  it('says what each reason means for the kind: a Job retries and fails, an HPA cannot scale', () => {
    expect(labels(['progressing'], 'jobs.batch')).toEqual(['Retrying:accent']);
    expect(reasonLabels(['stalled'], 'jobs.batch')[0]?.description).toContain('backoffLimit');
    expect(reasonLabels(['stalled'], 'horizontalpodautoscalers.autoscaling')[0]?.description).toContain('ScalingActive=False');
  });

  it('colours pods lost without a rollout as a warning', () => {
    expect(episodeSeverity(['ready'])).toBe('warning');
    expect(episodeSeverity(['generation'])).toBe('pending');
  });
});
