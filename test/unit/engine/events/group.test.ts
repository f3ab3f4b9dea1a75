import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../../../electron/engine/events/event-store.ts';
import { addOccurrences, groupByController, timeBuckets, topReasons } from '../../../../electron/engine/events/group.ts';
import { normalizeEvent } from '../../../../electron/engine/events/normalize.ts';
import { KUBELET_BACKOFF, LEGACY_SOURCE_ONLY, SCALING_REPLICASET, SCHEDULED_CORE, SCHEDULED_V1, SCHEDULER_FAILED_V1, at, slim } from './fixtures.ts';

const NOW = at('2025-05-02T10:00:00Z');

function storeOf(...raws: Array<{ apiVersion: string; [field: string]: unknown }>) {
  const store = createEventStore();
  for (const raw of raws) store.upsert(normalizeEvent(slim(raw), NOW));
  return store;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('addOccurrences', () => {
  const minutes = timeBuckets(at('2025-05-02T09:10:00Z'), at('2025-05-02T09:20:00Z'), 10);

  it('puts the first occurrence at firstTimestamp and spreads the repeats evenly up to lastTimestamp', () => {
    const rate = new Array<number>(10).fill(0);
    const backoff = { first: at('2025-05-02T09:14:35Z'), last: at('2025-05-02T09:18:35Z'), count: 23 };
    expect(addOccurrences(backoff, minutes, [rate])).toBeCloseTo(23, 6);
    // 22 repeats over 240 s: 25 s of them in 09:14, 60 s in each of 09:15-09:17, 35 s in 09:18.
    expect(rate.map((v) => Math.round(v * 100) / 100)).toEqual([0, 0, 0, 0, 1 + 2.29, 5.5, 5.5, 5.5, 3.21, 0]);
    expect(sum(rate)).toBeCloseTo(23, 6);
  });

  it('counts only the share of a series inside the range', () => {
    const oneMinute = timeBuckets(at('2025-05-02T09:16:00Z'), at('2025-05-02T09:17:00Z'), 4);
    const rate = new Array<number>(4).fill(0);
    expect(addOccurrences({ first: at('2025-05-02T09:14:35Z'), last: at('2025-05-02T09:18:35Z'), count: 23 }, oneMinute, [rate])).toBeCloseTo(5.5, 6);
    expect(rate).toEqual([1.375, 1.375, 1.375, 1.375]);
  });

  it('counts a single occurrence once, in its bucket, and nothing outside the range', () => {
    const rate = new Array<number>(10).fill(0);
    expect(addOccurrences({ first: at('2025-05-02T09:12:30Z'), last: at('2025-05-02T09:12:30Z'), count: 1 }, minutes, [rate])).toBe(1);
    expect(rate[2]).toBe(1);
    expect(addOccurrences({ first: at('2025-05-02T08:00:00Z'), last: at('2025-05-02T08:05:00Z'), count: 9 }, minutes, [rate])).toBe(0);
    expect(sum(rate)).toBe(1);
  });
});

describe('groupByController', () => {
  it('groups by reporting controller with counts, Warnings, reasons and the last event time', () => {
    const store = storeOf(KUBELET_BACKOFF, SCHEDULER_FAILED_V1, SCHEDULED_V1, SCHEDULED_CORE, SCALING_REPLICASET, LEGACY_SOURCE_ONLY);
    const groups = groupByController(store.values(), timeBuckets(at('2025-05-02T09:00:00Z'), at('2025-05-02T10:00:00Z'), 12));
    expect([...groups.keys()].sort()).toEqual(['default-scheduler', 'deployment-controller', 'kubelet', 'replicaset-controller']);
    const scheduler = groups.get('default-scheduler');
    // FailedScheduling x4 and one Scheduled (seen through both APIs, counted once).
    expect(scheduler).toMatchObject({ events: 2, occurrences: 5, warnings: 4 });
    expect(topReasons(scheduler!)).toEqual([
      { reason: 'FailedScheduling', type: 'Warning', count: 4 },
      { reason: 'Scheduled', type: 'Normal', count: 1 },
    ]);
    expect(sum(scheduler!.rate)).toBeCloseTo(5, 6);
    expect(sum(scheduler!.warningRate)).toBeCloseTo(4, 6);
    expect(scheduler!.lastEventAt).toBe(at('2025-05-02T09:17:32.508Z'));
    expect(groups.get('kubelet')).toMatchObject({ events: 1, occurrences: 23, warnings: 23 });
  });

  it('leaves out controllers with nothing in the range', () => {
    const store = storeOf(KUBELET_BACKOFF, SCALING_REPLICASET);
    const groups = groupByController(store.values(), timeBuckets(at('2025-05-02T09:15:00Z'), at('2025-05-02T09:30:00Z'), 15));
    expect([...groups.keys()]).toEqual(['kubelet']);
  });
});
