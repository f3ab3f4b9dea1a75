import { describe, expect, it } from 'vitest';
import { causedByText } from '../../../shared/episode-cause-text.ts';

describe('how an episode says what caused it', () => {
  it('says "caused by" the first cause, "underneath:" a leaf found under a verdict, "then" a later one', () => {
    expect(
      causedByText([
        { at: 1, code: 'progress-deadline', sentence: 'Deployment notifications exceeded its progress deadline' },
        { at: 1, code: 'readiness-probe', sentence: '1 new pod fails its readiness probe', under: true },
        { at: 9, code: 'node-not-ready', sentence: 'Node worker-2 is NotReady' },
      ]),
    ).toBe('caused by Deployment notifications exceeded its progress deadline · underneath: 1 new pod fails its readiness probe · then Node worker-2 is NotReady');
  });

  it('says nothing for an episode that kept no cause', () => {
    expect(causedByText(undefined)).toBeNull();
    expect(causedByText([])).toBeNull();
  });
});
