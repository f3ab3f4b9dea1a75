import { describe, expect, it } from 'vitest';
import { mergeApplied, removeItems } from '../../../../electron/engine/simcluster/patch/apply-merge.ts';
import { FieldSet, pathToString } from '../../../../electron/engine/simcluster/patch/fieldpath.ts';
import { patchMetaFromDefinitions } from '../../../../electron/engine/simcluster/patch/patch-meta.ts';
import { compareObjects, ensureNamedFieldsAreMembers, toFieldSet } from '../../../../electron/engine/simcluster/patch/typed-walk.ts';
import { DEPLOYMENT, definitions } from './fixtures.ts';

const meta = patchMetaFromDefinitions(definitions, DEPLOYMENT);

const manifest = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'c', image: 'nginx:1.27', ports: [{ containerPort: 80 }], args: ['-v'] }] },
    },
  },
};

const paths = (set: FieldSet) => set.paths().map(pathToString);

describe('toFieldSet (an applier’s fields)', () => {
  it('owns scalars, atomic maps and lists, and list items with `.`, but not struct maps', () => {
    const set = toFieldSet(manifest, meta);
    expect(set.toFieldsV1()).toEqual({
      'f:apiVersion': {},
      'f:kind': {},
      'f:metadata': { 'f:labels': { 'f:app': {} }, 'f:name': {} },
      'f:spec': {
        'f:replicas': {},
        'f:selector': {},
        'f:template': {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:containers': {
              'k:{"name":"c"}': {
                '.': {},
                'f:args': {},
                'f:image': {},
                'f:name': {},
                'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
              },
            },
          },
        },
      },
    });
  });

  it('names set items by value and reports items missing their key', () => {
    const set = toFieldSet({ metadata: { finalizers: ['a/b'] } }, meta);
    expect(paths(set)).toEqual(['.metadata.finalizers[="a/b"]']);
    const errors: string[] = [];
    toFieldSet({ spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, meta, errors);
    expect(errors).toEqual(['.spec.template.spec.containers: element 0: associative list with keys has an element that omits key field "name" (and doesn\'t have default value)']);
  });
});

describe('compareObjects', () => {
  it('reports a changed scalar as modified and a new list item, with its fields, as added', () => {
    const after = structuredClone(manifest);
    after.spec.replicas = 3;
    after.spec.template.spec.containers.push({ name: 'side', image: 'busybox', ports: [], args: [] });
    const result = compareObjects(manifest, after, meta);
    expect(paths(result.modified)).toEqual(['.spec.replicas']);
    expect(paths(result.added)).toEqual([
      '.spec.template.spec.containers[name="side"]',
      '.spec.template.spec.containers[name="side"].args',
      '.spec.template.spec.containers[name="side"].image',
      '.spec.template.spec.containers[name="side"].name',
      '.spec.template.spec.containers[name="side"].ports',
    ]);
    expect(result.removed.isEmpty()).toBe(true);
  });

  it('reports removed fields and items', () => {
    const after = structuredClone(manifest) as Record<string, unknown> & typeof manifest;
    after.spec.template.spec.containers = [];
    const result = compareObjects(manifest, after, meta);
    expect(paths(result.removed)).toContain('.spec.template.spec.containers[name="c"]');
    expect(paths(result.removed)).toContain('.spec.template.spec.containers[name="c"].image');
  });

  it('on create, treats the Go zero value’s structs and required lists as present (no `.` on spec, template, containers)', () => {
    const { added } = compareObjects(undefined, manifest, meta, { fromZero: true });
    const fields = added.toFieldsV1() as Record<string, Record<string, unknown>>;
    expect(Object.keys(fields['f:spec']!)).toEqual(['f:replicas', 'f:selector', 'f:template']);
    expect(Object.keys(fields['f:metadata']!['f:labels'] as object)).toEqual(['.', 'f:app']);
    const containers = ((fields['f:spec']!['f:template'] as Record<string, Record<string, Record<string, object>>>)['f:spec']!)['f:containers']!;
    expect(Object.keys(containers)).toEqual(['k:{"name":"c"}']);
    expect(Object.keys((containers['k:{"name":"c"}'] as Record<string, object>)['f:ports']!)).toEqual(['.', 'k:{"containerPort":80,"protocol":"TCP"}']);
  });

  it('treats {} and absent alike only when both sides are empty', () => {
    expect(paths(compareObjects({ spec: {} }, { spec: { template: { spec: { securityContext: {} } } } }, meta).added)).toEqual([
      '.spec.template',
      '.spec.template.spec',
      '.spec.template.spec.securityContext',
    ]);
  });
});

describe('ensureNamedFieldsAreMembers', () => {
  it('adds struct fields held through children but not free-form map keys', () => {
    const set = FieldSet.fromPaths([['f:spec', 'f:strategy', 'f:type'], ['f:metadata', 'f:labels', 'f:app']]);
    expect(paths(ensureNamedFieldsAreMembers(set, meta))).toEqual(['.metadata', '.spec', '.metadata.labels', '.metadata.labels.app', '.spec.strategy', '.spec.strategy.type']);
  });
});

describe('mergeApplied and removeItems', () => {
  it('merges maps, replaces atomic values and merges keyed items', () => {
    const live = { spec: { selector: { matchLabels: { a: '1', b: '2' } }, template: { spec: { containers: [{ name: 'c', image: 'old', imagePullPolicy: 'Always' }] } } } };
    const config = { spec: { selector: { matchLabels: { a: '1' } }, template: { spec: { containers: [{ name: 'c', image: 'new' }] } } } };
    expect(mergeApplied(live, config, meta)).toEqual({
      spec: { selector: { matchLabels: { a: '1' } }, template: { spec: { containers: [{ name: 'c', image: 'new', imagePullPolicy: 'Always' }] } } },
    });
  });

  it('orders merged lists like structured-merge-diff: shared items in applied order, live-only items in place', () => {
    const list = (...names: string[]) => ({ spec: { template: { spec: { containers: names.map((name) => ({ name })) } } } });
    const merged = (live: string[], applied: string[]) =>
      ((mergeApplied(list(...live), list(...applied), meta) as ReturnType<typeof list>).spec.template.spec.containers).map((c) => c.name);
    expect(merged(['a', 'b'], ['b', 'a'])).toEqual(['b', 'a']);
    expect(merged(['a', 'x', 'b'], ['b', 'c'])).toEqual(['a', 'x', 'b', 'c']);
    expect(merged(['a'], ['n', 'a'])).toEqual(['n', 'a']);
  });

  it('terminates and keeps every item exactly once for any pair of orders', () => {
    const names = ['a', 'b', 'c', 'd', 'e'];
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let round = 0; round < 300; round += 1) {
      const pick = () => names.filter(() => random() < 0.6).sort(() => random() - 0.5);
      const [live, applied] = [pick(), pick()];
      const toList = (items: string[]) => ({ metadata: { finalizers: items } });
      const result = (mergeApplied(toList(live), toList(applied), meta) as { metadata: { finalizers: string[] } }).metadata.finalizers;
      expect([...result].sort()).toEqual([...new Set([...live, ...applied])].sort());
      expect(result.filter((n) => applied.includes(n) && live.includes(n))).toEqual(applied.filter((n) => live.includes(n)));
    }
  });

  it('removes members with everything below them, found by field, key and value tokens', () => {
    const object = {
      metadata: { labels: { a: '1', b: '2' }, finalizers: ['x', 'y'] },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'E' }] }, { name: 'd' }] } } },
    };
    const set = FieldSet.fromPaths([
      ['f:metadata', 'f:labels', 'f:a'],
      ['f:metadata', 'f:finalizers', 'v:"x"'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"c"}', 'f:env'],
      ['f:spec', 'f:template', 'f:spec', 'f:containers', 'k:{"name":"d"}'],
    ]);
    expect(removeItems(object, set, meta)).toEqual({
      metadata: { labels: { b: '2' }, finalizers: ['y'] },
      spec: { template: { spec: { containers: [{ name: 'c', image: 'i' }] } } },
    });
  });
});
