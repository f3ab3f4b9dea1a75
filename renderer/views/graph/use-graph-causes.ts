/**
 * Why the Graph's selected object does not converge: its causes, asked of the engine live
 * whenever the selection or the drifting workloads' causes change (nothing in the past: causes
 * are the cluster's now), and the failing leaves to highlight — the evidence objects that are
 * drawn, or the group their pods are drawn in — with the chain down to them from the selected object.
 */
import { computed, shallowRef, watch, type Ref } from 'vue';
import type { CauseInfo } from '../../../shared/contracts/causes.ts';
import type { GraphNode } from '../../../shared/contracts/graph.ts';
import { useCausesStore } from '../../stores/causes.ts';

export interface GraphCausesOptions {
  selectedId: Ref<string | null>;
  /** The drawn nodes. */
  nodes: Ref<readonly GraphNode[]>;
  /** The graph's past time, or null live. */
  at: () => number | null;
}

export function useGraphCauses(options: GraphCausesOptions) {
  const causes = useCausesStore();
  const selectedCauses = shallowRef<CauseInfo[]>([]);
  let ticket = 0;
  watch(
    [options.selectedId, () => causes.drifting?.revision, options.at],
    async () => {
      const mine = ++ticket;
      const id = options.selectedId.value;
      // Groups and absent owners are not objects the engine can answer for.
      if (!id || options.at() !== null || id.startsWith('group:') || id.startsWith('ref:')) {
        selectedCauses.value = [];
        return;
      }
      const answer = await causes.causesOf(id);
      if (mine === ticket) selectedCauses.value = answer.ok ? answer.value.causes : [];
    },
    { immediate: true },
  );

  const failingLeaves = computed<ReadonlySet<string> | null>(() => {
    const selected = options.selectedId.value;
    if (selectedCauses.value.length === 0 || !selected) return null;
    const drawn = new Set(options.nodes.value.map((node) => node.id));
    const ids = new Set<string>([selected]);
    const visit = (cause: CauseInfo): void => {
      const owner = cause.chain.at(-1)?.uid;
      // The chain too, so the edges down to the leaf are lit.
      for (const link of cause.chain) if (drawn.has(link.uid)) ids.add(link.uid);
      for (const item of cause.evidence) {
        if (drawn.has(item.uid)) ids.add(item.uid);
        else if (owner && drawn.has(`group:${owner}:Pod`)) ids.add(`group:${owner}:Pod`);
      }
      cause.underneath?.forEach(visit);
    };
    selectedCauses.value.forEach(visit);
    return ids.size > 1 ? ids : null;
  });

  return { selectedCauses, failingLeaves };
}
