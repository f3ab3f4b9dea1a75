/**
 * The diff part of the IPC contract (see shared/contract.ts, which merges every part):
 * request channels `diff:<verb>` and their push streams.
 */
export const diffRequests = {} as const;

export const diffStreams = {} as const;
