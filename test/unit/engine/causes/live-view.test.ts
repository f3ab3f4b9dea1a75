import { describe, expect, it } from 'vitest';
import { createCauseView } from '../../../../electron/engine/causes/index.ts';
import { createLiveCauseView } from '../../../../electron/engine/causes/live-view.ts';
import type { CauseView } from '../../../../electron/engine/causes/types.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import { deployment, event, node, owner, pod, replicaSet } from './fixtures.ts';

type Json = Record<string, unknown>;

/** `object` as its next version: `change` applied to a copy, resourceVersion bumped. */
function updated(object: SlimObject, change: (copy: Json) => void): SlimObject {
  const copy = structuredClone(object) as unknown as Json;
  const metadata = copy['metadata'] as Json;
  metadata['resourceVersion'] = String(Number(metadata['resourceVersion']) + 1);
  change(copy);
  return copy as unknown as SlimObject;
}

const uids = (objects: Iterable<SlimObject>): string[] => [...objects].map((o) => o.metadata.uid).sort();

/** Every answer of `view` about the uids, nodes and names of `objects`, order aside. */
function answers(view: CauseView, objects: readonly SlimObject[]) {
  const nodes = ['worker-1', 'worker-2'];
  return {
    get: objects.map((o) => view.get(o.metadata.uid) ?? null),
    dependents: objects.map((o) => uids(view.dependents(o.metadata.uid))),
    onNode: nodes.map((n) => uids(view.podsOnNode(n))),
    events: objects.map((o) => uids(view.eventsAbout(o.metadata.uid))),
    byName: objects.map((o) => view.byName(o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] as string : '', o.kind, o.metadata.namespace, o.metadata.name) ?? null),
    // The live view lists only objects that can drift (not core ones); the finder reads no others.
    all: uids([...view.all()].filter((o) => o.apiVersion.includes('/'))),
  };
}

describe('live cause view updates', () => {
  it('answers as a view built from the final objects after status-only updates, moves to another node and owner, and deletions', () => {
    const web = deployment('web');
    const rsOld = replicaSet(web, 1);
    const rsNew = replicaSet(web, 2);
    const pods = ['a', 'b', 'c', 'd'].map((suffix) => pod(rsOld, suffix));
    const warning = event(pods[0] as SlimObject, 'BackOff', 'Back-off restarting failed container');
    const live = createLiveCauseView();
    const current = new Map<string, SlimObject>();
    const write = (object: SlimObject): void => {
      live.upsert(object);
      current.set(object.metadata.uid, object);
    };
    for (const object of [web, rsOld, rsNew, node('worker-1', { status: 'True', reason: 'KubeletReady', message: 'ready' }), ...pods, warning]) write(object);

    // Status only: filed where it was (the in-place path).
    write(updated(pods[0] as SlimObject, (p) => ((p['status'] as Json)['phase'] = 'Failed')));
    write(updated(rsNew, (rs) => ((rs['status'] as Json)['replicas'] = 3)));
    write(updated(warning, (e) => (e['count'] = 7)));
    // Moved: another node, another owner, a pod that lost its node, an Event about another pod.
    write(updated(pods[1] as SlimObject, (p) => ((p['spec'] as Json)['nodeName'] = 'worker-2')));
    write(updated(pods[2] as SlimObject, (p) => ((p['metadata'] as Json)['ownerReferences'] = [owner(rsNew)])));
    write(updated(pods[3] as SlimObject, (p) => delete (p['spec'] as Json)['nodeName']));
    write(updated(current.get(warning.metadata.uid) as SlimObject, (e) => ((e['involvedObject'] as Json)['uid'] = (pods[1] as SlimObject).metadata.uid)));
    // Status only again, after the moves.
    write(updated(current.get((pods[1] as SlimObject).metadata.uid) as SlimObject, (p) => ((p['status'] as Json)['phase'] = 'Running')));
    live.delete((pods[3] as SlimObject).metadata.uid);
    current.delete((pods[3] as SlimObject).metadata.uid);

    const everything = [web, rsOld, rsNew, ...pods, warning];
    expect(answers(live, everything)).toEqual(answers(createCauseView(current.values()), everything));
    expect(live.size()).toBe(current.size);
  });

  it('hands out the newest version of an object updated in place, wherever it is filed', () => {
    const web = deployment('web');
    const rs = replicaSet(web, 1);
    const first = pod(rs, 'a');
    const live = createLiveCauseView();
    for (const object of [web, rs, first]) live.upsert(object);
    const second = updated(first, (p) => ((p['status'] as Json)['phase'] = 'Failed'));
    live.upsert(second);
    expect(live.dependents(rs.metadata.uid)).toEqual([second]);
    expect(live.podsOnNode('worker-1')).toEqual([second]);
    const rsNext = updated(rs, (r) => ((r['status'] as Json)['replicas'] = 0));
    live.upsert(rsNext);
    expect(live.byName('apps', 'ReplicaSet', rs.metadata.namespace, rs.metadata.name)).toBe(rsNext);
    expect([...live.all()]).toContain(rsNext);
    expect([...live.all()]).not.toContain(rs);
  });
});
