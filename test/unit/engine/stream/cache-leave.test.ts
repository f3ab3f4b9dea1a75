/**
 * ObjectCache.leave: objects that left the view (their namespace no longer readable) go from the
 * cache like deletes, so every live view drops them, but the change says `left` so the history
 * can tell them from objects the cluster deleted (retain and delete do not say it).
 */
import { describe, expect, it } from 'vitest';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { isLeave, ObjectCache, type CacheChange } from '../../../../electron/engine/stream/cache.ts';

const pod = (uid: string, namespace: string): SlimObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { uid, name: uid, namespace, resourceVersion: '1' } });

describe('ObjectCache.leave', () => {
  it('removes what keep refuses as deletes marked left; retain and delete stay plain deletes', () => {
    const cache = new ObjectCache();
    for (const [uid, namespace] of [['a', 'shop'], ['b', 'payments'], ['c', 'payments'], ['d', 'shop']] as const) cache.upsert('pods', pod(uid, namespace));
    const changes: CacheChange[] = [];
    cache.onChange((change) => changes.push(change));

    expect(cache.leave('pods', (object) => object.metadata.namespace !== 'payments')).toBe(2);
    expect(cache.list('pods').map((p) => p.metadata.uid)).toEqual(['a', 'd']);
    expect(changes.map((c) => [c.type, c.object.metadata.uid, isLeave(c)])).toEqual([
      ['delete', 'b', true],
      ['delete', 'c', true],
    ]);

    changes.length = 0;
    cache.retain('pods', (object) => object.metadata.uid !== 'a');
    cache.delete('pods', 'd');
    expect(changes.map((c) => [c.type, c.object.metadata.uid, isLeave(c)])).toEqual([
      ['delete', 'a', false],
      ['delete', 'd', false],
    ]);
    expect(cache.leave('pods', () => false)).toBe(0);
  });
});
