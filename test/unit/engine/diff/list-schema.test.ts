/**
 * The list semantics read from a CRD schema, and the comparison and ordering that follow them,
 * without a cluster: the CRD fixtures' schemas as a real CRD carries them.
 */
import { describe, expect, it } from 'vitest';
import { predictClientSide } from '../../../../electron/engine/diff/cluster/approximate.ts';
import { pruneLastApplied } from '../../../../electron/engine/diff/cluster/prune.ts';
import { alignOrder } from '../../../../electron/engine/diff/fields/align.ts';
import { compareObjects } from '../../../../electron/engine/diff/fields/compare.ts';
import { compileListSchema, refsOf } from '../../../../electron/engine/diff/fields/list-schema.ts';
import { jqPath, jsonPointer, readablePath } from '../../../../electron/engine/diff/fields/paths.ts';
import { certificateCrd, routeCrd } from '../../simcluster/crd/fixtures.ts';

type Crd = { spec: { versions: Array<{ schema: { openAPIV3Schema: unknown } }> } };
const schemaOf = (crd: Record<string, unknown>) => compileListSchema((crd as Crd).spec.versions[0]?.schema.openAPIV3Schema);
const ROUTE = schemaOf(routeCrd());
const paths = (live: unknown, predicted: unknown, schema = ROUTE) => compareObjects(live, predicted, schema).map((d) => `${d.op} ${readablePath(d.segments)}`);

describe('list schema from a CRD', () => {
  it('reads list maps with their keys and key defaults, sets and atomic lists', () => {
    const spec = ROUTE?.fields?.['spec']?.fields;
    expect(spec?.['backends']?.list).toEqual({ type: 'map', keys: ['name'], defaults: [undefined] });
    expect(spec?.['ports']?.list).toEqual({ type: 'map', keys: ['port', 'protocol'], defaults: [undefined, 'TCP'] });
    expect(spec?.['hosts']?.list).toEqual({ type: 'set' });
    expect(spec?.['rules']?.list).toEqual({ type: 'atomic' });
    // A CRD list without a list type is atomic, as server-side apply treats it.
    expect(schemaOf(certificateCrd())?.fields?.['spec']?.fields?.['dnsNames']?.list).toEqual({ type: 'atomic' });
  });

  it('leaves metadata and preserve-unknown-fields parts to the built-in merge-key guess', () => {
    const schema = compileListSchema({ type: 'object', properties: { metadata: { type: 'object' }, spec: { type: 'object', properties: { settings: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } });
    expect(schema).toEqual({ fields: { spec: { fields: {} } } });
    const live = { spec: { settings: { users: [{ name: 'a', role: 'r' }, { name: 'b', role: 'r' }] } } };
    const predicted = { spec: { settings: { users: [{ name: 'b', role: 'r' }, { name: 'a', role: 'w' }] } } };
    expect(paths(live, predicted, schema)).toEqual(['changed spec.settings.users[name=a].role']);
  });

  it('follows $refs of an OpenAPI v3 document, and extensions beside a reference win', () => {
    const schemas = {
      'dev.kubedrift.Route': { type: 'object', properties: { spec: { allOf: [{ $ref: '#/components/schemas/dev.kubedrift.Spec' }] } } },
      'dev.kubedrift.Spec': { type: 'object', properties: { hosts: { $ref: '#/components/schemas/dev.kubedrift.Hosts', 'x-kubernetes-list-type': 'set' } } },
      'dev.kubedrift.Hosts': { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'atomic' },
    };
    const schema = compileListSchema(schemas['dev.kubedrift.Route'], refsOf(schemas));
    expect(schema?.fields?.['spec']?.fields?.['hosts']?.list).toEqual({ type: 'set' });
  });
});

describe('comparing under a list schema', () => {
  it('matches list map items by key whatever their order, and reports added and removed items by key', () => {
    const live = { spec: { backends: [{ name: 'web', weight: 90 }, { name: 'canary', weight: 10 }] } };
    expect(paths(live, { spec: { backends: [{ name: 'canary', weight: 10 }, { name: 'web', weight: 90 }] } })).toEqual([]);
    expect(paths(live, { spec: { backends: [{ name: 'web', weight: 100 }, { name: 'blue', weight: 0 }] } })).toEqual([
      'changed spec.backends[name=web].weight',
      'removed spec.backends[name=canary]',
      'added spec.backends[name=blue]',
    ]);
  });

  it("fills an absent key from the schema's default, so `protocol: TCP` written out is the same item", () => {
    const live = { spec: { ports: [{ port: 443, protocol: 'TCP', name: 'https' }, { port: 443, protocol: 'UDP', name: 'quic' }] } };
    expect(paths(live, { spec: { ports: [{ port: 443, protocol: 'UDP', name: 'quic' }, { port: 443, protocol: 'TCP', name: 'https' }] } })).toEqual([]);
    const changed = compareObjects(live, { spec: { ports: [{ port: 443, protocol: 'TCP', name: 'https' }, { port: 443, protocol: 'UDP', name: 'h3' }] } }, ROUTE);
    expect(changed.map((d) => [readablePath(d.segments), jsonPointer(d.segments), jqPath(d.segments)])).toEqual([
      ['spec.ports[port=443,protocol=UDP].name', '/spec/ports/1/name', '.spec.ports[] | select(.port == 443) | select(.protocol == "UDP") | .name'],
    ]);
    // The same item, matched through the default; its fields still compare one by one.
    expect(paths({ spec: { ports: [{ port: 80 }] } }, { spec: { ports: [{ port: 80, protocol: 'TCP', name: 'http' }] } })).toEqual([
      'added spec.ports[port=80,protocol=TCP].name',
      'added spec.ports[port=80,protocol=TCP].protocol',
    ]);
  });

  it('compares a set as a set and an atomic list as one value, order included', () => {
    expect(paths({ spec: { hosts: ['a', 'b'] } }, { spec: { hosts: ['b', 'a'] } })).toEqual([]);
    expect(paths({ spec: { hosts: ['a', 'b'] } }, { spec: { hosts: ['b', 'a', 'c'] } })).toEqual(['changed spec.hosts']);
    const rules = [{ name: 'api', path: '/api' }, { name: 'static', path: '/static' }];
    expect(paths({ spec: { rules } }, { spec: { rules: [...rules].reverse() } })).toEqual(['changed spec.rules']);
    // Without the schema the same items would be matched by name and found equal.
    expect(compareObjects({ spec: { rules } }, { spec: { rules: [...rules].reverse() } })).toEqual([]);
  });

  it('compares a list map whose items lack their keys as one value instead of guessing', () => {
    expect(paths({ spec: { backends: [{ weight: 1 }] } }, { spec: { backends: [{ weight: 2 }] } })).toEqual(['changed spec.backends']);
  });
});

describe('aligning the predicted order with the live one', () => {
  it("puts list map and set items in live's order, new items last, and leaves atomic lists alone", () => {
    const live = { spec: { backends: [{ name: 'a' }, { name: 'b' }], hosts: ['x', 'y'], rules: [{ name: 'r1' }, { name: 'r2' }] } };
    const predicted = { spec: { backends: [{ name: 'c' }, { name: 'b' }, { name: 'a' }], hosts: ['z', 'y', 'x'], rules: [{ name: 'r2' }, { name: 'r1' }] } };
    expect(alignOrder(live, predicted, ROUTE)).toEqual({ spec: { backends: [{ name: 'a' }, { name: 'b' }, { name: 'c' }], hosts: ['x', 'y', 'z'], rules: [{ name: 'r2' }, { name: 'r1' }] } });
    expect(predicted.spec.hosts).toEqual(['z', 'y', 'x']);
  });

  it('changes nothing without a schema', () => {
    const predicted = { spec: { hosts: ['b', 'a'] } };
    expect(alignOrder({ spec: { hosts: ['a', 'b'] } }, predicted, undefined)).toBe(predicted);
  });
});

describe('the client-side fallbacks under a list schema', () => {
  it('merge a list map item by its keys and replace an atomic list when the dry run is forbidden', () => {
    const live = { spec: { backends: [{ name: 'web', weight: 90, port: 8080 }], rules: [{ name: 'api', path: '/api', backend: 'web' }] } };
    const manifest = { spec: { backends: [{ name: 'web', weight: 80 }], rules: [{ name: 'api', path: '/v2' }] } };
    expect(predictClientSide(live, manifest, ROUTE)).toEqual({ spec: { backends: [{ name: 'web', weight: 80, port: 8080 }], rules: [{ name: 'api', path: '/v2' }] } });
    // The built-in guess would merge the rule by its name and keep its backend.
    expect((predictClientSide(live, manifest) as typeof live).spec.rules).toEqual([{ name: 'api', path: '/v2', backend: 'web' }]);
  });

  it('prune a list map item the last apply set and the file dropped, matched by all its keys', () => {
    const lastApplied = { spec: { ports: [{ port: 443, protocol: 'UDP' }, { port: 443 }] } };
    const manifest = { spec: { ports: [{ port: 443 }] } };
    const predicted = () => ({ spec: { ports: [{ port: 443, protocol: 'UDP' }, { port: 443, protocol: 'TCP' }] } });
    expect(pruneLastApplied(predicted(), lastApplied, manifest, ROUTE)).toEqual({ spec: { ports: [{ port: 443, protocol: 'TCP' }] } });
    // No built-in merge key fits these items, so without the schema nothing could be pruned.
    expect(pruneLastApplied(predicted(), lastApplied, manifest)).toEqual(predicted());
  });
});
