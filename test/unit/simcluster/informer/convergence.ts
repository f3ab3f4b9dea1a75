/**
 * "No lost or duplicated objects": once traffic has stopped, the informer's cache, the cache its
 * handler calls describe, and a fresh list from the server hold the same uids at the same
 * resourceVersions, and no handler call broke the event invariants on the way.
 */
import type { KubernetesListObject, KubernetesObject, ObjectCache } from '@kubernetes/client-node';
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { waitFor } from './harness.ts';
import { versionsOf, type HandlerRecorder, type VersionMap } from './recorder.ts';

/** What to compare: the informer, its recorder and how to list the same resource afresh. */
export interface ConvergenceSubject<T extends KubernetesObject> {
  informer: ObjectCache<T>;
  recorder: HandlerRecorder<T>;
  freshList: () => Promise<KubernetesListObject<T>>;
}

/** Waits until cache, handler model and a fresh server list agree, then asserts it (a diff on timeout). */
export async function expectConverged<T extends KubernetesObject>(subject: ConvergenceSubject<T>, timeoutMs = 5_000): Promise<VersionMap> {
  let server: VersionMap = {};
  const cache = (): VersionMap => versionsOf(subject.informer.list());
  try {
    await waitFor(
      'the informer cache to equal a fresh list',
      async () => {
        server = versionsOf((await subject.freshList()).items);
        return isDeepStrictEqual(cache(), server) && isDeepStrictEqual(subject.recorder.versions(), server);
      },
      timeoutMs,
    );
  } catch {
    // Fall through to the assertions below, whose diff says what is missing, extra or stale.
  }
  expect(cache()).toEqual(server);
  expect(subject.recorder.versions()).toEqual(server);
  expect(subject.recorder.violations).toEqual([]);
  return server;
}
