/**
 * What the selected context's user may see, kept live from `cluster:access`: the status bar's
 * and banner's line ("Namespaces shop, payments · Nodes hidden by your permissions"), the kinds
 * a screen can ask about ("are Nodes hidden?"), and "Check again". The engine decides what is
 * hidden; the renderer never guesses from empty lists.
 */
import { defineStore } from 'pinia';
import { computed, shallowRef } from 'vue';
import { accessStatusText, type HiddenKind } from '../../shared/access.ts';
import type { ClusterAccess } from '../../shared/contracts/access.ts';
import type { KdError } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { nextAccessNotices, type AccessNotice } from './access-notices.ts';
import { follow } from './live.ts';

export const useAccessStore = defineStore('access', () => {
  const access = shallowRef<ClusterAccess | null>(null);
  const error = shallowRef<KdError | null>(null);
  const checking = shallowRef(false);
  /** Namespaces lost since the user looked (a RoleBinding revoked), with the server's reason. */
  const notices = shallowRef<AccessNotice[]>([]);

  function accept(value: ClusterAccess): void {
    notices.value = nextAccessNotices(notices.value, access.value, value);
    access.value = value;
  }

  follow<ClusterAccess>({
    load: () => api().request('cluster:access', {}),
    subscribe: (listener) => api().subscribe('cluster:access', listener),
    apply: accept,
    setError: (next) => {
      error.value = next;
    },
  });

  const summary = computed(() => access.value?.summary ?? null);
  /** The line to show, or null when the user sees the whole cluster (or nothing was checked yet). */
  const statusText = computed(() => {
    const value = summary.value;
    if (!value || (!value.restricted && value.hiddenKinds.length === 0 && !value.noAccess)) return null;
    return accessStatusText(value);
  });
  const hiddenByKey = computed(() => new Map((summary.value?.hiddenKinds ?? []).map((k) => [k.key, k])));

  /** The hidden entry of a kind (by kind key), if the user's permissions hide it. */
  function hidden(key: string): HiddenKind | undefined {
    return hiddenByKey.value.get(key);
  }

  /** Asks the engine to check access again; the answer also arrives on the stream. */
  async function recheck(): Promise<void> {
    checking.value = true;
    try {
      const result = await api().request('cluster:access-recheck', {});
      if (result.ok) accept(result.value);
      error.value = result.ok ? null : result.error;
    } finally {
      checking.value = false;
    }
  }

  /** Puts a lost namespace's notice away. */
  function dismiss(namespace: string): void {
    notices.value = notices.value.filter((n) => n.namespace !== namespace);
  }

  return { access, error, checking, notices, summary, statusText, hidden, recheck, dismiss };
});
