// @vitest-environment happy-dom
import { flushPromises, type VueWrapper } from '@vue/test-utils';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DiffConfig, DiffRow, DiffState, DiffSummary, ObjectDiff } from '../../../shared/contracts/diff.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import DiffView from '../../../renderer/views/diff/DiffView.vue';
import { useDiffStore } from '../../../renderer/stores/diff.ts';
import type { FakeApi, Handlers } from './fake-api.ts';
import { installApi, useRendererTest } from './setup.ts';

const PATH_INFO = { path: '/repo/manifests', ok: true, type: 'folder' as const, files: 3, kustomizations: 0, helmCharts: 0, message: 'Folder with 3 manifest files.' };
/** As the browser shell's engine answers: no native picker. */
const CONFIG: DiffConfig = { context: 'kind-dev', paths: [PATH_INFO], ignores: [], kubectl: true, picker: false };
const SUMMARY: DiffSummary = { runId: 'run-1', context: 'kind-dev', startedAt: 1_700_000_000_000, durationMs: 212, counts: { InSync: 1, OutOfSync: 1, Missing: 1, Error: 1 }, total: 4, approximate: 0, notices: [] };

function row(id: string, status: DiffRow['status'], over: Partial<DiffRow> = {}): DiffRow {
  return { id, status, apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'shop', name: id, source: { file: `/repo/manifests/${id}.yaml`, line: 1 }, changed: status === 'OutOfSync' ? 1 : 0, ignored: 0, approximate: false, fields: status === 'OutOfSync' ? ['spec.replicas'] : [], ...over };
}
const ROWS = [row('web', 'OutOfSync'), row('cache', 'Missing'), row('broken', 'Error', { kind: '', name: '', reason: 'invalid YAML: bad indentation' }), row('api', 'InSync')];

function objectDiff(id: string): ObjectDiff {
  const target = ROWS.find((r) => r.id === id) ?? ROWS[0]!;
  return {
    row: target,
    live: 'spec:\n  replicas: 5\n',
    predicted: 'spec:\n  replicas: 2\n',
    edits: [['=', 1], ['-', 1], ['+', 1]],
    unified: 'diff -u -N LIVE/x MERGED/x\n',
    fields: [{ path: 'spec.replicas', op: 'changed', live: '5', predicted: '2', owner: { kind: 'hpa', text: 'The HorizontalPodAutoscaler "web" owns replicas.' }, ignore: { group: 'apps', kind: 'Deployment', name: id, namespace: 'shop', jsonPointers: ['/spec/replicas'] } }],
    truncated: false,
  };
}

const test = useRendererTest();
beforeEach(() => window.sessionStorage.clear());

function baseHandlers(): Handlers {
  return {
    'diff:config': () => ok(CONFIG),
    'diff:rows': ({ offset, limit }) => ok({ runId: 'run-1', offset, total: ROWS.length, rows: ROWS.slice(offset, offset + limit) }),
    'diff:object': ({ id }) => ok(objectDiff(id)),
  };
}

async function mountView(handlers: Handlers = {}): Promise<{ api: FakeApi; view: VueWrapper }> {
  const api = installApi({ ...baseHandlers(), ...handlers });
  const view = test.mount(DiffView, { attachTo: document.body });
  await flushPromises();
  return { api, view };
}

const done = (summary: DiffSummary = SUMMARY, trigger: DiffState['trigger'] = 'manual'): DiffState => ({ context: 'kind-dev', state: 'done', trigger, done: summary.total, total: summary.total, summary });

describe('DiffView', () => {
  it('offers the demo context its own manifests: one click uses the folder and runs the diff', async () => {
    const folder = '/app/out/main/demo-manifests';
    const { api, view } = await mountView({
      'diff:config': () => ok({ ...CONFIG, context: 'kubedrift-demo', paths: [], demoManifests: folder }),
      'diff:paths': ({ paths }) => ok({ ...CONFIG, context: 'kubedrift-demo', demoManifests: folder, paths: paths.map((path) => ({ ...PATH_INFO, path })) }),
      'diff:run': () => ok(SUMMARY),
    });
    expect(view.get('[data-testid="diff-demo-offer"]').text()).toContain('deliberate differences');
    await view.get('[data-testid="diff-try-demo"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((call) => call.channel === 'diff:paths' || call.channel === 'diff:run').map((call) => [call.channel, call.payload])).toEqual([
      ['diff:paths', { paths: [folder] }],
      ['diff:run', {}],
    ]);
    expect(view.find('[data-testid="diff-demo-offer"]').exists()).toBe(false);
  });

  it('offers no demo manifests on other contexts', async () => {
    const { view } = await mountView({ 'diff:config': () => ok({ ...CONFIG, paths: [] }) });
    expect(view.find('[data-testid="diff-demo-offer"]').exists()).toBe(false);
  });

  it('asks for a folder first, checking the path with the engine as it is typed', async () => {
    vi.useFakeTimers();
    try {
      const { api, view } = await mountView({
        'diff:config': () => ok({ ...CONFIG, paths: [] }),
        'diff:inspect': ({ path }) => ok(path === '/nope' ? { ...PATH_INFO, path, ok: false, type: 'missing', files: 0, message: 'No such file or folder.' } : { ...PATH_INFO, path }),
        'diff:paths': ({ paths }) => ok({ ...CONFIG, paths: paths.map((path) => ({ ...PATH_INFO, path })) }),
      });
      expect(view.get('[data-testid="diff-run"]').attributes('disabled')).toBeDefined();
      await view.get('[data-testid="diff-path-input"]').setValue('/nope');
      await vi.advanceTimersByTimeAsync(300);
      await flushPromises();
      expect(view.get('[data-testid="diff-path-feedback"]').text()).toBe('/nope: No such file or folder.');
      expect(view.get('[data-testid="diff-path-add"]').attributes('disabled')).toBeDefined();
      await view.get('[data-testid="diff-path-input"]').setValue('/repo/manifests');
      await vi.advanceTimersByTimeAsync(300);
      await flushPromises();
      await view.get('form').trigger('submit');
      await flushPromises();
      expect(api.calls.filter((c) => c.channel === 'diff:paths').map((c) => c.payload)).toEqual([{ paths: ['/repo/manifests'] }]);
      expect(view.get('[data-testid="diff-run"]').attributes('disabled')).toBeUndefined();
      expect(view.get('[data-testid="diff-prompt"]').text()).toMatch(/Press Run diff or Ctrl\+Shift\+D/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers native pickers in the desktop app: a chosen folder fills the field, is checked at once and can be used', async () => {
    let answer: Result<{ path: string | null }> = ok({ path: null });
    const { api, view } = await mountView({
      'diff:config': () => ok({ ...CONFIG, paths: [], picker: true }),
      'diff:choose-path': () => answer,
      'diff:inspect': ({ path }) => ok({ ...PATH_INFO, path }),
      'diff:paths': ({ paths }) => ok({ ...CONFIG, picker: true, paths: paths.map((path) => ({ ...PATH_INFO, path })) }),
    });
    const input = () => view.get<HTMLInputElement>('[data-testid="diff-path-input"]').element;
    const feedback = () => view.get('[data-testid="diff-path-feedback"]');
    expect(view.get('[data-testid="diff-choose-folder"]').text()).toBe('Choose folder…');
    expect(view.get('[data-testid="diff-choose-file"]').attributes('title')).toBe('Pick one .yaml, .yml or .json manifest file');
    expect(view.get('[data-testid="diff-path-hint"]').text()).not.toMatch(/Type or paste/);

    // Cancelling keeps what was typed.
    await view.get('[data-testid="diff-path-input"]').setValue('/repo/typed');
    await view.get('[data-testid="diff-choose-file"]').trigger('click');
    await flushPromises();
    expect(input().value).toBe('/repo/typed');
    // A picker that cannot open says why, where the path is entered.
    answer = err('internal', 'The folder picker could not open: no display');
    await view.get('[data-testid="diff-choose-folder"]').trigger('click');
    await flushPromises();
    expect(feedback().text()).toBe('The folder picker could not open: no display');
    expect(feedback().attributes('role')).toBe('alert');

    answer = ok({ path: '/repo/manifests' });
    await view.get('[data-testid="diff-choose-folder"]').trigger('click');
    await flushPromises();
    expect(input().value).toBe('/repo/manifests');
    await vi.waitFor(() => expect(feedback().text()).toBe('/repo/manifests: Folder with 3 manifest files.'));
    const use = view.get('[data-testid="diff-path-add"]');
    expect(use.attributes('disabled')).toBeUndefined();
    await vi.waitFor(() => expect(document.activeElement).toBe(use.element));
    expect(api.calls.filter((c) => c.channel === 'diff:choose-path').map((c) => c.payload)).toEqual([{ kind: 'file' }, { kind: 'folder' }, { kind: 'folder' }]);

    await view.get('form').trigger('submit');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'diff:paths').map((c) => c.payload)).toEqual([{ paths: ['/repo/manifests'] }]);
    expect(view.get('[data-testid="diff-run"]').attributes('disabled')).toBeUndefined();
  });

  it('offers no picker in the browser shell and says to type or paste the path', async () => {
    const { api, view } = await mountView({ 'diff:config': () => ok({ ...CONFIG, paths: [] }) });
    expect(view.find('[data-testid="diff-choose-folder"]').exists()).toBe(false);
    expect(view.find('[data-testid="diff-choose-file"]').exists()).toBe(false);
    expect(view.get('[data-testid="diff-path-hint"]').text()).toMatch(/^Type or paste the path: the browser shell cannot open a native folder picker\. /);
    expect(api.calls.some((c) => c.channel === 'diff:choose-path')).toBe(false);
  });

  it('runs from the button and from Ctrl+Shift+D, shows progress, then counts and rows with the first problem open', async () => {
    const { api, view } = await mountView({ 'diff:run': () => ok(SUMMARY) });
    const button = view.get('[data-testid="diff-run"]');
    expect(button.attributes('title')).toBe('Diff the manifests against the cluster (Ctrl+Shift+D)');
    api.emit('diff:changed', { context: 'kind-dev', state: 'running', trigger: 'manual', phase: 'comparing', done: 120, total: 500 });
    await flushPromises();
    expect(view.get('[data-testid="diff-run-status"]').text()).toBe('Comparing 120 / 500…');
    api.emit('diff:changed', done());
    await flushPromises();
    expect(view.findAll('[data-testid="diff-counts"] .value').map((v) => v.text())).toEqual(['1', '1', '1', '1']);
    await vi.waitFor(() => expect(view.get('[data-testid="diff-object-title"]').text()).toBe('Deployment shop/web'));
    expect(view.get('[data-testid="diff-field-owner"]').text()).toMatch(/^HPA\s*The HorizontalPodAutoscaler "web" owns replicas\.$/);

    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'D', ctrlKey: true, shiftKey: true }));
    await flushPromises();
    await button.trigger('click');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'diff:run')).toHaveLength(2);
  });

  it('filters the list by a count tile and opens the clicked object', async () => {
    const { api, view } = await mountView();
    api.emit('diff:changed', done());
    await flushPromises();
    await view.get('[data-testid="diff-count-Error"]').trigger('click');
    await flushPromises();
    const objects = () => view.findAll('[data-testid^="diff-row-"]').map((r) => r.attributes('data-testid'));
    expect(objects()).toEqual(['diff-row-Error']);
    await view.get('[data-testid="diff-count-Error"]').trigger('click');
    await flushPromises();
    expect(objects()).toEqual(['diff-row-OutOfSync', 'diff-row-Missing', 'diff-row-Error', 'diff-row-InSync']);
    await view.get('[data-testid="diff-row-InSync"]').trigger('click');
    await flushPromises();
    expect(api.calls.filter((c) => c.channel === 'diff:object').at(-1)?.payload).toEqual({ runId: 'run-1', id: 'api' });
  });

  it('switches between side-by-side and unified views and opens folded lines', async () => {
    const { api, view } = await mountView({ 'diff:object': () => ok({ ...objectDiff('web'), live: Array.from({ length: 12 }, (_, i) => `k${i}: ${i}`).join('\n'), predicted: Array.from({ length: 12 }, (_, i) => `k${i}: ${i === 11 ? 99 : i}`).join('\n'), edits: [['=', 11], ['-', 1], ['+', 1]] }) });
    api.emit('diff:changed', done());
    await flushPromises();
    await vi.waitFor(() => expect(view.find('[data-testid="diff-side-by-side"]').exists()).toBe(true));
    expect(view.get('[data-testid="diff-fold"]').text()).toMatch(/^⋯ 8 unchanged lines \(from line 1\)$/);
    await view.get('[data-testid="diff-fold"]').trigger('click');
    expect(view.find('[data-testid="diff-fold"]').exists()).toBe(false);
    await view.get('[data-testid="diff-mode"] [data-option="unified"]').trigger('click');
    const unified = view.get('[data-testid="diff-unified"]');
    expect(unified.findAll('[data-kind="del"], [data-kind="add"]').map((line) => line.text())).toEqual(['12-k11: 11', '12+k11: 99']);
    // The Secret-like value is text, highlighted, never HTML.
    expect(unified.find('.tok-key').text()).toBe('k0');
  });

  it('ignores a field in one click and shows the engine\'s refusal of a bad rule', async () => {
    const ignore = vi.fn(() => ok({ ...CONFIG, ignores: [objectDiff('web').fields[0]!.ignore] }));
    const { api, view } = await mountView({ 'diff:ignore': ignore });
    api.emit('diff:changed', done());
    await flushPromises();
    await vi.waitFor(() => expect(view.find('[data-testid="diff-ignore-field"]').exists()).toBe(true));
    await view.get('[data-testid="diff-ignore-field"]').trigger('click');
    await flushPromises();
    expect(ignore).toHaveBeenCalledWith({ rule: { group: 'apps', kind: 'Deployment', name: 'web', namespace: 'shop', jsonPointers: ['/spec/replicas'] } });
    expect(view.get('[data-testid="diff-pane"] [data-option="ignores"]').text()).toBe('Ignore rules 1');
    // A refusal is shown where the user clicked.
    installApi({ ...baseHandlers(), 'diff:ignore': () => err('invalid-request', 'An ignore rule needs at least one JSON pointer.') });
    await view.get('[data-testid="diff-ignore-field"]').trigger('click');
    await flushPromises();
    expect(view.text()).toContain('An ignore rule needs at least one JSON pointer.');
  });

  it('runs kubectl diff and shows its exit code and output', async () => {
    const { view } = await mountView({ 'diff:kubectl': () => ok({ command: 'kubectl diff -f /repo/manifests/web.yaml', exitCode: 1, stdout: '+  replicas: 2\n', stderr: '', durationMs: 1400, truncated: false }) });
    useDiffStore().state = done();
    await flushPromises();
    await view.get('[data-testid="diff-pane"] [data-option="kubectl"]').trigger('click');
    await view.get('[data-testid="diff-kubectl-run"]').trigger('click');
    await flushPromises();
    expect(view.get('[data-testid="diff-kubectl-exit"]').text()).toBe('exit 1');
    expect(view.get('[data-testid="diff-kubectl"]').text()).toContain('differences found · 1.4 s');
    expect(view.get('[data-testid="diff-kubectl-stdout"]').text()).toBe('+  replicas: 2');
  });

  it('shows a run that failed and forgets the result when the context changes', async () => {
    const { api, view } = await mountView({ 'diff:run': () => err('unreachable', 'The diff could not reach the cluster: connect ECONNREFUSED 127.0.0.1:6443') });
    api.emit('diff:changed', done());
    await flushPromises();
    await view.get('[data-testid="diff-run"]').trigger('click');
    await flushPromises();
    expect(view.get('[data-testid="diff-run-error"]').text()).toBe('The diff could not reach the cluster: connect ECONNREFUSED 127.0.0.1:6443');
    api.emit('diff:changed', { context: 'staging-eu', state: 'idle', done: 0, total: 0 });
    await flushPromises();
    expect(view.find('[data-testid="diff-counts"]').exists()).toBe(false);
    expect(api.calls.filter((c) => c.channel === 'diff:config').length).toBe(2);
  });
});
