import { describe, expect, it } from 'vitest';
import { ColumnOrder, type RowRecord } from '../../../renderer/components/table/column-order.ts';
import { OrderBuild } from '../../../renderer/components/table/order-build.ts';

const seeded = (seed: number) => () => ((seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647);

type Keys = ReadonlyArray<string | number>;

/** Records in tie order (their tie keys ascending); a record's row is its index into the keys. */
function recordsOf(keys: Keys): Array<RowRecord<number>> {
  return keys.map((_, i) => ({ uid: `u${i}`, row: i, tie: String(i).padStart(6, '0'), dead: false }));
}

const keyIn = (keys: Keys) => (record: RowRecord<number>): string | number => keys[record.row] as string | number;

/** Builds in steps, counting the keys computed by each step. */
function stepwise(keys: Keys) {
  let keyed = 0;
  const key = keyIn(keys);
  const build = new OrderBuild(recordsOf(keys), (record) => (keyed++, key(record)));
  const perStep: number[] = [];
  for (;;) {
    const before = keyed;
    const done = build.step();
    perStep.push(keyed - before);
    if (done) break;
  }
  return { build, perStep, keyed };
}

describe('a column order built in steps', () => {
  const random = seeded(5);
  const few = (n: number) => Array.from({ length: n }, () => `node-${Math.floor(random() * 40)}`);
  const many = (n: number) => Array.from({ length: n }, () => `pod-${Math.floor(random() * 1e9).toString(36)}${random() < 0.05 ? 'é' : ''}`);
  const numbers = (n: number) => Array.from({ length: n }, (_, i) => (i % 11 === 0 ? Number.NaN : i % 13 === 0 ? -0 : Math.floor(random() * 50) - 25));

  it('gives the order a single sort gives, in both directions, at sizes around its runs and chunks', () => {
    for (const size of [0, 1, 2, 4_095, 4_096, 4_097, 8_191, 8_192, 8_193, 16_384, 40_001]) {
      for (const keys of [few(size), many(size), numbers(size)]) {
        const whole = ColumnOrder.build(recordsOf(keys), keyIn(keys));
        const sliced = stepwise(keys).build.result() as ColumnOrder<number>;
        expect(sliced, `size ${size}`).not.toBeNull();
        expect(sliced.size).toBe(size);
        // Rows are indices: equal keys must come in the same (tie) order too.
        expect(sliced.rows('asc'), `size ${size} asc`).toEqual(whole.rows('asc'));
        expect(sliced.rows('desc'), `size ${size} desc`).toEqual(whole.rows('desc'));
      }
    }
  });

  it('keys each row once, at most a chunk of rows per step, and does its sorting and merging over many steps', () => {
    const { perStep, keyed } = stepwise(few(50_000));
    expect(keyed).toBe(50_000);
    expect(Math.max(...perStep)).toBeLessThanOrEqual(4_096);
    // Keying, 13 runs, 4 merge passes of 50,000 rows and the copy: none of it in one go.
    expect(perStep.length).toBeGreaterThan(60);
  });

  it('finishes when asked for its result part-way (keying, sorting runs, merging, copying), with the changes it was told of', () => {
    const keys = many(40_000);
    const whole = ColumnOrder.build(recordsOf(keys), keyIn(keys)).rows('asc');
    // 40,000 rows: 10 keying steps, 10 runs, 4 merge passes of 10 steps each, 10 copying steps.
    for (const steps of [0, 4, 15, 25, 45, 65]) {
      let keyed = 0;
      const key = keyIn(keys);
      const build = new OrderBuild(recordsOf(keys), (record) => (keyed++, key(record)));
      for (let i = 0; i < steps; i += 1) build.step();
      expect(build.done).toBe(false);
      build.pending.add('u17');
      const order = build.result() as ColumnOrder<number>;
      expect(order.rows('asc'), `after ${steps} steps`).toEqual(whole);
      expect(keyed).toBe(40_000);
      expect([...order.pending]).toEqual(['u17']);
    }
  });

  it('has no order to give for keys that mix strings and numbers', () => {
    const keys = ['a', 1, 'b'];
    const build = new OrderBuild(recordsOf(keys), keyIn(keys));
    expect(build.result()).toBeNull();
  });
});
