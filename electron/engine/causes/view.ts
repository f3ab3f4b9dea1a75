/**
 * A CauseView over a list of objects (Events among them), indexed once: by uid, by owner uid, by
 * node for pods, by group/kind/namespace/name, and Events by the uid they are about. Snapshots,
 * tests and the benchmark use it; the live engine can build one from its cache, or answer the
 * same interface from the indexes it keeps.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { GK, groupOf, isEvent, isKind, isRecord, section, text } from './objects.ts';
import type { CauseView } from './types.ts';

const nameKey = (group: string, kind: string, namespace: string | undefined, name: string): string => `${group}\u0000${kind}\u0000${namespace ?? ''}\u0000${name}`;

function push<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The uid an Event is about: involvedObject (core/v1) or regarding (events.k8s.io/v1). */
export function involvedUid(event: SlimObject): string | undefined {
  const record = event as unknown as Record<string, unknown>;
  const about = isRecord(record['involvedObject']) ? record['involvedObject'] : record['regarding'];
  return isRecord(about) ? text(about['uid']) : undefined;
}

/** Indexes `objects` (any kinds, any order; Events are filed by the object they are about). */
export function createCauseView(objects: Iterable<SlimObject>): CauseView {
  const dependents = new Map<string, SlimObject[]>();
  const onNode = new Map<string, SlimObject[]>();
  const named: SlimObject[] = [];
  const events = new Map<string, SlimObject[]>();
  const all: SlimObject[] = [];
  for (const object of objects) {
    if (isEvent(object)) {
      const about = involvedUid(object);
      if (about) push(events, about, object);
      continue;
    }
    all.push(object);
    const owners = object.metadata.ownerReferences;
    if (owners) for (const owner of owners) push(dependents, owner.uid, object);
    if (isKind(object, GK.Pod)) {
      const node = text(section(object, 'spec')['nodeName']);
      if (node) push(onNode, node, object);
    } else named.push(object);
  }
  // By uid, built on the first lookup: findCauses asks only for the owners of ReplicaSets.
  let byUid: Map<string, SlimObject> | undefined;
  const uidIndex = (): Map<string, SlimObject> => {
    byUid ??= new Map(all.map((object) => [object.metadata.uid, object]));
    return byUid;
  };
  // By name, built on the first lookup, without pods: the finder looks up nodes, claims and scale
  // targets by name, never a pod.
  let byName: Map<string, SlimObject> | undefined;
  const nameIndex = (): Map<string, SlimObject> => {
    byName ??= new Map(named.map((object) => [nameKey(groupOf(object.apiVersion), object.kind, object.metadata.namespace, object.metadata.name), object]));
    return byName;
  };
  return {
    get: (uid) => uidIndex().get(uid),
    dependents: (uid) => dependents.get(uid) ?? [],
    podsOnNode: (name) => onNode.get(name) ?? [],
    byName: (group, kind, namespace, name) => (group === GK.Pod.group && kind === GK.Pod.kind ? undefined : nameIndex().get(nameKey(group, kind, namespace, name))),
    eventsAbout: (uid) => events.get(uid) ?? [],
    all: () => all,
  };
}
