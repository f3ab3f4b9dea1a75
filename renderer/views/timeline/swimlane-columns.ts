/** The swimlane table's columns: the workload, its episode count and drift time, then the lane. */
import { formatDuration } from '../../components/charts/time-format.ts';
import type { TableColumn } from '../../components/table/columns.ts';
import type { Lane } from './swimlane.ts';
import { kindLabelOf } from './kind-label.ts';

export const LANE_COLUMN_ID = 'lane';

export const SWIMLANE_COLUMNS: ReadonlyArray<TableColumn<Lane>> = [
  { id: 'workload', label: 'Workload', width: 300, text: (lane) => `${lane.workload.namespace}/${lane.workload.name}`, sortKey: (lane) => `${lane.workload.namespace}/${lane.workload.name}`, title: (lane) => `${kindLabelOf(lane.workload).title} ${lane.workload.namespace}/${lane.workload.name}` },
  { id: 'episodes', label: 'Ep.', width: 48, align: 'end', text: (lane) => String(lane.episodes.length), sortKey: (lane) => lane.episodes.length, firstDirection: 'desc', help: 'Drift episodes in the range' },
  { id: 'drifting', label: 'Drifting', width: 78, align: 'end', text: (lane) => formatDuration(lane.driftMs), sortKey: (lane) => lane.driftMs, firstDirection: 'desc', help: 'Total time out of sync in the range' },
  // Most recent trouble first: ongoing lanes end "now", so they lead.
  { id: LANE_COLUMN_ID, label: 'Episodes over time', width: 280, grow: 1, sortKey: (lane) => -lane.lastActivity, help: 'Sorted by the latest drift' },
];
