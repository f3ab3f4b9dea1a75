// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import { err, ok } from '../../../shared/result.ts';
import ContextPicker from '../../../renderer/components/context/ContextPicker.vue';
import { CONTEXT_LIST, type FakeApi, type Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const test = useRendererTest({ openLink: false });

async function mountPicker(handlers: Handlers = {}): Promise<{ api: FakeApi; wrapper: VueWrapper }> {
  const api = installApi(handlers);
  const wrapper = test.mount(ContextPicker, { attachTo: document.body });
  await flushPromises();
  return { api, wrapper };
}

async function openMenu(picker: VueWrapper): Promise<void> {
  await picker.get('[data-testid="context-picker"]').trigger('click');
  await flushPromises();
}

function optionNames(picker: VueWrapper): Array<string | undefined> {
  return picker.findAll('[data-testid="context-option"]').map((option) => option.attributes('data-context'));
}

describe('ContextPicker', () => {
  it('shows the selected context and its server on the button', async () => {
    const { wrapper: picker } = await mountPicker();
    const button = picker.get('[data-testid="context-picker"]');
    expect(button.text()).toContain('kind-dev');
    expect(button.text()).toContain('127.0.0.1:6443');
    expect(button.attributes('aria-expanded')).toBe('false');
  });

  it('lists every context with its cluster, namespace, demo badge and problem', async () => {
    const { wrapper: picker } = await mountPicker();
    await openMenu(picker);
    expect(picker.find('[data-testid="context-menu"]').exists()).toBe(true);
    expect(optionNames(picker)).toEqual(CONTEXT_LIST.contexts.map((context) => context.name));
    expect(picker.get('[data-context="staging-eu"]').text()).toContain('ns: payments');
    expect(picker.get('[data-context="kubedrift-demo"]').text()).toContain('demo');
    expect(picker.get('[data-context="prod-us"]').text()).toContain('is not defined in any kubeconfig file');
  });

  it('filters the list by what the user types, across name, namespace and server', async () => {
    const { wrapper: picker } = await mountPicker();
    await openMenu(picker);
    const filter = picker.get('[data-testid="context-filter"]');
    await filter.setValue('stag');
    expect(optionNames(picker)).toEqual(['staging-eu']);
    await filter.setValue('payments');
    expect(optionNames(picker)).toEqual(['staging-eu']);
    await filter.setValue('127.0.0.1');
    expect(optionNames(picker)).toEqual(['kind-dev']);
    await filter.setValue('no-such-context');
    expect(optionNames(picker)).toEqual([]);
    expect(picker.text()).toContain('No context matches');
  });

  it('calls contexts:select when an option is clicked, then closes', async () => {
    const { api, wrapper: picker } = await mountPicker();
    await openMenu(picker);
    await picker.get('[data-context="staging-eu"]').trigger('click');
    await flushPromises();
    expect(api.calls).toContainEqual({ channel: 'contexts:select', payload: { name: 'staging-eu' } });
    expect(picker.find('[data-testid="context-menu"]').exists()).toBe(false);
    expect(picker.get('[data-testid="context-picker"]').text()).toContain('staging-eu');
  });

  it('moves with the arrow keys and switches with Enter', async () => {
    const { api, wrapper: picker } = await mountPicker();
    await openMenu(picker);
    const filter = picker.get('[data-testid="context-filter"]');
    // The highlight starts on the selected context (first); two steps down is the third.
    await filter.trigger('keydown', { key: 'ArrowDown' });
    await filter.trigger('keydown', { key: 'ArrowDown' });
    expect(picker.get('[data-context="prod-us"]').attributes('aria-selected')).toBe('true');
    await filter.trigger('keydown', { key: 'ArrowUp' });
    await filter.trigger('keydown', { key: 'Enter' });
    await flushPromises();
    expect(api.calls).toContainEqual({ channel: 'contexts:select', payload: { name: 'staging-eu' } });
  });

  it('closes on Escape without switching', async () => {
    const { api, wrapper: picker } = await mountPicker();
    await openMenu(picker);
    await picker.get('[data-testid="context-filter"]').trigger('keydown', { key: 'Escape' });
    expect(picker.find('[data-testid="context-menu"]').exists()).toBe(false);
    expect(api.calls.some((call) => call.channel === 'contexts:select')).toBe(false);
    expect(document.activeElement).toBe(picker.get('[data-testid="context-picker"]').element);
  });

  it('opens from the keyboard with the filter focused', async () => {
    const { wrapper: picker } = await mountPicker();
    await picker.get('[data-testid="context-picker"]').trigger('keydown', { key: 'ArrowDown' });
    await flushPromises();
    expect(document.activeElement).toBe(picker.get('[data-testid="context-filter"]').element);
  });

  it('closes when the user clicks elsewhere', async () => {
    const { wrapper: picker } = await mountPicker();
    await openMenu(picker);
    document.body.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
    await flushPromises();
    expect(picker.find('[data-testid="context-menu"]').exists()).toBe(false);
  });

  it('keeps the menu open with the error message when the engine refuses the switch', async () => {
    const { wrapper: picker } = await mountPicker({
      'contexts:select': ({ name }) => err('not-found', `There is no context named "${name}"`),
    });
    await openMenu(picker);
    await picker.get('[data-context="prod-us"]').trigger('click');
    await flushPromises();
    expect(picker.find('[data-testid="context-menu"]').exists()).toBe(true);
    const error = picker.get('[data-testid="context-select-error"]');
    expect(error.text()).toContain('There is no context named "prod-us"');
    expect(picker.get('[data-testid="context-picker"]').text()).toContain('kind-dev');
  });

  it('follows contexts:changed pushed by the engine', async () => {
    const { api, wrapper: picker } = await mountPicker({ 'contexts:list': () => ok(CONTEXT_LIST) });
    api.emit('contexts:changed', { ...CONTEXT_LIST, selected: 'kubedrift-demo' });
    await flushPromises();
    expect(picker.get('[data-testid="context-picker"]').text()).toContain('kubedrift-demo');
  });
});
