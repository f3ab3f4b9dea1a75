/**
 * How an episode's kept causes read wherever episodes are shown (the Timeline's bars, the
 * workload's episode list, the HTML report): "caused by" the first cause's sentence, then the
 * later ones in the order they were first seen (a leaf found under a verdict says so). One wording for the app and the report.
 */
import type { EpisodeCause } from './contracts/history.ts';

/**
 * "caused by 1 pod can't pull …" (a cause found under a controller's verdict: "underneath: …";
 * a later one: "then …"), or null when the episode kept no cause.
 */
export function causedByText(causes: readonly EpisodeCause[] | undefined): string | null {
  const [first, ...later] = causes ?? [];
  if (!first) return null;
  return [`caused by ${first.sentence}`, ...later.map((cause) => `${cause.under ? 'underneath:' : 'then'} ${cause.sentence}`)].join(' · ');
}
