// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../shared/result.ts';
import SettingsUpdatesCard from '../../../renderer/views/settings/SettingsUpdatesCard.vue';
import { APP_INFO, SETTINGS } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ hash: '#/settings' });
const DESKTOP = { ...APP_INFO, shell: 'desktop' as const, runtime: { node: '22.20.0', electron: '45.4.1' } };
/** 09:30 local time today: written on the app's 24-hour clock, without the day. */
const AT = new Date().setHours(9, 30, 0, 0);

async function mountCard(): Promise<VueWrapper> {
  const wrapper = test.mount(SettingsUpdatesCard);
  await flushPromises();
  return wrapper;
}

function toggle(wrapper: VueWrapper) {
  return wrapper.get('[data-testid="update-checks-toggle"]');
}

describe('updates settings', () => {
  it('has "Check for updates" on by default in the desktop app, and switching it off saves updateChecks: false', async () => {
    const api = installApi({ 'app:info': () => ok(DESKTOP), 'settings:get': () => ok(SETTINGS) });
    const wrapper = await mountCard();
    expect(toggle(wrapper).attributes('aria-pressed')).toBe('true');
    expect(toggle(wrapper).attributes('disabled')).toBeUndefined();
    await toggle(wrapper).trigger('click');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'settings:update').map((call) => call.payload)).toEqual([{ updateChecks: false }]);
    expect(toggle(wrapper).attributes('aria-pressed')).toBe('false');
    expect(wrapper.get('[data-testid="update-status"]').text()).toContain('does not look for updates');
  });

  it('shows a setting saved as off as off', async () => {
    installApi({ 'app:info': () => ok(DESKTOP), 'settings:get': () => ok({ ...SETTINGS, updateChecks: false }) });
    const wrapper = await mountCard();
    expect(toggle(wrapper).attributes('aria-pressed')).toBe('false');
  });

  it('in the browser shell, shows the switch disabled with the note that only the desktop app updates itself', async () => {
    const api = installApi({ 'settings:get': () => ok(SETTINGS) });
    const wrapper = await mountCard();
    expect(toggle(wrapper).attributes('disabled')).toBeDefined();
    expect(toggle(wrapper).attributes('aria-pressed')).toBe('false');
    expect(wrapper.text()).toContain('Only the desktop app updates itself');
    await toggle(wrapper).trigger('click');
    await flushPromises();
    expect(api.calls.some((call) => call.channel === 'settings:update')).toBe(false);
    expect(wrapper.find('[data-testid="update-status"]').exists()).toBe(false);
  });

  it('says a failed check quietly, as a status line and not an alert', async () => {
    const api = installApi({ 'app:info': () => ok(DESKTOP), 'settings:get': () => ok(SETTINGS) });
    const wrapper = await mountCard();
    api.emit('updates:status', { state: 'failed', message: 'net::ERR_INTERNET_DISCONNECTED', at: AT });
    await flushPromises();
    const line = wrapper.get('[data-testid="update-status"]');
    expect(line.attributes('role')).toBe('status');
    expect(line.text()).toBe('The last check, at 09:30:00, did not complete (net::ERR_INTERNET_DISCONNECTED); Kubedrift tries again later.');
    expect(wrapper.find('[role="alert"]').exists()).toBe(false);
  });

  it('follows the checks as the desktop app reports them', async () => {
    const api = installApi({ 'app:info': () => ok(DESKTOP), 'settings:get': () => ok(SETTINGS) });
    const wrapper = await mountCard();
    api.emit('updates:status', { state: 'checking', at: AT });
    await flushPromises();
    expect(wrapper.get('[data-testid="update-status"]').text()).toBe('Checking for updates…');
    api.emit('updates:status', { state: 'skipped', version: '0.2.0', at: AT });
    await flushPromises();
    expect(wrapper.get('[data-testid="update-status"]').text()).toBe('Kubedrift 0.2.0 was skipped; newer releases will still be offered.');
  });

  it('shows why the engine refused to save the switch', async () => {
    installApi({ 'app:info': () => ok(DESKTOP), 'settings:get': () => ok(SETTINGS), 'settings:update': () => err('internal', 'EACCES: permission denied, open settings.json') });
    const wrapper = await mountCard();
    await toggle(wrapper).trigger('click');
    await flushPromises();
    expect(wrapper.get('[data-testid="update-settings-error"]').text()).toBe('The update setting could not be saved: EACCES: permission denied, open settings.json');
    expect(toggle(wrapper).attributes('aria-pressed')).toBe('true');
  });
});
