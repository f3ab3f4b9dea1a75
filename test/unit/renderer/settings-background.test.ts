// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../shared/result.ts';
import type { BackgroundStatus } from '../../../shared/contracts/background.ts';
import SettingsBackgroundCard from '../../../renderer/views/settings/SettingsBackgroundCard.vue';
import { CONTEXT_LIST, SETTINGS } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/settings' });
/** Another day than the test's (its date is written), 08:41 local time: the app's 24-hour clock. */
const SINCE = new Date(2025, 4, 3, 8, 41).getTime();

async function mountCard(): Promise<VueWrapper> {
  const wrapper = test.mount(SettingsBackgroundCard);
  await flushPromises();
  return wrapper;
}

const row = (wrapper: VueWrapper, context: string) => wrapper.get(`[data-testid="background-${context}"]`);

describe('background recording settings', () => {
  it('lists each context with a switch; switching one on saves it into backgroundContexts', async () => {
    const api = installApi({
      'contexts:list': () => ok(CONTEXT_LIST),
      'settings:get': () => ok({ ...SETTINGS, backgroundContexts: ['staging-eu'] }),
      'settings:update': (patch) => ok({ ...SETTINGS, ...(patch as object) }),
      'history:background': () => ok({ contexts: [] }),
    });
    const wrapper = await mountCard();
    expect(row(wrapper, 'staging-eu').get('button').attributes('aria-pressed')).toBe('true');
    expect(row(wrapper, 'kind-dev').get('button').attributes('aria-pressed')).toBe('false');
    await row(wrapper, 'kind-dev').get('button').trigger('click');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'settings:update').map((call) => call.payload)).toEqual([{ backgroundContexts: ['staging-eu', 'kind-dev'] }]);
    expect(row(wrapper, 'kind-dev').get('button').attributes('aria-pressed')).toBe('true');
  });

  it('shows each recorder as it reports: recording since, the last error and the next try, selected', async () => {
    const api = installApi({
      'contexts:list': () => ok(CONTEXT_LIST),
      'settings:get': () => ok({ ...SETTINGS, backgroundContexts: ['staging-eu', 'prod-us', 'kind-dev'] }),
      'history:background': () => ok({ contexts: [] }),
    });
    const wrapper = await mountCard();
    const status: BackgroundStatus = {
      contexts: [
        { context: 'staging-eu', state: 'recording', recordingSince: SINCE, lastError: null, retryAt: null },
        { context: 'prod-us', state: 'retrying', recordingSince: null, lastError: { at: SINCE, message: 'Unauthorized (401): the token has expired' }, retryAt: SINCE + 20_000 },
        { context: 'kind-dev', state: 'selected', recordingSince: null, lastError: null, retryAt: null },
      ],
    };
    api.emit('history:background', status);
    await flushPromises();
    expect(row(wrapper, 'staging-eu').get('[data-testid="background-state"]').text()).toBe('Recording since May 3, 08:41:00.');
    const prod = row(wrapper, 'prod-us').get('[data-testid="background-state"]');
    expect(prod.attributes('data-state')).toBe('retrying');
    expect(prod.text()).toContain('Unauthorized (401): the token has expired');
    expect(prod.text()).toContain('Retrying at May 3, 08:41:20.');
    expect(row(wrapper, 'kind-dev').get('[data-testid="background-state"]').text()).toBe('Selected: the app records it now.');
  });

  it('says a recorder the shared store does not take records on this computer only, and why', async () => {
    const api = installApi({
      'contexts:list': () => ok(CONTEXT_LIST),
      'settings:get': () => ok({ ...SETTINGS, backgroundContexts: ['staging-eu'] }),
      'history:background': () => ok({ contexts: [] }),
    });
    const wrapper = await mountCard();
    const notice = 'Recording on this computer only: The shared history store kubedrift@db:5432/history already has a recorder for staging-eu: kubedrift record on recorder-0 (pid 1) is writing it.';
    api.emit('history:background', { contexts: [{ context: 'staging-eu', state: 'recording', recordingSince: SINCE, lastError: null, retryAt: null, notice }] });
    await flushPromises();
    expect(row(wrapper, 'staging-eu').get('[data-testid="background-state"]').text()).toBe(`Recording since May 3, 08:41:00. ${notice}`);
  });

  it('says why a choice could not be saved', async () => {
    installApi({
      'contexts:list': () => ok(CONTEXT_LIST),
      'settings:get': () => ok(SETTINGS),
      'settings:update': () => err('invalid-request', 'at most 20 contexts can record in the background'),
      'history:background': () => ok({ contexts: [] }),
    });
    const wrapper = await mountCard();
    await row(wrapper, 'kind-dev').get('button').trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="background-save-error"]').text()).toContain('at most 20 contexts can record in the background');
    expect(row(wrapper, 'kind-dev').get('button').attributes('aria-pressed')).toBe('false');
  });
});
