// @vitest-environment happy-dom
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, disposePinia, setActivePinia, type Pinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UPLOAD_CHUNK_BYTES, type OpenedSnapshot } from '../../../shared/contracts/snapshot.ts';
import { err, ok } from '../../../shared/result.ts';
import { setApi } from '../../../renderer/api/index.ts';
import { useContextsStore } from '../../../renderer/stores/contexts.ts';
import { UPLOAD_PIECE_BYTES, useSnapshotsStore } from '../../../renderer/stores/snapshots.ts';
import SnapshotsView from '../../../renderer/views/snapshots/SnapshotsView.vue';
import { APP_INFO, CONTEXT_LIST, createFakeApi, type Handlers } from './fake-api.ts';

const OPENED: OpenedSnapshot = {
  id: 'abc',
  contextName: 'snapshot: prod @ 2024-05-01 12:00:00Z',
  fileName: 'prod.kubedrift.json.gz',
  takenAt: Date.parse('2024-05-01T12:00:00Z'),
  createdAt: Date.parse('2024-05-01T12:00:01Z'),
  openedAt: Date.parse('2024-05-02T08:00:00Z'),
  live: true,
  source: { name: 'prod', server: 'https://prod.example.com', demo: false },
  scope: { type: 'cluster' },
  kubedriftVersion: '0.1.0',
  bytes: 23_000,
  counts: { objects: 91, events: 10, workloads: 18, drifting: 2, episodes: 3, samples: 400 },
  byKind: { Deployment: 14 },
  window: { from: 0, to: 1 },
};

const WITH_SNAPSHOT = {
  ...CONTEXT_LIST,
  contexts: [...CONTEXT_LIST.contexts, { name: OPENED.contextName, cluster: 'prod', user: 'read-only snapshot', source: OPENED.fileName, demo: false, snapshot: { file: OPENED.fileName, takenAt: OPENED.takenAt, readOnly: true } }],
};

let pinia: Pinia;
let saved: Array<{ name: string; size: number }>;

function setup(handlers: Handlers = {}) {
  const api = createFakeApi({ 'snapshot:list': () => ok({ snapshots: [] }), ...handlers });
  setApi(api);
  return api;
}

beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    saved.push({ name: '', size: (blob as Blob).size });
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const last = saved.at(-1);
    if (last) last.name = this.download;
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  disposePinia(pinia);
});

describe('snapshots store', () => {
  it('sends uploads in pieces the contract accepts', () => {
    expect(UPLOAD_PIECE_BYTES).toBeLessThanOrEqual(UPLOAD_CHUNK_BYTES);
  });

  it('tells views when the selected context is a read-only snapshot, and why', async () => {
    setup({ 'contexts:list': () => ok({ ...WITH_SNAPSHOT, selected: OPENED.contextName }) });
    const store = useSnapshotsStore();
    await flushPromises();
    expect(store.readOnly).toBe(true);
    expect(store.readOnlyReason).toBe('This is an offline snapshot (prod.kubedrift.json.gz, taken 2024-05-01 12:00:00 UTC): it cannot be compared with or changed on a live cluster. Switch to a live context to do that.');
    useContextsStore().$patch({ selected: 'kind-dev' });
    expect(store.readOnly).toBe(false);
    expect(store.readOnlyReason).toBeNull();
  });

  it('exports in the browser by downloading the pieces and saving them as one file', async () => {
    const pieces = ['aGVsbG8g', 'd29ybGQ='];
    const api = setup({
      'snapshot:export': (request) => ok({ id: 'x1', format: request.format, fileName: 'prod.yaml', mimeType: 'application/yaml', bytes: 11, objects: 5, takenAt: 1, canceled: false, notes: [] }),
      'snapshot:download': ({ offset }) => ok({ id: 'x1', offset, data: pieces[offset === 0 ? 0 : 1] as string, total: 11, nextOffset: offset === 0 ? 6 : null, fileName: 'prod.yaml', mimeType: 'application/yaml' }),
    });
    const store = useSnapshotsStore();
    expect(await store.runExport({ format: 'yaml', scope: { type: 'namespace', namespace: 'shop' }, at: null, window: null, keepStatus: true })).toBe(true);
    expect(api.calls.find((call) => call.channel === 'snapshot:export')?.payload).toEqual({ format: 'yaml', scope: { type: 'namespace', namespace: 'shop' }, at: null, window: null, keepStatus: true, destination: 'download' });
    expect(api.calls.filter((call) => call.channel === 'snapshot:download').map((call) => (call.payload as { offset: number }).offset)).toEqual([0, 6]);
    expect(saved).toEqual([{ name: 'prod.yaml', size: 11 }]);
    expect(store.exportOutcome).toMatchObject({ downloaded: true, result: { fileName: 'prod.yaml' } });
  });

  it('lets the desktop app save through its dialog instead', async () => {
    const api = setup({
      'app:info': () => ok({ ...APP_INFO, shell: 'desktop' }),
      'snapshot:export': () => ok({ id: 'x2', format: 'html', fileName: 'r.html', mimeType: 'text/html', bytes: 3, objects: 1, takenAt: 1, path: '/home/me/r.html', canceled: false, notes: [] }),
    });
    const store = useSnapshotsStore();
    const { useAppStore } = await import('../../../renderer/stores/app.ts');
    await useAppStore().load();
    await store.runExport({ format: 'html', scope: { type: 'cluster' }, at: 5, window: { from: 1, to: 5 }, keepStatus: false });
    expect(api.calls.find((call) => call.channel === 'snapshot:export')?.payload).toMatchObject({ destination: 'dialog', at: 5 });
    expect(api.calls.some((call) => call.channel === 'snapshot:download')).toBe(false);
    expect(saved).toEqual([]);
  });

  it('uploads a chosen file in pieces and opens it; a refused file keeps the engine\'s reason', async () => {
    const received: number[] = [];
    const api = setup({
      'snapshot:upload': ({ offset, data }) => {
        received.push(offset);
        return ok({ uploadId: 'u1', received: offset + atob(data).length });
      },
      'snapshot:open': () => err('invalid-request', 'big.kubedrift.json.gz is incomplete: the file ends after 600000 bytes'),
    });
    const store = useSnapshotsStore();
    const file = new File([new Uint8Array(600_000)], 'big.kubedrift.json.gz');
    expect(await store.openFile(file)).toBeNull();
    expect(received).toEqual([0, UPLOAD_PIECE_BYTES, 2 * UPLOAD_PIECE_BYTES]);
    expect(api.calls.find((call) => call.channel === 'snapshot:open')?.payload).toEqual({ source: 'upload', uploadId: 'u1', fileName: 'big.kubedrift.json.gz' });
    expect(store.openError?.message).toContain('is incomplete');
    expect(await store.openFile(new File([], 'empty.gz'))).toBeNull();
    expect(store.openError?.message).toBe('empty.gz is empty: it is not a Kubedrift snapshot');
  });
});

describe('Snapshots screen', () => {
  it('lists opened snapshots, shows one on request and explains what blocks an export', async () => {
    const api = setup({ 'snapshot:list': () => ok({ snapshots: [OPENED] }), 'contexts:list': () => ok(WITH_SNAPSHOT), 'contexts:select': ({ name }) => ok({ ...WITH_SNAPSHOT, selected: name }) });
    const wrapper = mount(SnapshotsView, { global: { plugins: [pinia] } });
    await flushPromises();
    const item = wrapper.get('[data-testid="snapshot-item"]');
    expect(item.text()).toContain('prod');
    expect(item.text()).toContain('2024-05-01 12:00:00 UTC');
    expect(item.text()).toContain('91 objects · 18 workloads · 2 drifting · 3 episodes');
    await item.get('[data-testid="snapshot-show"]').trigger('click');
    await flushPromises();
    expect(api.calls.find((call) => call.channel === 'contexts:select')?.payload).toEqual({ name: OPENED.contextName });
    expect(wrapper.get('[data-testid="snapshot-item"]').text()).toContain('Showing');
    expect(wrapper.get('[data-testid="snapshot-read-only"]').text()).toContain('offline snapshot (prod.kubedrift.json.gz');

    await wrapper.get('[data-testid="export-scope"] [data-option="namespace"]').trigger('click');
    expect(wrapper.get('[data-testid="export-blocked"]').text()).toBe('Choose the namespace to export.');
    expect(wrapper.get('[data-testid="export-submit"]').attributes('disabled')).toBeDefined();
    await wrapper.get('[data-testid="export-format"] [data-option="yaml"]').trigger('click');
    expect(wrapper.find('[data-testid="export-keep-status"]').exists()).toBe(true);
    wrapper.unmount();
  });
});
