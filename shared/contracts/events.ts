/**
 * The events part of the IPC contract (see shared/contract.ts, which merges every part):
 * request channels `events:<verb>` and their push streams.
 */
export const eventsRequests = {} as const;

export const eventsStreams = {} as const;
