import { describe, expect, it } from 'vitest';
import { stripUnusedMembers } from '../../../../electron/engine/cluster/informers/list-strip.ts';
import { decodeInline, fromPageText, pageText } from '../../../../electron/engine/cluster/informers/list-decode.ts';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/** A pod as a server lists it: managedFields with brackets and quotes inside strings, and an apply annotation. */
function pod(name: string, extra: Record<string, unknown> = {}) {
  const manifest = { apiVersion: 'v1', kind: 'Pod', metadata: { name, managedFields: [{ manager: 'x]}"' }] }, spec: { containers: [{ name: 'c', image: 'i' }] } };
  return {
    metadata: {
      name,
      namespace: 'shop',
      uid: `uid-${name}`,
      resourceVersion: '7',
      annotations: { note: 'has "managedFields":[ in it, and ] and }', [LAST_APPLIED]: JSON.stringify(manifest) },
      managedFields: [
        { manager: 'kubectl', operation: 'Apply', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } }, 'k:{"name":"c"}': { '.': {} } } },
        { manager: 'a "quoted" [weird] {manager} \\', operation: 'Update', fieldsV1: {} },
      ],
      labels: { app: 'web' },
    },
    spec: { containers: [{ name: 'c', image: 'nginx' }] },
    status: { phase: 'Running' },
    ...extra,
  };
}

function withoutUnused(object: ReturnType<typeof pod>) {
  const { managedFields: _dropped, annotations, ...metadata } = object.metadata;
  const { [LAST_APPLIED]: _applied, ...kept } = annotations;
  return { ...object, metadata: { ...metadata, annotations: kept } };
}

describe('stripUnusedMembers', () => {
  it('cuts managedFields and the last-applied annotation wherever they sit, and nothing else', () => {
    const list = { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9', continue: 'abc' }, items: [pod('a'), pod('b'), pod('c')] };
    const stripped = stripUnusedMembers(JSON.stringify(list));
    expect(JSON.parse(stripped)).toEqual({ ...list, items: list.items.map(withoutUnused) });
    expect(stripped).not.toContain('"managedFields":[{');
  });

  it('mends the separators when the member is first, last or alone', () => {
    expect(stripUnusedMembers('{"managedFields":[{"a":1}],"name":"x"}')).toBe('{"name":"x"}');
    expect(stripUnusedMembers('{"name":"x","managedFields":[]}')).toBe('{"name":"x"}');
    expect(stripUnusedMembers('{"managedFields":[]}')).toBe('{}');
    expect(stripUnusedMembers(`{"annotations":{"${LAST_APPLIED}":"{\\"a\\":[1]}"}}`)).toBe('{"annotations":{}}');
  });

  it('leaves text without those members, or with values of another shape, as it was', () => {
    const plain = JSON.stringify({ items: [{ metadata: { name: 'a' } }] });
    expect(stripUnusedMembers(plain)).toBe(plain);
    const odd = '{"managedFields":null,"x":1}';
    expect(stripUnusedMembers(odd)).toBe(odd);
    const cutShort = '{"items":[{"managedFields":[{"a":"]';
    expect(stripUnusedMembers(cutShort)).toBe(cutShort);
  });

  it('does not touch the key text inside a string value', () => {
    const text = JSON.stringify({ data: { copy: '{"managedFields":[1,2]}' }, managedFields: [1] });
    expect(JSON.parse(stripUnusedMembers(text))).toEqual({ data: { copy: '{"managedFields":[1,2]}' } });
  });
});

describe('list pages decode the same with the cut', () => {
  it('gives the slim objects of the uncut page, in the worker form and inline', () => {
    const body = JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [pod('a'), pod('b')] });
    const source = { kind: 'Pod', apiVersion: 'v1' } as const;
    const inline = decodeInline(body, source);
    expect(fromPageText(pageText(body, source)).objects).toEqual(inline.objects);
    expect(inline.objects.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    expect(inline.objects[0]?.metadata.annotations).toEqual({ note: 'has "managedFields":[ in it, and ] and }' });
    expect(inline.metadata).toEqual({ resourceVersion: '9' });
  });

  it('still reports a page that is not JSON', () => {
    expect(() => decodeInline('{"items":[{"managedFields":[]}', { kind: 'Pod', apiVersion: 'v1' })).toThrow(SyntaxError);
  });
});
