/**
 * Snapshots: exporting what the selected context shows (live, or at the time-travel store's T),
 * opening snapshot files as read-only contexts, the list of opened ones and comparing two.
 *
 * Where bytes go depends on the shell: the desktop app's engine asks where to save and opens its
 * own dialog; in the browser the engine hands the export over in pieces (`snapshot:download`)
 * that become a download, and a chosen file goes up in pieces (`snapshot:upload`). `readOnly`
 * tells every view that the selected context is an offline snapshot, so editing actions (diff
 * against live) can be disabled with `readOnlyReason` as the explanation.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type {
  DownloadChunk,
  ExportFormat,
  ExportResult,
  OpenedSnapshot,
  SnapshotComparison,
  SnapshotList,
  SnapshotProgress,
  SnapshotScope,
  TimeWindow,
} from '../../shared/contracts/snapshot.ts';
import type { KdError, Result } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { fromBase64, saveBlob, toBase64 } from '../components/export/download.ts';
import { useAppStore } from './app.ts';
import { useContextsStore } from './contexts.ts';
import { follow } from './live.ts';

/**
 * Bytes per upload message. The contract's schema allows up to UPLOAD_PIECE_BYTES; restated here
 * because importing values from the contract module would bring zod into the renderer bundle
 * (a unit test keeps the two in step).
 */
export const UPLOAD_PIECE_BYTES = 256 * 1024;

export interface ExportForm {
  format: ExportFormat;
  scope: SnapshotScope;
  /** null: live. */
  at: number | null;
  window: TimeWindow | null;
  keepStatus: boolean;
}

/** What the last export did, for the line under the form. */
export interface ExportOutcome {
  result: ExportResult;
  /** Downloaded by the browser (rather than written by the desktop app). */
  downloaded: boolean;
}

function utc(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

export const useSnapshotsStore = defineStore('snapshots', () => {
  const snapshots = shallowRef<OpenedSnapshot[]>([]);
  const loaded = ref(false);
  const loadError = shallowRef<KdError | null>(null);

  const exporting = ref(false);
  const progress = shallowRef<SnapshotProgress | null>(null);
  const exportOutcome = shallowRef<ExportOutcome | null>(null);
  const exportError = shallowRef<KdError | null>(null);

  const opening = ref(false);
  /** Bytes sent of the file being uploaded (browser shell). */
  const uploadProgress = shallowRef<{ sent: number; total: number } | null>(null);
  const openError = shallowRef<KdError | null>(null);
  const lastOpened = shallowRef<OpenedSnapshot | null>(null);

  const comparing = ref(false);
  const comparison = shallowRef<SnapshotComparison | null>(null);
  const compareError = shallowRef<KdError | null>(null);

  const contexts = useContextsStore();
  const app = useAppStore();

  /** The desktop app saves and opens through its own dialogs. */
  const desktop = computed(() => app.info?.shell === 'desktop');
  const readOnly = computed(() => contexts.selectedContext?.snapshot?.readOnly === true);
  const readOnlyReason = computed(() => {
    const snapshot = contexts.selectedContext?.snapshot;
    if (!snapshot?.readOnly) return null;
    return `This is an offline snapshot (${snapshot.file}, taken ${utc(snapshot.takenAt)}): it cannot be compared with or changed on a live cluster. Switch to a live context to do that.`;
  });
  /** The opened snapshot the selected context shows, if any. */
  const current = computed(() => snapshots.value.find((snapshot) => snapshot.contextName === contexts.selected) ?? null);

  function applyList(list: SnapshotList): void {
    snapshots.value = list.snapshots;
    loaded.value = true;
  }

  const follower = follow<SnapshotList>({
    load: () => api().request('snapshot:list', {}),
    subscribe: (listener) => api().subscribe('snapshot:list', listener),
    apply: applyList,
    setError: (error) => {
      loadError.value = error;
    },
  });

  api().subscribe('snapshot:progress', (next) => {
    if (exporting.value) progress.value = next;
  });

  async function download(result: ExportResult): Promise<KdError | null> {
    const parts: Array<Uint8Array<ArrayBuffer>> = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const piece: Result<DownloadChunk> = await api().request('snapshot:download', { id: result.id, offset });
      if (!piece.ok) return piece.error;
      parts.push(fromBase64(piece.value.data));
      progress.value = { id: result.id, format: result.format, phase: 'writing', done: piece.value.nextOffset ?? piece.value.total, total: piece.value.total, message: 'Downloading' };
      offset = piece.value.nextOffset;
    }
    saveBlob(new Blob(parts, { type: result.mimeType }), result.fileName);
    return null;
  }

  /** Exports with the form's choices; the outcome or the error stays for the form to show. */
  async function runExport(form: ExportForm): Promise<boolean> {
    exporting.value = true;
    exportError.value = null;
    exportOutcome.value = null;
    progress.value = null;
    try {
      const result = await api().request('snapshot:export', {
        format: form.format,
        scope: form.scope,
        at: form.at,
        window: form.window,
        ...(form.format === 'yaml' ? { keepStatus: form.keepStatus } : {}),
        destination: desktop.value ? 'dialog' : 'download',
      });
      if (!result.ok) {
        exportError.value = result.error;
        return false;
      }
      if (!desktop.value) {
        const failed = await download(result.value);
        if (failed) {
          exportError.value = failed;
          return false;
        }
      }
      exportOutcome.value = { result: result.value, downloaded: !desktop.value };
      return !result.value.canceled;
    } finally {
      exporting.value = false;
    }
  }

  async function finishOpen(request: { source: 'dialog' } | { source: 'upload'; uploadId: string; fileName: string }): Promise<OpenedSnapshot | null> {
    const result = await api().request('snapshot:open', request);
    if (!result.ok) {
      openError.value = result.error;
      return null;
    }
    lastOpened.value = result.value.snapshot;
    return result.value.snapshot;
  }

  /** Desktop: the engine shows the open dialog. */
  async function openWithDialog(): Promise<OpenedSnapshot | null> {
    opening.value = true;
    openError.value = null;
    try {
      return await finishOpen({ source: 'dialog' });
    } finally {
      opening.value = false;
    }
  }

  /** Browser: sends the chosen file up in pieces, then opens it. */
  async function openFile(file: File): Promise<OpenedSnapshot | null> {
    opening.value = true;
    openError.value = null;
    uploadProgress.value = { sent: 0, total: file.size };
    try {
      if (file.size === 0) {
        openError.value = { code: 'invalid-request', message: `${file.name} is empty: it is not a Kubedrift snapshot` };
        return null;
      }
      const bytes = new Uint8Array(await file.arrayBuffer());
      let uploadId: string | undefined;
      for (let offset = 0; offset < bytes.length; offset += UPLOAD_PIECE_BYTES) {
        const data = toBase64(bytes.subarray(offset, offset + UPLOAD_PIECE_BYTES));
        const sent = await api().request('snapshot:upload', { ...(uploadId ? { uploadId } : {}), offset, data });
        if (!sent.ok) {
          openError.value = sent.error;
          return null;
        }
        uploadId = sent.value.uploadId;
        uploadProgress.value = { sent: sent.value.received, total: bytes.length };
      }
      return await finishOpen({ source: 'upload', uploadId: uploadId as string, fileName: file.name });
    } finally {
      opening.value = false;
      uploadProgress.value = null;
    }
  }

  /** Shows an opened snapshot: selects its read-only context. */
  function show(snapshot: OpenedSnapshot): Promise<boolean> {
    return contexts.select(snapshot.contextName);
  }

  async function close(snapshot: OpenedSnapshot): Promise<void> {
    const result = await api().request('snapshot:close', { id: snapshot.id });
    if (!result.ok) {
      openError.value = result.error;
      return;
    }
    applyList(result.value);
    if (comparison.value && (comparison.value.a.id === snapshot.id || comparison.value.b.id === snapshot.id)) comparison.value = null;
  }

  async function compare(a: string, b: string): Promise<void> {
    comparing.value = true;
    compareError.value = null;
    try {
      const result = await api().request('snapshot:compare', { a, b });
      if (result.ok) comparison.value = result.value;
      else compareError.value = result.error;
    } finally {
      comparing.value = false;
    }
  }

  return {
    snapshots,
    loaded,
    loadError,
    exporting,
    progress,
    exportOutcome,
    exportError,
    opening,
    uploadProgress,
    openError,
    lastOpened,
    comparing,
    comparison,
    compareError,
    desktop,
    readOnly,
    readOnlyReason,
    current,
    runExport,
    openWithDialog,
    openFile,
    show,
    close,
    compare,
    refresh: follower.refresh,
  };
});
