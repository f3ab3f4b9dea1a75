// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../shared/result.ts';
import type { HistorySourceList, HistorySourceStatus } from '../../../shared/contracts/history-sources.ts';
import SettingsHistorySourcesCard from '../../../renderer/views/settings/SettingsHistorySourcesCard.vue';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/settings' });
/** 14:05 local time today: the day is not written, the clock is the app's 24-hour one. */
const AT = new Date().setHours(14, 5, 0, 0);

const RACK: HistorySourceStatus = { id: 's1', name: 'rack', url: 'http://rack.example:7443', state: 'connected', contexts: [{ name: 'prod-us' }, { name: 'staging-eu' }], checkedAt: AT, lastError: null };

async function mountCard(): Promise<VueWrapper> {
  const wrapper = test.mount(SettingsHistorySourcesCard);
  await flushPromises();
  return wrapper;
}

const source = (wrapper: VueWrapper, name: string) => wrapper.get(`[data-testid="history-source"][data-name="${name}"]`);

describe('history sources settings', () => {
  it('adds a source with its URL and token, and shows the contexts the recorder records', async () => {
    let sources: HistorySourceStatus[] = [];
    const api = installApi({
      'history:sources': () => ok({ sources }),
      'history:source-add': () => {
        sources = [RACK];
        return ok({ sources } satisfies HistorySourceList);
      },
    });
    const wrapper = await mountCard();
    expect(wrapper.text()).toContain('No history sources.');
    expect(wrapper.get('[data-testid="history-source-add"]').attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="history-source-name"]').setValue('rack');
    await wrapper.get('[data-testid="history-source-url"]').setValue('rack.example:7443');
    expect(wrapper.get('[data-testid="history-source-problem"]').text()).toMatch(/starts with http:\/\//);
    await wrapper.get('[data-testid="history-source-url"]').setValue('http://rack.example:7443');
    await wrapper.get('[data-testid="history-source-token"]').setValue('  s3cret-token-value-123  ');
    await wrapper.get('[data-testid="history-source-form"]').trigger('submit');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'history:source-add').map((call) => call.payload)).toEqual([{ name: 'rack', url: 'http://rack.example:7443', token: 's3cret-token-value-123' }]);
    expect(source(wrapper, 'rack').get('[data-testid="history-source-state"]').text()).toBe('Connected (checked 14:05:00): records prod-us, staging-eu.');
    // The form is cleared: the token does not stay on screen.
    expect((wrapper.get('[data-testid="history-source-token"]').element as HTMLInputElement).value).toBe('');
  });

  it('shows each source\'s own error with what to do, and removes a source', async () => {
    const refused: HistorySourceStatus = { ...RACK, id: 's2', name: 'old', state: 'error', lastError: { at: AT, code: 'unauthorized', message: 'This recorder refused the token.' } };
    const api = installApi({
      'history:sources': () => ok({ sources: [RACK, refused] }),
      'history:source-remove': () => ok({ sources: [RACK] }),
    });
    const wrapper = await mountCard();
    const state = source(wrapper, 'old').get('[data-testid="history-source-state"]');
    expect(state.attributes('data-code')).toBe('unauthorized');
    expect(state.text()).toBe('This recorder refused the token. Remove this source and add it again with the recorder\'s current token.');
    expect(source(wrapper, 'rack').attributes('data-state')).toBe('connected');
    await source(wrapper, 'old').get('[data-testid="history-source-remove"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'history:source-remove').map((call) => call.payload)).toEqual([{ id: 's2' }]);
    expect(wrapper.findAll('[data-testid="history-source"]').map((item) => item.attributes('data-name'))).toEqual(['rack']);
  });

  it('shows the engine\'s refusal of an add', async () => {
    installApi({
      'history:sources': () => ok({ sources: [RACK] }),
      'history:source-add': () => err('invalid-request', 'There already is a history source named "rack".'),
    });
    const wrapper = await mountCard();
    await wrapper.get('[data-testid="history-source-name"]').setValue('rack');
    await wrapper.get('[data-testid="history-source-url"]').setValue('http://other:7443');
    await wrapper.get('[data-testid="history-source-token"]').setValue('token-token-token');
    await wrapper.get('[data-testid="history-source-form"]').trigger('submit');
    await flushPromises();
    expect(wrapper.get('[data-testid="history-source-error"]').text()).toBe('There already is a history source named "rack".');
  });
});
