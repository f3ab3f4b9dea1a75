/**
 * The graph part of the IPC contract (see shared/contract.ts, which merges every part):
 * request channels `graph:<verb>` and their push streams.
 */
export const graphRequests = {} as const;

export const graphStreams = {} as const;
