/**
 * The app's screens, in sidebar order. Adding a screen is one entry here: the sidebar, the
 * location hash and the main pane all read this list. Screens load on first visit so heavy
 * ones (charts, graphs) do not slow the start.
 */
import { defineAsyncComponent, type Component } from 'vue';
import type { IconName } from '../components/base/icons.ts';

export interface ViewEntry {
  /** Also the location hash: `#/<id>`. */
  id: string;
  label: string;
  icon: IconName;
  /** `main` entries stack from the top of the sidebar, `footer` ones sit at its bottom; `hidden` ones are reached by links only. */
  group: 'main' | 'footer' | 'hidden';
  /** The screen can show the cluster at a past time (time travel); others stay live. */
  showsPast?: boolean;
  component: Component;
}

/** Every screen, in sidebar order within its group. */
export const VIEWS = [
  { id: 'overview', label: 'Overview', icon: 'overview', group: 'main', showsPast: true, component: defineAsyncComponent(() => import('./overview/OverviewView.vue')) },
  { id: 'timeline', label: 'Drift timeline', icon: 'timeline', group: 'main', component: defineAsyncComponent(() => import('./timeline/TimelineView.vue')) },
  { id: 'graph', label: 'Graph', icon: 'graph', group: 'main', showsPast: true, component: defineAsyncComponent(() => import('./graph/GraphView.vue')) },
  { id: 'workload', label: 'Workload', icon: 'timeline', group: 'hidden', component: defineAsyncComponent(() => import('./workload/WorkloadView.vue')) },
  { id: 'pods', label: 'Pods', icon: 'pods', group: 'main', component: defineAsyncComponent(() => import('./pods/PodsView.vue')) },
  { id: 'nodes', label: 'Nodes', icon: 'nodes', group: 'main', component: defineAsyncComponent(() => import('./nodes/NodesView.vue')) },
  { id: 'controllers', label: 'Controllers', icon: 'controllers', group: 'main', component: defineAsyncComponent(() => import('./controllers/ControllersView.vue')) },
  { id: 'diff', label: 'Diff', icon: 'diff', group: 'main', component: defineAsyncComponent(() => import('./diff/DiffView.vue')) },
  { id: 'cluster', label: 'Cluster', icon: 'cluster', group: 'main', component: defineAsyncComponent(() => import('./cluster/ClusterView.vue')) },
  { id: 'snapshots', label: 'Snapshots', icon: 'snapshot', group: 'main', component: defineAsyncComponent(() => import('./snapshots/SnapshotsView.vue')) },
  { id: 'diagnostics', label: 'Diagnostics', icon: 'search', group: 'footer', component: defineAsyncComponent(() => import('./diagnostics/DiagnosticsView.vue')) },
  { id: 'settings', label: 'Settings', icon: 'settings', group: 'footer', component: defineAsyncComponent(() => import('./settings/SettingsView.vue')) },
] as const satisfies readonly ViewEntry[];

export type ViewId = (typeof VIEWS)[number]['id'];

/** Shown at start when the hash names no screen. */
export const DEFAULT_VIEW: ViewId = 'overview';
