/**
 * A change's JSON watch line is made once and sent as it is to every watch, live or resumed
 * (watch-lines.ts): a watch closed as a slow consumer resumes without the simulator serialising
 * its backlog again. Each watch still gets its own event type, every change once, in order.
 */
import { describe, expect, it, vi } from 'vitest';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { WatchLines } from '../../../../electron/engine/simcluster/watch-lines.ts';
import { configMap, NOW, type OpenWatch, type, useTestCluster } from './helpers.ts';

const CONFIGMAPS = '/api/v1/namespaces/default/configmaps';
const CHANGES = 300;

const fixture = useTestCluster();

/** The stream's complete lines, as the server wrote them. */
function rawLines(w: OpenWatch): string[] {
  return w.chunks
    .join('')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `${line}\n`);
}

async function events(w: OpenWatch, count: number): Promise<Array<{ type: string; object: { metadata: { name: string; resourceVersion: string } } }>> {
  const read = [];
  for (let i = 0; i < count; i += 1) read.push(await w.next(5_000));
  return read;
}

/** `count` changes to 10 ConfigMaps, the first ten creating them. */
function churn(store: ObjectStore, count: number): void {
  const configmaps = type('configmaps');
  for (let i = 0; i < count; i += 1) {
    const name = `cm-${i % 10}`;
    if (i < 10) store.create(configmaps, configMap(name, { app: 'a' }) as never);
    else store.update(configmaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels: { app: 'a' } }, data: { key: String(i) } });
  }
}

describe('watch lines made once for every watch', () => {
  it('resumes a watch with the lines a live watch was sent, serialising none of its backlog again', async () => {
    const store = new ObjectStore({ now: () => NOW });
    await fixture.start({ store });
    const from = store.currentRv();
    const live = await fixture.watch(`${CONFIGMAPS}?watch=true&resourceVersion=${from}`);
    churn(store, CHANGES);
    await events(live, CHANGES);

    const serialised = vi.spyOn(store, 'toJson');
    const resumed = await fixture.watch(`${CONFIGMAPS}?watch=true&resourceVersion=${from}`);
    const replayed = await events(resumed, CHANGES);
    expect(serialised).not.toHaveBeenCalled();
    expect(replayed.map((event) => Number(event.object.metadata.resourceVersion))).toEqual(Array.from({ length: CHANGES }, (_, i) => from + 1 + i));
    expect(rawLines(resumed)).toEqual(rawLines(live));
    expect(rawLines(live)[CHANGES - 1]).toBe(`{"type":"MODIFIED","object":${JSON.stringify(store.find(type('configmaps'), 'default', 'cm-9'))}}\n`);
  });

  it('sends an object that leaves one watch selector as DELETED there and MODIFIED to the others', async () => {
    const store = new ObjectStore({ now: () => NOW });
    await fixture.start({ store });
    churn(store, 10);
    const from = store.currentRv();
    const all = await fixture.watch(`${CONFIGMAPS}?watch=true&resourceVersion=${from}`);
    const selected = await fixture.watch(`${CONFIGMAPS}?watch=true&resourceVersion=${from}&labelSelector=app%3Da`);
    store.update(type('configmaps'), { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-3', namespace: 'default', labels: { app: 'b' } }, data: { key: 'moved' } });
    const [modified] = await events(all, 1);
    const [deleted] = await events(selected, 1);
    expect(modified).toMatchObject({ type: 'MODIFIED', object: { metadata: { name: 'cm-3', labels: { app: 'b' } } } });
    expect(deleted).toMatchObject({ type: 'DELETED', object: { metadata: { name: 'cm-3', labels: { app: 'b' } } } });
    // And a watch resumed behind both gets the type it should, whichever was made first.
    const resumed = await fixture.watch(`${CONFIGMAPS}?watch=true&resourceVersion=${from}&labelSelector=app%3Da`);
    expect((await events(resumed, 1))[0]?.type).toBe('DELETED');
  });
});

describe('WatchLines', () => {
  it('makes a line once per object version and type, and drops the oldest past its limit', () => {
    const lines = new WatchLines({ limitChars: 200 });
    const make = vi.fn((text: string) => () => text);
    const a = { n: 1 };
    const b = { n: 2 };
    const c = { n: 3 };
    expect(lines.line('MODIFIED', a, make('{"n":1}'))).toBe('{"type":"MODIFIED","object":{"n":1}}\n');
    expect(lines.line('MODIFIED', a, make('{"n":1}'))).toBe('{"type":"MODIFIED","object":{"n":1}}\n');
    // Another type of the same version is made, not kept over the first.
    expect(lines.line('DELETED', a, make('{"n":1}'))).toBe('{"type":"DELETED","object":{"n":1}}\n');
    expect(lines.counts()).toMatchObject({ made: 2, reused: 1, kept: 1 });
    const long = `{"pad":"${'x'.repeat(120)}"}`;
    lines.line('MODIFIED', b, make(long));
    lines.line('MODIFIED', c, make(long));
    // 37 + 2 x 160 chars is over 200: a and b went, oldest first.
    expect(lines.counts()).toMatchObject({ kept: 1 });
    lines.line('MODIFIED', c, make(long));
    lines.line('MODIFIED', a, make('{"n":1}'));
    expect(lines.counts()).toMatchObject({ made: 5, reused: 2 });
  });
});
