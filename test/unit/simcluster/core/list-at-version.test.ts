/**
 * A paged list at an older version builds that version's objects once, not once per page (a
 * 50,000-pod relist of 250-object pages under churn rebuilt and sorted the whole set 200 times),
 * and still pages consistently and answers 410 once the version has left the window.
 */
import { describe, expect, it, vi } from 'vitest';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { typeById } from '../../../../electron/engine/simcluster/resources.ts';
import { listObjects } from '../../../../electron/engine/simcluster/list.ts';
import type { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { ChangeLog } from '../../../../electron/engine/simcluster/changelog.ts';

const PODS = typeById('pods')!;
const PODS_COUNT = 40;

function pod(name: string, namespace = 'shop') {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, labels: { app: 'web' } }, spec: { nodeName: 'node-1' }, status: { phase: 'Running' } };
}

function seeded(): ObjectStore {
  const store = new ObjectStore();
  for (let i = 0; i < PODS_COUNT; i += 1) store.create(PODS, pod(`web-${String(i).padStart(2, '0')}`));
  return store;
}

/** Every page of a list of `limit`, each page asked after `between` ran. */
function pages(store: ObjectStore, limit: number, between: (page: number) => void): { names: string[]; resourceVersions: string[] } {
  const names: string[] = [];
  const resourceVersions: string[] = [];
  let token: string | undefined;
  let page = 0;
  do {
    const result = listObjects(store, PODS, { limit, ...(token ? { continueToken: token } : {}) });
    names.push(...result.items.map((item) => item.metadata.name));
    resourceVersions.push(result.resourceVersion);
    token = result.continueToken;
    between(page++);
  } while (token);
  return { names, resourceVersions };
}

describe('a paged list at an older version', () => {
  it('builds the version once for all its pages while writes go on, and pages it consistently', () => {
    const store = seeded();
    const expected = store.all(PODS).map((item) => item.metadata.name);
    // Undoing the newer changes reads them from the log: once for the version, not per page.
    const history = vi.spyOn(ChangeLog.prototype, 'since');
    const { names, resourceVersions } = pages(store, 4, (page) => {
      // Each page is followed by writes: a new pod sorting first, and a deletion.
      store.create(PODS, pod(`aaa-${page}`));
      store.delete(PODS, 'shop', `web-${String(PODS_COUNT - 1 - page).padStart(2, '0')}`);
    });
    const reads = history.mock.calls.length;
    history.mockRestore();
    expect(names).toEqual(expected);
    expect(resourceVersions).toHaveLength(PODS_COUNT / 4);
    expect(new Set(resourceVersions).size).toBe(1);
    expect(reads).toBe(1);
  });

  it('answers the same objects to the same version, and 410 once that version left the window', () => {
    const store = seeded();
    const at = store.currentRv();
    store.create(PODS, pod('aaa'));
    const first = store.allAt(PODS, at);
    expect(store.allAt(PODS, at)).toBe(first);
    expect(store.allAt(PODS, at, 'other')).toEqual([]);
    expect(first.map((item) => item.metadata.name)).not.toContain('aaa');
    store.compact();
    expect(() => store.allAt(PODS, at)).toThrow(expect.objectContaining({ code: 410 }) as ApiError);
  });
});
