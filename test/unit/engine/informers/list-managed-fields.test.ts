import { afterEach, describe, expect, it } from 'vitest';
import { decodeInline, pageText } from '../../../../electron/engine/cluster/informers/list-decode.ts';
import { createInlineDecoder, createListDecoder, type PooledListDecoder } from '../../../../electron/engine/cluster/informers/list-decoder.ts';
import { cutsManagedFields, pageBodyText, textWithoutManagedFields } from '../../../../electron/engine/cluster/informers/list-managed-fields.ts';
import { slimObject, type ObjectSource } from '../../../../electron/engine/cluster/informers/slim.ts';
import { POD_LIST_ITEM } from './fixtures/objects.ts';

const POD = { kind: 'pods', objectKind: 'Pod', apiVersion: 'v1' } as const;

/** A PodList's text as kube-apiserver writes it (compact JSON). */
function podList(items: readonly unknown[]): string {
  return JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '77', continue: 'next' }, items });
}

/** The fixture pod named `web-i`, with `metadata`'s members replacing or added to its own. */
function pod(i: number, metadata: Record<string, unknown> = {}): object {
  return { ...POD_LIST_ITEM, metadata: { ...POD_LIST_ITEM.metadata, name: `web-${i}`, uid: `uid-${i}`, ...metadata } };
}

const withoutManagedFields = (text: string): string => textWithoutManagedFields(Buffer.from(text));

/** A page decoded as the decoders do: its body's text without managedFields, then slimmed. */
const decoded = (text: string, source: ObjectSource = POD) => decodeInline(pageBodyText(Buffer.from(text), source), source);

let decoder: PooledListDecoder | undefined;
afterEach(() => {
  decoder?.close();
  decoder = undefined;
});

/** What the page decodes to when it is parsed whole, as before the cut. */
function parsedWhole(text: string): unknown[] {
  return (JSON.parse(text) as { items: unknown[] }).items.map((raw) => slimObject(raw, POD));
}

describe('a pod list page without its managedFields', () => {
  it('leaves out every pod metadata.managedFields and keeps everything else', () => {
    const text = podList([pod(0), pod(1), pod(2)]);
    const cut = withoutManagedFields(text);
    expect(cut.length).toBeLessThan(text.length);
    expect(cut).not.toContain('managedFields');
    const expected = JSON.parse(text) as { items: Array<{ metadata: Record<string, unknown> }> };
    for (const item of expected.items) delete item.metadata['managedFields'];
    expect(JSON.parse(cut)).toEqual(expected);
  });

  it('cuts managedFields wherever they are in metadata: first, in the middle or last', () => {
    const { managedFields, ...rest } = POD_LIST_ITEM.metadata;
    const first = { ...POD_LIST_ITEM, metadata: { managedFields, ...rest } };
    const last = { ...POD_LIST_ITEM, metadata: { ...rest, managedFields } };
    const only = { ...POD_LIST_ITEM, metadata: { managedFields } };
    const text = podList([first, last, only]);
    const cut = JSON.parse(withoutManagedFields(text)) as { items: Array<{ metadata: Record<string, unknown> }> };
    expect(cut.items.map((item) => item.metadata)).toEqual([rest, rest, {}]);
  });

  it('never cuts text inside a string: labels, annotations and keys that spell the member stay as they are', () => {
    const tricky = '","managedFields":[{"manager":"x"}],"a":"';
    const text = podList([
      pod(0, { labels: { managedFields: 'yes' }, annotations: { note: tricky, [`k${tricky}`]: 'v', path: 'C:\\dir\\' } }),
      // Not a valid annotation (values are strings), but valid JSON: a key that ends in the member's text.
      pod(1, { annotations: { 'quote"managedFields': ['kept'], braces: '{[}]"]}' } }),
    ]);
    const objects = JSON.parse(pageText(withoutManagedFields(text), POD).text) as Array<{ metadata: { labels?: Record<string, string>; annotations?: Record<string, string> } }>;
    expect(objects[0]?.metadata.labels).toEqual({ managedFields: 'yes' });
    expect(objects[0]?.metadata.annotations?.['note']).toBe(tricky);
    expect(objects[0]?.metadata.annotations?.[`k${tricky}`]).toBe('v');
    expect(objects[1]?.metadata.annotations?.['braces']).toBe('{[}]"]}');
    expect(objects[1]?.metadata.annotations?.['quote"managedFields']).toEqual(['kept']);
    expect(objects).toEqual(parsedWhole(text));
    // Each managedFields array is cut, the strings that spell the member are not.
    const expected = JSON.parse(text) as { items: Array<{ metadata: Record<string, unknown> }> };
    for (const item of expected.items) delete item.metadata['managedFields'];
    expect(JSON.parse(withoutManagedFields(text))).toEqual(expected);
  });

  it('reads strings with escapes inside managedFields and a backslash just before the member', () => {
    const { managedFields, ...rest } = POD_LIST_ITEM.metadata;
    const odd = [...managedFields, { manager: 'ends with \\', fieldsV1: { 'k:{"name":"a]}"}': {}, 'f:x\\': { '.': {} } } }];
    const item = { ...POD_LIST_ITEM, metadata: { ...rest, annotations: { path: 'C:\\dir\\' }, managedFields: odd } };
    const text = podList([item, pod(1)]);
    const cut = JSON.parse(withoutManagedFields(text)) as { items: Array<{ metadata: Record<string, unknown> }> };
    expect(cut.items[0]?.metadata).toEqual({ ...rest, annotations: { path: 'C:\\dir\\' } });
    expect(cut.items[1]?.metadata['name']).toBe('web-1');
    expect(decoded(text).objects).toEqual(parsedWhole(text));
  });

  it('decodes a page into exactly the slim objects and JSON the whole parse gives, in the worker and inline', async () => {
    const text = podList([pod(0, { labels: { zone: 'zürich-名前' } }), pod(1, { annotations: { 'ä': '名前' } }), pod(2, { deletionTimestamp: '2025-05-02T10:00:00Z' })]);
    const whole = parsedWhole(text);
    const inline = await createInlineDecoder().decode(Buffer.from(text), POD);
    decoder = createListDecoder({ inlineBelowBytes: 0 });
    const worker = await decoder.decode(Buffer.from(text), POD);
    expect(decoder.usesWorker()).toBe(true);
    for (const page of [inline, worker]) {
      expect(page.objects).toEqual(whole);
      expect(page.json).toEqual(whole.map((object) => JSON.stringify(object)));
      expect(page.metadata).toEqual({ resourceVersion: '77', continue: 'next' });
    }
    expect(worker.viewJson).toEqual(inline.viewJson);
  });

  it('leaves text laid out otherwise whole (it is parsed as it is)', () => {
    const pretty = JSON.stringify(JSON.parse(podList([pod(0)])), null, 2);
    expect(withoutManagedFields(pretty)).toBe(pretty);
    expect(decoded(pretty).objects).toEqual(parsedWhole(pretty));
    const unterminated = '{"items":[{"metadata":{"managedFields":[{"manager":"x"}';
    expect(withoutManagedFields(unterminated)).toBe(unterminated);
    expect(() => decoded(unterminated)).toThrow(SyntaxError);
  });

  it('cuts pod pages only: a custom resource may have a field of that name anywhere', () => {
    expect(cutsManagedFields(POD)).toBe(true);
    expect(cutsManagedFields({ ...POD, metadataOnly: true })).toBe(false);
    expect(cutsManagedFields({ kind: 'databases.db.kubedrift.dev', objectKind: 'Database', apiVersion: 'db.kubedrift.dev/v1' })).toBe(false);
    const custom = { apiVersion: 'db.kubedrift.dev/v1', kind: 'Database', metadata: { name: 'orders-db', uid: 'd-1', resourceVersion: '5' }, spec: { managedFields: [{ name: 'owner' }] } };
    const source = { kind: 'databases.db.kubedrift.dev', objectKind: 'Database', apiVersion: 'db.kubedrift.dev/v1' };
    const page = decoded(JSON.stringify({ metadata: { resourceVersion: '9' }, items: [custom] }), source);
    expect(page.objects).toEqual([slimObject(custom, source)]);
    expect(page.objects[0]).toMatchObject({ spec: { managedFields: [{ name: 'owner' }] } });
  });
});
