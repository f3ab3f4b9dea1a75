import { describe, expect, it, vi } from 'vitest';
import { createDispatcher, type Handlers } from '../../../electron/engine/dispatcher.ts';
import { ok } from '../../../shared/result.ts';
import { REQUEST_CHANNELS } from '../../../shared/contract.ts';

function fakeHandlers(overrides: Partial<Handlers> = {}): Handlers {
  const notUsed = () => {
    throw new Error('not used in this test');
  };
  const base = Object.fromEntries(REQUEST_CHANNELS.map((channel) => [channel, notUsed])) as unknown as Handlers;
  return { ...base, ...overrides };
}

describe('dispatcher', () => {
  it('passes a valid payload to its handler and returns the handler Result', async () => {
    const select = vi.fn(() => ok({ contexts: [], selected: 'a', kubeconfigCurrent: null, sources: [] }));
    const dispatcher = createDispatcher(fakeHandlers({ 'contexts:select': select }));
    const result = await dispatcher.dispatch('contexts:select', { name: 'a' });
    expect(result).toEqual({ ok: true, value: { contexts: [], selected: 'a', kubeconfigCurrent: null, sources: [] } });
    expect(select).toHaveBeenCalledWith({ name: 'a' });
  });

  it('answers a malformed payload with an invalid-request error instead of calling the handler', async () => {
    const select = vi.fn();
    const dispatcher = createDispatcher(fakeHandlers({ 'contexts:select': select }));
    for (const payload of [{ name: 42 }, { name: '' }, 'a string', [1, 2], { name: 'a', extra: true }, { name: 'x'.repeat(300) }]) {
      const result = await dispatcher.dispatch('contexts:select', payload);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe('invalid-request');
    }
    expect(select).not.toHaveBeenCalled();
  });

  it('names the offending field in the error detail', async () => {
    const dispatcher = createDispatcher(fakeHandlers());
    const result = await dispatcher.dispatch('contexts:select', { name: 7 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.detail).toMatch(/^name: /);
  });

  it('refuses channels that are not in the contract', async () => {
    const dispatcher = createDispatcher(fakeHandlers());
    for (const channel of ['nope:nothing', '__proto__', 'constructor', 42, null]) {
      const result = await dispatcher.dispatch(channel, {});
      expect(result).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    }
  });

  it('turns a throwing handler into an internal error Result', async () => {
    const log = vi.fn();
    const dispatcher = createDispatcher(
      fakeHandlers({
        'app:info': () => {
          throw new Error('boom');
        },
      }),
      { log },
    );
    const result = await dispatcher.dispatch('app:info', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'internal', message: 'app:info failed: boom' } });
    expect(log).toHaveBeenCalledOnce();
  });

  it('treats a missing payload as an empty object', async () => {
    const dispatcher = createDispatcher(fakeHandlers({ 'settings:get': () => ok({ theme: 'dark', lastContext: null }) }));
    expect(await dispatcher.dispatch('settings:get', undefined)).toEqual({ ok: true, value: { theme: 'dark', lastContext: null } });
  });
});
