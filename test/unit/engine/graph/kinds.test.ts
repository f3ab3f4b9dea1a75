/**
 * isKind: a built-in kind by group and kind, its usual apiVersion answered without the resolver,
 * any other version of the same group by it, and never by kind name alone.
 */
import { describe, expect, it } from 'vitest';
import { isKind } from '../../../../electron/engine/graph/kinds.ts';

describe('isKind', () => {
  it('knows a built-in kind at its usual apiVersion and at another version of its group', () => {
    expect(isKind({ apiVersion: 'v1', kind: 'Pod' }, 'Pod')).toBe(true);
    expect(isKind({ apiVersion: 'apps/v1', kind: 'Deployment' }, 'Deployment')).toBe(true);
    expect(isKind({ apiVersion: 'apps/v1beta2', kind: 'Deployment' }, 'Deployment')).toBe(true);
    expect(isKind({ apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' }, 'HorizontalPodAutoscaler')).toBe(true);
  });

  it('refuses the same kind name in another group, and another kind at the same apiVersion', () => {
    expect(isKind({ apiVersion: 'example.com/v1', kind: 'Job' }, 'Job')).toBe(false);
    expect(isKind({ apiVersion: 'extensions/v1beta1', kind: 'Deployment' }, 'Deployment')).toBe(false);
    expect(isKind({ apiVersion: 'v1', kind: 'Service' }, 'Pod')).toBe(false);
    expect(isKind({ apiVersion: 'batch/v1', kind: 'Job' }, 'CronJob')).toBe(false);
  });
});
