// @vitest-environment happy-dom
import { applySettingsUpdate } from '../../../../shared/contracts/settings.ts';
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../../shared/result.ts';
import ChartRangePicker from '../../../../renderer/components/charts/ChartRangePicker.vue';
import type { RangeSelection } from '../../../../renderer/components/charts/time-range.ts';
import StatusBarHistory from '../../../../renderer/components/shell/StatusBarHistory.vue';
import { useNavigationStore } from '../../../../renderer/stores/navigation.ts';
import SettingsHistoryCard from '../../../../renderer/views/settings/SettingsHistoryCard.vue';
import { SETTINGS } from '../fake-api.ts';
import { STATUS } from './fixtures.ts';
import { installApi, useRendererTest } from '../setup.ts';

const test = useRendererTest({ hash: '#/settings' });
let wrapper: VueWrapper | undefined;

describe('status bar history item', () => {
  it('shows that history is recorded, and opens the timeline', async () => {
    installApi({ 'history:status': () => ok(STATUS) });
    wrapper = test.mount(StatusBarHistory);
    await flushPromises();
    const item = wrapper.get('[data-testid="history-recording"]');
    expect(item.text()).toBe('Recording');
    expect(item.attributes('title')).toContain('48,000 samples');
    await item.trigger('click');
    expect(useNavigationStore().current).toBe('timeline');
  });

  it('warns when recording is paused on a full disk', async () => {
    const api = installApi({ 'history:status': () => ok(STATUS) });
    wrapper = test.mount(StatusBarHistory);
    await flushPromises();
    api.emit('history:status', { ...STATUS, state: 'paused', message: 'disk full' });
    await flushPromises();
    const item = wrapper.get('[data-testid="history-recording"]');
    expect(item.text()).toBe('Recording paused: disk full');
    expect([item.attributes('data-tone'), item.attributes('role')]).toEqual(['paused', 'alert']);
  });

  it('stays out of the way when the engine records no history', async () => {
    installApi({ 'history:status': () => err('unavailable', 'History is not recorded yet') });
    wrapper = test.mount(StatusBarHistory);
    await flushPromises();
    expect(wrapper.find('[data-testid="history-recording"]').exists()).toBe(false);
  });
});

describe('history settings', () => {
  it('saves retention and shows what is recorded', async () => {
    const api = installApi({ 'history:status': () => ok(STATUS), 'settings:update': (patch) => ok(applySettingsUpdate(SETTINGS, patch)) });
    wrapper = test.mount(SettingsHistoryCard);
    await flushPromises();
    expect(wrapper.get('[data-testid="settings-history-since"]').text()).toMatch(/^Recording · History since .* · 12 MiB recorded$/);
    expect((wrapper.get('[data-testid="history-days"]').element as HTMLInputElement).value).toBe('14');
    expect(wrapper.get('[data-testid="history-save"]').attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="history-days"]').setValue('30');
    expect(wrapper.get('[data-testid="history-save"]').attributes('disabled')).toBeUndefined();
    await wrapper.get('[data-testid="history-size"]').setValue('512');
    await wrapper.get('[data-testid="history-unit"]').setValue('MiB');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(api.calls.find((call) => call.channel === 'settings:update')?.payload).toEqual({ historyRecording: true, historyRetentionDays: 30, historyMaxBytes: 512 * 1024 ** 2, historyStore: '' });
    expect(wrapper.text()).toContain('Saved.');
  });

  it('refuses a bad value with a reason, and shows an engine refusal', async () => {
    installApi({ 'history:status': () => ok(STATUS), 'settings:update': () => err('invalid-request', 'historyMaxBytes: too big') });
    wrapper = test.mount(SettingsHistoryCard);
    await flushPromises();
    await wrapper.get('[data-testid="history-days"]').setValue('0');
    expect(wrapper.get('[data-testid="history-settings-problem"]').text()).toBe('Keep history between 1 and 365 days.');
    expect(wrapper.get('[data-testid="history-save"]').attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="history-days"]').setValue('20');
    await wrapper.get('form').trigger('submit');
    await flushPromises();
    expect(wrapper.get('[data-testid="history-settings-error"]').text()).toBe('The history settings could not be saved: historyMaxBytes: too big');
    expect((wrapper.get('[data-testid="history-days"]').element as HTMLInputElement).value).toBe('20');
  });
});

describe('range picker', () => {
  const NOW = new Date(2025, 4, 3, 14, 0, 0).getTime();

  it('picks presets, and applies a custom range only once it is valid', async () => {
    let model: RangeSelection = { choice: '1h', custom: null };
    wrapper = test.mount(ChartRangePicker, { props: { now: NOW, modelValue: model, 'onUpdate:modelValue': (value: RangeSelection) => { model = value; void wrapper?.setProps({ modelValue: value }); } } });
    await wrapper.get('[data-option="24h"]').trigger('click');
    expect(model).toEqual({ choice: '24h', custom: null });
    await wrapper.get('[data-option="custom"]').trigger('click');
    await wrapper.get('[data-testid="range-from"]').setValue('2025-05-03T13:00');
    await wrapper.get('[data-testid="range-to"]').setValue('2025-05-03T12:00');
    await wrapper.get('form').trigger('submit');
    expect(wrapper.get('[data-testid="range-error"]').text()).toBe('The start must be before the end.');
    expect(model.choice).toBe('24h');
    await wrapper.get('[data-testid="range-to"]').setValue('2025-05-03T13:30');
    await wrapper.get('form').trigger('submit');
    expect(model).toEqual({ choice: 'custom', custom: { from: new Date(2025, 4, 3, 13).getTime(), to: new Date(2025, 4, 3, 13, 30).getTime() } });
    expect(wrapper.find('[data-testid="range-error"]').exists()).toBe(false);
  });
});
