import { describe, expect, it } from 'vitest';
import { typeById, type ResourceType } from '../../../../electron/engine/simcluster/resources.ts';
import { EVENT_TTL_MS, seedHistory } from '../../../../electron/engine/simcluster/scenarios/aging.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const HOUR_MS = 3_600_000;
const AGE_MS = 72 * HOUR_MS;

function type(id: string): ResourceType {
  const t = typeById(id);
  if (!t) throw new Error(`no type ${id}`);
  return t;
}

function aged(options: { ageMs?: number; revisions?: number } = {}) {
  // The store's clock is the present: only what seedHistory stamps lies in the past.
  const store = new ObjectStore({ now: () => NOW });
  const history = seedHistory(store, { ageMs: options.ageMs ?? AGE_MS, now: NOW, ...(options.revisions ? { revisions: options.revisions } : {}) });
  return { store, history };
}

const t = (text: unknown): number => Date.parse(String(text));
const all = (store: ObjectStore, id: string): KubeObject[] => store.all(type(id), 'default');
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- status shapes are asserted, not typed
const field = (object: KubeObject, name: string): any => object[name];

describe('seedHistory (an aged simulated cluster)', () => {
  it('keeps old ReplicaSets as revision history, spaced over the age, scaled to 0, the newest current', () => {
    const { store, history } = aged();
    const deployment = store.get(type('deployments.apps'), 'default', 'web');
    const sets = all(store, 'replicasets.apps').sort((a, b) => t(a.metadata.creationTimestamp) - t(b.metadata.creationTimestamp));
    expect(sets.map((rs) => rs.metadata.annotations?.['deployment.kubernetes.io/revision'])).toEqual(['1', '2', '3']);
    expect(sets.map((rs) => field(rs, 'spec').replicas)).toEqual([0, 0, 3]);
    expect(t(sets[0]?.metadata.creationTimestamp)).toBe(NOW - AGE_MS);
    const created = sets.map((rs) => t(rs.metadata.creationTimestamp));
    expect(created[1]! - created[0]!).toBeGreaterThan(20 * HOUR_MS);
    expect(created[2]!).toBeLessThan(NOW - 12 * HOUR_MS);
    for (const rs of sets) {
      expect(rs.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Deployment', name: 'web', uid: deployment.metadata.uid, controller: true });
      expect(rs.metadata.labels?.['pod-template-hash']).toBe(rs.metadata.name.slice('web-'.length));
    }
    expect(deployment.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('3');
    expect(deployment.metadata.generation).toBe(3);
    expect(field(deployment, 'spec').template.spec.containers[0].image).toBe(field(sets[2]!, 'spec').template.spec.containers[0].image);
    expect(history.rollouts.map((r) => [r.revision, r.replicaSet, r.at])).toEqual(sets.map((rs, i) => [i + 1, rs.metadata.name, rs.metadata.creationTimestamp]));
  });

  it("dates the Deployment's conditions: Available since the last crash recovered, Progressing updated after the last rollout", () => {
    const { store, history } = aged();
    const deployment = store.get(type('deployments.apps'), 'default', 'web');
    const conditions = field(deployment, 'status').conditions as Array<Record<string, string>>;
    const available = conditions.find((c) => c.type === 'Available')!;
    const progressing = conditions.find((c) => c.type === 'Progressing')!;
    // Available went False while the crashed pod restarted, and True once it was ready again.
    const pod = store.get(type('pods'), 'default', history.terminations[0]!.pod);
    const running = t(field(pod, 'status').containerStatuses[0].state.running.startedAt);
    expect(t(available.lastTransitionTime)).toBeGreaterThan(running);
    expect(t(available.lastTransitionTime)).toBeLessThan(NOW);
    expect(t(progressing.lastUpdateTime)).toBeGreaterThan(t(history.rollouts.at(-1)?.at));
    expect(t(progressing.lastUpdateTime)).toBeLessThan(NOW);
    expect(progressing.message).toBe(`ReplicaSet "${history.rollouts.at(-1)?.replicaSet}" has successfully progressed.`);
  });

  it('gives a pod past container terminations: restartCount, lastState.terminated, running since after it', () => {
    const { store, history } = aged();
    expect(history.terminations.map((x) => [x.reason, x.visible])).toEqual([
      ['OOMKilled', false],
      ['Error', true],
    ]);
    const pod = store.get(type('pods'), 'default', history.terminations[0]!.pod);
    const status = field(pod, 'status').containerStatuses[0];
    expect(status.restartCount).toBe(2);
    const visible = history.terminations[1]!;
    expect(status.lastState.terminated).toMatchObject({ exitCode: 1, reason: 'Error', startedAt: visible.startedAt, finishedAt: visible.finishedAt });
    const { startedAt, finishedAt } = status.lastState.terminated;
    expect(t(pod.metadata.creationTimestamp)).toBeLessThan(t(startedAt));
    expect(t(startedAt)).toBeLessThan(t(finishedAt));
    expect(t(finishedAt)).toBeLessThan(t(status.state.running.startedAt));
    expect(t(status.state.running.startedAt)).toBeLessThan(NOW);
    for (const c of field(pod, 'status').conditions) expect(t(c.lastTransitionTime)).toBeLessThan(NOW);
    // Pods of the current ReplicaSet were created by its rollout, not before.
    const current = history.rollouts.at(-1)!;
    for (const p of all(store, 'pods').filter((x) => x.metadata.labels?.['app'] === 'web')) {
      expect(p.metadata.ownerReferences?.[0]?.name).toBe(current.replicaSet);
      expect(t(p.metadata.creationTimestamp)).toBeGreaterThanOrEqual(t(current.at));
    }
  });

  it('records a completed Job run with startTime before completionTime and a Succeeded pod', () => {
    const { store, history } = aged();
    const job = store.get(type('jobs.batch'), 'default', 'report');
    const status = field(job, 'status');
    expect(history.jobRuns).toEqual([{ job: 'report', startTime: status.startTime, completionTime: status.completionTime }]);
    expect(t(status.startTime)).toBeLessThan(t(status.completionTime));
    expect(status.conditions.map((c: Record<string, string>) => [c.type, c.status, c.lastTransitionTime])).toEqual([
      ['SuccessCriteriaMet', 'True', status.completionTime],
      ['Complete', 'True', status.completionTime],
    ]);
    expect(field(job, 'spec').selector.matchLabels['batch.kubernetes.io/controller-uid']).toBe(job.metadata.uid);
    const pod = all(store, 'pods').find((p) => p.metadata.ownerReferences?.[0]?.uid === job.metadata.uid)!;
    expect(field(pod, 'status').phase).toBe('Succeeded');
    expect(t(field(pod, 'status').containerStatuses[0].state.terminated.finishedAt)).toBeLessThanOrEqual(t(status.completionTime));
  });

  it('keeps only the Events of the last hour, with first/last timestamps (or eventTime) in the past', () => {
    const { store, history } = aged();
    const events = all(store, 'events');
    expect(events.length).toBe(history.events.kept.length);
    expect(history.events.expired).toBeGreaterThan(0);
    expect(events.map((e) => field(e, 'reason')).sort()).toEqual(['BackOff', 'Created', 'Pulled', 'Started']);
    for (const event of events) {
      const last = t(field(event, 'lastTimestamp') ?? field(event, 'eventTime'));
      expect(last).toBeGreaterThanOrEqual(NOW - EVENT_TTL_MS);
      expect(last).toBeLessThan(NOW);
      expect(t(field(event, 'firstTimestamp'))).toBeLessThanOrEqual(last);
      expect(field(event, 'involvedObject').uid).toBe(store.get(type('pods'), 'default', field(event, 'involvedObject').name).metadata.uid);
    }
  });

  it('keeps scheduler Events (eventTime, no first/lastTimestamp) when the cluster is younger than the TTL', () => {
    const { store } = aged({ ageMs: 30 * 60_000 });
    const scheduled = all(store, 'events').filter((e) => field(e, 'reason') === 'Scheduled');
    expect(scheduled.map((e) => field(e, 'involvedObject').name).sort()).toEqual(all(store, 'pods').filter((p) => p.metadata.labels?.['app'] === 'web').map((p) => p.metadata.name).sort());
    expect(scheduled.length).toBe(3);
    for (const e of scheduled) {
      expect(field(e, 'firstTimestamp')).toBeNull();
      expect(field(e, 'eventTime')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      expect(t(field(e, 'eventTime'))).toBeLessThan(NOW);
    }
    expect(all(store, 'events').some((e) => String(field(e, 'message')).startsWith('Scaled down replica set'))).toBe(true);
  });

  it('stamps managedFields times in the past, no later than now, after the object was created', () => {
    const { store } = aged();
    for (const id of ['deployments.apps', 'replicasets.apps', 'pods', 'jobs.batch', 'statefulsets.apps']) {
      for (const object of all(store, id)) {
        expect(object.metadata.managedFields?.length).toBeGreaterThan(0);
        for (const entry of (object.metadata.managedFields ?? []) as Array<{ time: string }>) {
          expect(t(entry.time)).toBeGreaterThanOrEqual(t(object.metadata.creationTimestamp));
          expect(t(entry.time)).toBeLessThan(NOW);
        }
      }
    }
  });

  it('creates objects oldest first, so resourceVersions follow creation times', () => {
    const { store } = aged();
    const objects = ['deployments.apps', 'replicasets.apps', 'pods', 'jobs.batch', 'statefulsets.apps'].flatMap((id) => all(store, id));
    const byRv = [...objects].sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
    const times = byRv.map((o) => t(o.metadata.creationTimestamp));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('keeps a StatefulSet on its last revision, its pods labelled with it', () => {
    const { store } = aged();
    const sts = store.get(type('statefulsets.apps'), 'default', 'db');
    const status = field(sts, 'status');
    expect(status.currentRevision).toBe(status.updateRevision);
    for (const name of ['db-0', 'db-1']) expect(store.get(type('pods'), 'default', name).metadata.labels?.['controller-revision-hash']).toBe(status.currentRevision);
  });

  it('makes as many revisions as asked, and refuses a bad age or revision count with a clear message', () => {
    expect(aged({ revisions: 5 }).history.rollouts.map((r) => r.revision)).toEqual([1, 2, 3, 4, 5]);
    const store = new ObjectStore({ now: () => NOW });
    expect(() => seedHistory(store, { ageMs: -1, now: NOW })).toThrow('aging: age must be a positive duration, got -1 ms');
    expect(() => seedHistory(store, { ageMs: AGE_MS, now: NOW, revisions: 0 })).toThrow('aging: revisions must be an integer from 1 to 10, got 0');
    expect(() => seedHistory(store, { ageMs: Number.NaN, now: NOW })).toThrow('aging: age must be a positive duration');
  });
});
