import { describe, expect, it } from 'vitest';
import { kindEntries, kindNames, kindTable } from '../../../../electron/engine/snapshot/kind-table.ts';
import type { SlimObject } from '../../../../shared/cluster.ts';
import type { KindEntry } from '../../../../shared/discovery.ts';

const object = (apiVersion: string, kind: string, name: string, extra: Record<string, unknown> = {}, namespace: string | null = 'shop'): SlimObject =>
  ({ apiVersion, kind, metadata: { uid: `uid-${name}`, name, resourceVersion: '1', ...(namespace ? { namespace } : {}) }, ...extra }) as SlimObject;

/** A discovered kind as the registry reports it. */
function discovered(group: string, version: string, kind: string, plural: string, options: { custom: boolean; mode: KindEntry['mode']; namespaced?: boolean }): KindEntry {
  return {
    key: group ? `${plural}.${group}` : plural,
    ref: { group, version, kind, plural, namespaced: options.namespaced ?? true },
    versions: [version],
    verbs: ['list', 'watch'],
    listable: true,
    watchable: true,
    subresources: { status: true, scale: false },
    shortNames: [],
    categories: [],
    custom: options.custom,
    mode: options.mode,
    count: null,
  };
}

describe('snapshot kind table', () => {
  it('names each kind once, from discovery, the built-in kinds and the cache, and lists what it cannot name', () => {
    const objects = [
      object('apps/v1', 'Deployment', 'web', { spec: {} }),
      object('cert-manager.io/v1', 'Certificate', 'web-tls', { spec: {}, status: {} }),
      object('cert-manager.io/v1', 'Certificate', 'api-tls', { spec: {} }),
      object('v1', 'Secret', 'db'),
      object('events.k8s.io/v1', 'Event', 'e1', { reason: 'Started' }),
      object('example.com/v1', 'Gadget', 'g'),
    ];
    const names = kindNames({
      discovered: [
        discovered('cert-manager.io', 'v1', 'Certificate', 'certificates', { custom: true, mode: 'full' }),
        discovered('', 'v1', 'Secret', 'secrets', { custom: false, mode: 'metadata' }),
        // The events.k8s.io view is excluded as a duplicate; its objects stay core `events`.
        discovered('events.k8s.io', 'v1', 'Event', 'events', { custom: false, mode: 'excluded' }),
      ],
    });
    const { kinds, unnamed } = kindTable(objects, names);
    expect(kinds).toEqual([
      { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', key: 'certificates.cert-manager.io', plural: 'certificates', namespaced: true, custom: true, metadataOnly: false },
      { apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', plural: 'deployments', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'events.k8s.io/v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'v1', kind: 'Secret', key: 'secrets', plural: 'secrets', namespaced: true, custom: false, metadataOnly: true },
    ]);
    expect(unnamed).toEqual(['example.com/v1 Gadget']);
  });

  it('takes a kind nothing describes from the key the cache holds it under, and its scope and read mode from its objects', () => {
    const widget = object('example.com/v2', 'Widget', 'w', {}, null);
    const { kinds } = kindTable([widget], kindNames({ cached: { objects: [widget], kinds: ['widgets.example.com'] } }));
    expect(kinds).toEqual([{ apiVersion: 'example.com/v2', kind: 'Widget', key: 'widgets.example.com', plural: 'widgets', namespaced: false, custom: false, metadataOnly: true }]);
  });

  it('turns a table into discovery entries; built-in kinds keep their own key and reference whatever the file says', () => {
    const entries = kindEntries([
      { apiVersion: 'apps/v1', kind: 'Deployment', key: 'deployments.apps', plural: 'deployments', namespaced: false, custom: true, metadataOnly: false },
      { apiVersion: 'cert-manager.io/v1', kind: 'Certificate', key: 'certificates.cert-manager.io', plural: 'certificates', namespaced: true, custom: true, metadataOnly: false },
      { apiVersion: 'v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'events.k8s.io/v1', kind: 'Event', key: 'events', plural: 'events', namespaced: true, custom: false, metadataOnly: false },
      { apiVersion: 'v1', kind: 'ConfigMap', key: 'configmaps', plural: 'configmaps', namespaced: true, custom: false, metadataOnly: true },
    ]);
    expect(entries.map((entry) => [entry.key, entry.ref.namespaced, entry.custom, entry.mode])).toEqual([
      ['deployments.apps', true, false, 'full'],
      ['certificates.cert-manager.io', true, true, 'full'],
      ['events', true, false, 'full'],
      ['configmaps', true, false, 'metadata'],
    ]);
    expect(entries[1]?.ref).toEqual({ group: 'cert-manager.io', version: 'v1', kind: 'Certificate', plural: 'certificates', namespaced: true });
    expect(entries[3]?.message).toContain('metadata only');
  });
});
