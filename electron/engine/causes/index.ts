/**
 * The `causes` feature: why a drifting object does not converge, in the cluster's own words,
 * found by walking down ownership to the leaves (pods, nodes, claims) over the cache and recent
 * Events. Pure: no clock, no I/O, nothing kept between calls.
 */
export { findCause, findCauses } from './find.ts';
export { isDrifting } from './walk.ts';
export { createCauseView, involvedUid } from './view.ts';
export { MAX_EVIDENCE_PODS } from './pods.ts';
export type { Cause, CauseCode, CauseReport, CauseView, Evidence, FindOptions, ObjectLink } from './types.ts';
