// @vitest-environment happy-dom
import { flushPromises } from '@vue/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { effectScope, type EffectScope } from 'vue';
import type { KdError, Result } from '../../../shared/result.ts';
import { err, ok } from '../../../shared/result.ts';
import { link, setApi } from '../../../renderer/api/index.ts';
import { follow } from '../../../renderer/stores/live.ts';
import { createFakeApi } from './fake-api.ts';

/** A follower over a hand-driven load and stream, run in its own scope. */
function harness(): {
  scope: EffectScope;
  values: string[];
  errors: Array<KdError | null>;
  answer: (result: Result<string>) => void;
  push: (value: string) => void;
  loads: () => number;
  subscribed: () => boolean;
} {
  const values: string[] = [];
  const errors: Array<KdError | null> = [];
  const pending: Array<(result: Result<string>) => void> = [];
  let listener: ((value: string) => void) | null = null;
  let loads = 0;
  const scope = effectScope();
  scope.run(() =>
    follow<string>({
      load: () => {
        loads += 1;
        return new Promise((resolve) => pending.push(resolve));
      },
      subscribe: (next) => {
        listener = next;
        return () => {
          listener = null;
        };
      },
      apply: (value) => values.push(value),
      setError: (error) => errors.push(error),
    }),
  );
  return {
    scope,
    values,
    errors,
    answer: (result) => pending.shift()?.(result),
    push: (value) => listener?.(value),
    loads: () => loads,
    subscribed: () => listener !== null,
  };
}

let scope: EffectScope | undefined;
afterEach(() => scope?.stop());

describe('follow', () => {
  it('drops a load answer when a newer stream value arrived while it was in flight', async () => {
    setApi(createFakeApi());
    const live = harness();
    scope = live.scope;
    live.push('from-stream');
    live.answer(ok('stale-answer'));
    await flushPromises();
    expect(live.values).toEqual(['from-stream']);
  });

  it('reports a failed load and clears the error once a value arrives', async () => {
    setApi(createFakeApi());
    const live = harness();
    scope = live.scope;
    live.answer(err('transport', 'The connection to the Kubedrift engine was lost'));
    await flushPromises();
    expect(live.errors.at(-1)?.message).toBe('The connection to the Kubedrift engine was lost');
    live.push('later');
    expect(live.errors.at(-1)).toBeNull();
  });

  it('loads again after the engine link was lost and came back, not on the first open', async () => {
    setApi(createFakeApi());
    link.value = { state: 'connecting' };
    const live = harness();
    scope = live.scope;
    link.value = { state: 'open' };
    await flushPromises();
    expect(live.loads()).toBe(1);
    link.value = { state: 'closed' };
    await flushPromises();
    link.value = { state: 'open' };
    await flushPromises();
    expect(live.loads()).toBe(2);
  });

  it('unsubscribes when its store goes away', () => {
    setApi(createFakeApi());
    const live = harness();
    expect(live.subscribed()).toBe(true);
    live.scope.stop();
    expect(live.subscribed()).toBe(false);
  });
});
