import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Transport } from '../../../../electron/engine/cluster/informers/http.ts';
import { createInlineDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { Pager, type ListPage } from '../../../../electron/engine/cluster/informers/pager.ts';

/** A response the test writes by hand, chunk by chunk. */
type Body = PassThrough & { statusCode: number; statusMessage: string; headers: Record<string, string> };

/** A transport whose responses the test feeds; `requests` are the paths asked for, in order. */
function fakeTransport() {
  const requests: string[] = [];
  const bodies: Body[] = [];
  const transport: Transport = {
    server: 'https://fake',
    get(path, { signal }) {
      requests.push(path);
      const body = Object.assign(new PassThrough(), { statusCode: 200, statusMessage: 'OK', headers: {} }) as Body;
      bodies.push(body);
      // As node:http does with a request's signal.
      signal.addEventListener('abort', () => body.destroy(new Error('aborted')));
      return Promise.resolve(body as unknown as IncomingMessage);
    },
    renewCredentials: () => undefined,
    close: () => undefined,
  };
  return { transport, requests, bodies };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

function pager(transport: Transport, readAhead?: number) {
  const decoder = createInlineDecoder();
  const decode = (body: Buffer) => decoder.decode(body, { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' });
  return new Pager({ transport, path: '/api/v1/pods', signal: new AbortController().signal, onData: () => undefined, decode, ...(readAhead === undefined ? {} : { readAhead }) });
}

const names = (page: ListPage) => page.objects.map((o) => o.metadata.name);

const head = (token: string) => `{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9","continue":"${token}"},"items":[`;

describe('list pager', () => {
  it('asks for the next page as soon as the current page names it, before its items have arrived', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport);
    const first = p.first(2);
    await tick();
    bodies[0]?.write(head('t1'));
    await tick();
    expect(requests).toEqual(['/api/v1/pods?limit=2', '/api/v1/pods?limit=2&continue=t1']);
    bodies[0]?.end('{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}');
    expect(names(await first)).toEqual(['a', 'b']);
    const second = p.next('t1', 2);
    bodies[1]?.end('{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"c"}}]}');
    expect(names(await second)).toEqual(['c']);
    // The second page was the one read ahead, and the last page announced nothing more.
    expect(requests).toHaveLength(2);
  });

  it('drops the early page and asks again when the whole page ends with another token', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport);
    const first = p.first(1);
    // A duplicate metadata key: the parsed page carries the last one, which the head did not see.
    bodies[0]?.end(`${head('early')}{"metadata":{"name":"a"}}],"metadata":{"resourceVersion":"9","continue":"late"}}`);
    expect((await first).metadata?.continue).toBe('late');
    const second = p.next('late', 1);
    await tick();
    expect(requests).toEqual(['/api/v1/pods?limit=1', '/api/v1/pods?limit=1&continue=early', '/api/v1/pods?limit=1&continue=late']);
    expect(bodies[1]?.destroyed).toBe(true);
    bodies[2]?.end('{"metadata":{"resourceVersion":"9"},"items":[]}');
    expect(names(await second)).toEqual([]);
  });

  it('reads nothing ahead when the items come before the metadata, or the list is not paged', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport);
    const first = p.first(1);
    bodies[0]?.end('{"items":[{"metadata":{"name":"a"}}],"metadata":{"resourceVersion":"9","continue":"t1"}}');
    expect((await first).metadata?.continue).toBe('t1');
    const whole = p.first(undefined);
    bodies[1]?.end(`${head('t9')}]}`);
    await whole;
    await tick();
    expect(requests).toEqual(['/api/v1/pods?limit=1', '/api/v1/pods?']);
  });

  it('aborts the page read ahead when the list starts over', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport);
    void p.first(1).catch(() => undefined);
    bodies[0]?.write(head('t1'));
    await tick();
    expect(requests).toHaveLength(2);
    p.cancel();
    await tick();
    expect(bodies[1]?.destroyed).toBe(true);
  });

  it('reads up to readAhead pages beyond the one waited for, each as soon as the one before names it', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport, 2);
    const first = p.first(1);
    await tick();
    bodies[0]?.write(head('t1'));
    await tick();
    bodies[1]?.write(head('t2'));
    await tick();
    // Two pages ahead of the first, the third named but not asked for: the room ahead is full.
    bodies[2]?.write(head('t3'));
    await tick();
    expect(requests).toEqual(['/api/v1/pods?limit=1', '/api/v1/pods?limit=1&continue=t1', '/api/v1/pods?limit=1&continue=t2']);
    bodies[0]?.end('{"metadata":{"name":"a"}}]}');
    expect(names(await first)).toEqual(['a']);
    // Reading on makes room: the page the last one named is asked for at once.
    const second = p.next('t1', 1);
    await tick();
    expect(requests.at(-1)).toBe('/api/v1/pods?limit=1&continue=t3');
    bodies[1]?.end('{"metadata":{"name":"b"}}]}');
    expect(names(await second)).toEqual(['b']);
    const third = p.next('t2', 1);
    bodies[2]?.end('{"metadata":{"name":"c"}}]}');
    expect(names(await third)).toEqual(['c']);
    expect(requests).toHaveLength(4);
  });

  it('drops every page read ahead when the reader asks for another token', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport, 3);
    void p.first(1).catch(() => undefined);
    bodies[0]?.write(head('t1'));
    await tick();
    bodies[1]?.write(head('t2'));
    await tick();
    expect(requests).toHaveLength(3);
    const other = p.next('elsewhere', 1);
    await tick();
    expect([bodies[1]?.destroyed, bodies[2]?.destroyed]).toEqual([true, true]);
    expect(requests.at(-1)).toBe('/api/v1/pods?limit=1&continue=elsewhere');
    bodies[3]?.end('{"metadata":{"resourceVersion":"9"},"items":[{"metadata":{"name":"z"}}]}');
    expect(names(await other)).toEqual(['z']);
  });

  it('reads nothing ahead with readAhead 0, as client-go does', async () => {
    const { transport, requests, bodies } = fakeTransport();
    const p = pager(transport, 0);
    const first = p.first(1);
    bodies[0]?.write(head('t1'));
    await tick();
    expect(requests).toHaveLength(1);
    bodies[0]?.end('{"metadata":{"name":"a"}}]}');
    await first;
    void p.next('t1', 1).catch(() => undefined);
    await tick();
    expect(requests).toEqual(['/api/v1/pods?limit=1', '/api/v1/pods?limit=1&continue=t1']);
  });
});
