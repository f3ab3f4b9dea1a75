import { describe, expect, it } from 'vitest';
import { ObjectCache, type CacheChange } from '../../../../electron/engine/stream/cache.ts';
import { adoptPrevious, freezeTree } from '../../../../electron/engine/stream/previous-values.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { slimPod } from './fixtures.ts';

type Json = Record<string, unknown>;
/** A pod as the engine gets it: parsed from its own JSON text, sharing nothing with any other. */
const parsed = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const specOf = (pod: SlimObject): Json => (pod as unknown as { spec: Json }).spec;
const statusOf = (pod: SlimObject): Json => (pod as unknown as { status: Json }).status;
const conditionsOf = (pod: SlimObject): Json[] => statusOf(pod)['conditions'] as Json[];
const containerStatusOf = (pod: SlimObject): Json => (statusOf(pod)['containerStatuses'] as Json[])[0] as Json;

/** The next version of a pod, as a watch event brings it: a fresh parse with `change` applied. */
function nextVersion(pod: SlimObject, change: (next: SlimObject) => void): SlimObject {
  const next = parsed(pod);
  next.metadata.resourceVersion = String(Number(pod.metadata.resourceVersion) + 1);
  change(next);
  return next;
}

const readinessFlip = (next: SlimObject): void => {
  const ready = conditionsOf(next).find((condition) => condition['type'] === 'Ready') as Json;
  ready['status'] = 'False';
  ready['lastTransitionTime'] = '2024-05-02T11:00:00Z';
  containerStatusOf(next)['ready'] = false;
};

describe('adoptPrevious', () => {
  it('leaves the new version\'s JSON exactly as it was, whatever changed', () => {
    const changes: Array<(next: SlimObject) => void> = [
      (next) => {
        (next.metadata.annotations as Record<string, string>)['bench/t'] = '1795882713322.9324';
      },
      readinessFlip,
      (next) => {
        containerStatusOf(next)['restartCount'] = 3;
      },
      (next) => {
        (next.metadata.labels as Record<string, string>)['tier'] = 'edge';
      },
      (next) => {
        ((specOf(next)['containers'] as Json[])[0] as Json)['image'] = 'registry.example.com/shop/checkout:1.43.0';
      },
      (next) => {
        statusOf(next)['conditions'] = conditionsOf(next).slice(1);
      },
      (next) => {
        delete statusOf(next)['podIP'];
        next.metadata.deletionTimestamp = '2024-05-02T12:00:00Z';
      },
    ];
    for (const change of changes) {
      const previous = parsed(slimPod(1));
      const previousText = JSON.stringify(previous);
      const next = nextVersion(previous, change);
      const text = JSON.stringify(next);
      adoptPrevious(next, previous);
      expect(JSON.stringify(next)).toBe(text);
      expect(JSON.stringify(previous)).toBe(previousText);
    }
  });

  it('gives the new version the previous spec, conditions, container statuses and strings that did not change', () => {
    const previous = parsed(slimPod(1));
    const next = nextVersion(previous, readinessFlip);
    adoptPrevious(next, previous);
    expect(specOf(next)).toBe(specOf(previous));
    expect(next.metadata.labels).toBe(previous.metadata.labels);
    expect(next.metadata.ownerReferences).toBe(previous.metadata.ownerReferences);
    expect(next.metadata.annotations).toBe(previous.metadata.annotations);
    const scheduled = (pod: SlimObject) => conditionsOf(pod).find((condition) => condition['type'] === 'PodScheduled');
    expect(scheduled(next)).toBe(scheduled(previous));
    expect(Object.isFrozen(specOf(previous))).toBe(true);
    expect(Object.isFrozen(scheduled(previous))).toBe(true);
  });

  it('keeps what changed to the new version, unfrozen, and the new version\'s own top level', () => {
    const previous = parsed(slimPod(1));
    const next = nextVersion(previous, readinessFlip);
    adoptPrevious(next, previous);
    const ready = (pod: SlimObject) => conditionsOf(pod).find((condition) => condition['type'] === 'Ready') as Json;
    expect(ready(next)).not.toBe(ready(previous));
    expect(ready(next)['status']).toBe('False');
    expect(conditionsOf(next)).not.toBe(conditionsOf(previous));
    expect(containerStatusOf(next)).not.toBe(containerStatusOf(previous));
    expect(statusOf(next)).not.toBe(statusOf(previous));
    expect(next.metadata).not.toBe(previous.metadata);
    expect(Object.isFrozen(ready(next))).toBe(false);
    expect(Object.isFrozen(next.metadata)).toBe(false);
    expect(Object.isFrozen(previous.metadata)).toBe(false);
  });

  it('takes an unchanged status whole (a label or annotation changed)', () => {
    const previous = parsed(slimPod(1));
    const next = nextVersion(previous, (pod) => {
      (pod.metadata.annotations as Record<string, string>)['note'] = 'x';
    });
    adoptPrevious(next, previous);
    expect(statusOf(next)).toBe(statusOf(previous));
    expect(next.metadata.annotations).not.toBe(previous.metadata.annotations);
  });

  it('never lets a write to one version change the other', () => {
    const previous = parsed(slimPod(1));
    const previousText = JSON.stringify(previous);
    const next = nextVersion(previous, readinessFlip);
    adoptPrevious(next, previous);
    const nextText = JSON.stringify(next);
    // A shared part cannot be written at all (modules run in strict mode).
    expect(() => {
      ((specOf(next)['containers'] as Json[])[0] as Json)['image'] = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (next.metadata.labels as Record<string, string>)['app'] = 'changed';
    }).toThrow(TypeError);
    // What is the new version's own can be, and the previous version does not see it.
    statusOf(next)['phase'] = 'Failed';
    next.metadata.name = 'renamed';
    expect(JSON.stringify(previous)).toBe(previousText);
    statusOf(previous)['phase'] = 'Unknown';
    expect(statusOf(next)['phase']).toBe('Failed');
    expect(JSON.stringify(next)).toBe(nextText.replace('"phase":"Running"', '"phase":"Failed"').replace(/"name":"checkout-7d9f8b6c5-[^"]*"/, '"name":"renamed"'));
  });

  it('leaves a new version that is frozen, or already shares the previous one\'s values, as it is', () => {
    const previous = parsed(slimPod(1));
    const frozen = nextVersion(previous, readinessFlip);
    freezeTree(frozen);
    expect(() => adoptPrevious(frozen, previous)).not.toThrow();
    const spread = { ...previous, metadata: { ...previous.metadata, resourceVersion: '9' } };
    const text = JSON.stringify(spread);
    expect(() => adoptPrevious(spread, previous)).not.toThrow();
    expect(JSON.stringify(spread)).toBe(text);
  });

  it('keeps the JSON of random changes of a pod (200 versions in a row)', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const edits: Array<(pod: SlimObject) => void> = [
      (pod) => {
        (pod.metadata.annotations as Record<string, string>)['t'] = String(random(1000));
      },
      (pod) => {
        const condition = conditionsOf(pod)[random(conditionsOf(pod).length)] as Json;
        condition['status'] = random(2) ? 'True' : 'False';
      },
      (pod) => {
        containerStatusOf(pod)['restartCount'] = random(5);
      },
      (pod) => {
        (pod.metadata.labels as Record<string, string>)['v'] = String(random(3));
      },
      (pod) => {
        specOf(pod)['nodeName'] = `worker-${random(3)}`;
      },
      (pod) => {
        statusOf(pod)['podIP'] = `10.0.0.${random(3)}`;
      },
    ];
    let previous = parsed(slimPod(3));
    for (let i = 0; i < 200; i += 1) {
      const previousText = JSON.stringify(previous);
      const next = nextVersion(previous, (pod) => {
        for (let k = random(3); k >= 0; k -= 1) edits[random(edits.length)]?.(pod);
      });
      const text = JSON.stringify(next);
      adoptPrevious(next, previous);
      expect(JSON.stringify(next)).toBe(text);
      expect(JSON.stringify(previous)).toBe(previousText);
      previous = next;
    }
  });
});

describe('ObjectCache: a pod\'s new version shares its previous one\'s values', () => {
  it('announces the new version with its JSON unchanged, sharing the unchanged spec', () => {
    const cache = new ObjectCache({ sharePods: true });
    const changes: CacheChange[] = [];
    cache.onChange((change) => changes.push(change));
    const first = parsed(slimPod(1));
    cache.upsert('pods', first, JSON.stringify(first));
    const next = nextVersion(first, readinessFlip);
    const text = JSON.stringify(next);
    cache.upsert('pods', next, text);
    const stored = cache.get('pods', first.metadata.uid) as SlimObject;
    expect(specOf(stored)).toBe(specOf(first));
    const last = changes.at(-1) as Extract<CacheChange, { type: 'upsert' }>;
    expect(last.previous).toBe(first);
    expect(JSON.stringify(last.object)).toBe(text);
  });

  it('shares nothing between versions unless asked (a writer may go on changing what it wrote)', () => {
    const cache = new ObjectCache();
    const first = parsed(slimPod(1));
    cache.upsert('pods', first);
    const next = nextVersion(first, readinessFlip);
    cache.upsert('pods', next);
    expect(specOf(next)).not.toBe(specOf(first));
    expect(Object.isFrozen(specOf(first))).toBe(false);
  });
});
