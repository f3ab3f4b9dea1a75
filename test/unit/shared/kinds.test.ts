import { describe, expect, it } from 'vitest';
import {
  apiVersionOf,
  collectionPath,
  groupKindKey,
  kindKey,
  ownerReferenceMatches,
  parseApiVersion,
  parseKindKey,
  refersToKind,
} from '../../../shared/kinds.ts';
import { KindRefSchema } from '../../../shared/discovery.ts';

const batchJob = { apiVersion: 'batch/v1', kind: 'Job', metadata: { uid: 'u-1', name: 'migrate' } };
const customJob = { apiVersion: 'jobs.example.com/v1alpha1', kind: 'Job', metadata: { uid: 'u-2', name: 'migrate' } };

describe('kind keys', () => {
  it('names core kinds by plural and others by plural.group, without the version', () => {
    expect(kindKey({ group: '', plural: 'pods' })).toBe('pods');
    expect(kindKey({ group: 'apps', plural: 'deployments' })).toBe('deployments.apps');
    expect(kindKey({ group: 'cert-manager.io', plural: 'certificates' })).toBe('certificates.cert-manager.io');
  });

  it('parses a key back, the group keeping its dots', () => {
    expect(parseKindKey('certificates.cert-manager.io')).toEqual({ group: 'cert-manager.io', plural: 'certificates' });
    expect(parseKindKey('pods')).toEqual({ group: '', plural: 'pods' });
    expect(() => parseKindKey('.apps')).toThrow('".apps" is not a kind key: expected "plural" or "plural.group"');
  });

  it('names group-kinds as kubectl does', () => {
    expect(groupKindKey({ group: 'apps', kind: 'Deployment' })).toBe('Deployment.apps');
    expect(groupKindKey({ group: '', kind: 'Pod' })).toBe('Pod');
  });
});

describe('apiVersion', () => {
  it('parses the core group and named groups', () => {
    expect(parseApiVersion('v1')).toEqual({ group: '', version: 'v1' });
    expect(parseApiVersion('apps/v1')).toEqual({ group: 'apps', version: 'v1' });
    expect(apiVersionOf({ group: '', version: 'v1' })).toBe('v1');
    expect(apiVersionOf({ group: 'batch', version: 'v1' })).toBe('batch/v1');
  });

  it('rejects malformed apiVersions with a clear message', () => {
    for (const bad of ['', 'apps/', '/v1', 'a/b/c', ' v1']) expect(() => parseApiVersion(bad)).toThrow(`"${bad}" is not an apiVersion: expected "v1" or "group/version"`);
  });
});

describe('ownerReferences', () => {
  it('match by group, kind and uid, never by kind alone', () => {
    const ref = { apiVersion: 'batch/v1', kind: 'Job', name: 'migrate', uid: 'u-1' };
    expect(ownerReferenceMatches(ref, batchJob)).toBe(true);
    expect(ownerReferenceMatches({ ...ref, uid: 'u-2' }, customJob)).toBe(false);
    expect(refersToKind(ref, { group: 'batch', kind: 'Job' })).toBe(true);
    expect(refersToKind(ref, { group: 'jobs.example.com', kind: 'Job' })).toBe(false);
  });

  it('match an owner read in another version of the same group', () => {
    expect(ownerReferenceMatches({ apiVersion: 'batch/v1beta1', kind: 'Job', uid: 'u-1' }, batchJob)).toBe(true);
  });

  it('never match through a malformed apiVersion', () => {
    expect(ownerReferenceMatches({ apiVersion: 'batch/v1/x', kind: 'Job', uid: 'u-1' }, batchJob)).toBe(false);
  });
});

describe('KindRef', () => {
  it('validates the shape the contract carries', () => {
    const ref = { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true };
    expect(KindRefSchema.parse(ref)).toEqual(ref);
    expect(KindRefSchema.safeParse({ ...ref, plural: '' }).success).toBe(false);
  });

  it('builds collection paths for both groups and both scopes', () => {
    const deployments = { group: 'apps', version: 'v1', plural: 'deployments', namespaced: true };
    expect(collectionPath(deployments)).toBe('/apis/apps/v1/deployments');
    expect(collectionPath(deployments, 'web')).toBe('/apis/apps/v1/namespaces/web/deployments');
    expect(collectionPath({ group: '', version: 'v1', plural: 'nodes', namespaced: false }, 'web')).toBe('/api/v1/nodes');
  });
});
