/**
 * Why each drifting workload drifts, as the engine's cause finder says (`causes:drifting`, then
 * every `causes:changed` push; the engine debounces them, so nothing here polls or throttles).
 * Reports are kept by the workload's uid for the Overview's Why column and hover card; one
 * object's causes (`causes:for`) are asked for by the workload screen, which also needs them for
 * objects the drifting list leaves to their owner. Live only: the causes are the cluster's now.
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { CauseInfo, CauseReportInfo, DriftingCauses } from '../../shared/contracts/causes.ts';
import type { KdError, Result } from '../../shared/result.ts';
import { api } from '../api/index.ts';
import { onLinkRestored } from './live.ts';

/** A cause's sentence with the leaf causes under a controller's verdict ("…: 2 pods can't pull …"). */
export function causeText(cause: CauseInfo): string {
  const under = cause.underneath?.[0];
  return under ? `${cause.sentence} — ${under.sentence}` : cause.sentence;
}

export const useCausesStore = defineStore('causes', () => {
  const drifting = shallowRef<DriftingCauses | null>(null);
  const error = shallowRef<KdError | null>(null);
  const loaded = ref(false);

  const byUid = computed(() => new Map<string, CauseReportInfo>((drifting.value?.reports ?? []).map((report) => [report.target.uid, report])));

  function accept(next: DriftingCauses): void {
    const current = drifting.value;
    // A push may overtake an answer: keep the newer of one context.
    if (current && current.context === next.context && current.revision > next.revision) return;
    drifting.value = next;
    loaded.value = true;
    error.value = null;
  }

  async function refresh(): Promise<void> {
    const answer = await api().request('causes:drifting', {});
    if (answer.ok) accept(answer.value);
    else error.value = answer.error;
  }

  /** The headline cause of a drifting workload, or undefined when none is known. */
  function headline(uid: string): CauseInfo | undefined {
    return byUid.value.get(uid)?.causes[0];
  }

  /** One object's causes, fresh from the engine (any object in the live cache). */
  function causesOf(uid: string): Promise<Result<CauseReportInfo>> {
    return api().request('causes:for', { uid });
  }

  const unsubscribe = api().subscribe('causes:changed', accept);
  const stopWatch = onLinkRestored(() => void refresh());
  void refresh();

  return { drifting, error, loaded, byUid, headline, causesOf, refresh, dispose: () => (unsubscribe(), stopWatch()) };
});
