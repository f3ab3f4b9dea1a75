/**
 * The history part of the IPC contract (see shared/contract.ts, which merges every part):
 * request channels `history:<verb>` and their push streams.
 */
export const historyRequests = {} as const;

export const historyStreams = {} as const;
