// @vitest-environment happy-dom
/**
 * Settings → History → Takeover after: used only with a postgres:// shared store (disabled
 * otherwise), refuses what the engine would, and saves whole seconds as historyTakeoverSeconds.
 */
import { flushPromises } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { applySettingsUpdate } from '../../../../shared/contracts/settings.ts';
import { ok } from '../../../../shared/result.ts';
import SettingsHistoryCard from '../../../../renderer/views/settings/SettingsHistoryCard.vue';
import { SETTINGS } from '../fake-api.ts';
import { STATUS } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

const test = useRendererTest({ hash: '#/settings' });

describe('the takeover time field', () => {
  it('is used only with a shared store, refuses a value out of range and saves whole seconds', async () => {
    const api = installApi({ 'history:status': () => ok(STATUS), 'settings:update': (patch) => ok(applySettingsUpdate(SETTINGS, patch)) });
    const wrapper = test.mount(SettingsHistoryCard);
    await flushPromises();
    const field = () => wrapper.get('[data-testid="history-takeover"]');
    expect((field().element as HTMLInputElement).value).toBe('30');
    expect(field().attributes('disabled')).toBeDefined();
    expect(wrapper.text()).toContain('renewed every third of this time');

    await wrapper.get('[data-testid="history-store"]').setValue('postgres://kubedrift@db:5432/kubedrift');
    expect(field().attributes('disabled')).toBeUndefined();
    await field().setValue('2');
    expect(wrapper.get('[data-testid="history-settings-problem"]').text()).toBe('The takeover time must be between 5 and 3600 seconds.');
    expect(wrapper.get('[data-testid="history-save"]').attributes('disabled')).toBeDefined();

    await field().setValue('45');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(api.calls.find((call) => call.channel === 'settings:update')?.payload).toMatchObject({ historyStore: 'postgres://kubedrift@db:5432/kubedrift', historyTakeoverSeconds: 45 });
    expect(wrapper.text()).toContain('Saved.');
  });
});
