/**
 * The snapshot part of the IPC contract (see shared/contract.ts, which merges every part):
 * request channels `snapshot:<verb>` and their push streams.
 */
export const snapshotRequests = {} as const;

export const snapshotStreams = {} as const;
