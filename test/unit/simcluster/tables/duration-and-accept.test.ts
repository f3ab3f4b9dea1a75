import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import { humanDuration, wantsTable } from '../../../../electron/engine/simcluster/tables/index.ts';

const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe('humanDuration (apimachinery duration.HumanDuration)', () => {
  it.each([
    [0, '0s'],
    [-1500, '0s'],
    [-2500, '<invalid>'],
    [59 * S, '59s'],
    [119 * S + 999, '119s'],
    [2 * M, '2m'],
    [3 * M + 20 * S, '3m20s'],
    [9 * M + 59 * S, '9m59s'],
    [10 * M + 30 * S, '10m'],
    [179 * M, '179m'],
    [3 * H, '3h'],
    [5 * H + 10 * M, '5h10m'],
    [7 * H + 59 * M, '7h59m'],
    [8 * H + 30 * M, '8h'],
    [47 * H, '47h'],
    [48 * H, '2d'],
    [3 * D + 5 * H, '3d5h'],
    [7 * D + 23 * H, '7d23h'],
    [8 * D + 5 * H, '8d'],
    [729 * D, '729d'],
    [730 * D, '2y'],
    [760 * D, '2y30d'],
    [8 * 365 * D, '8y'],
  ])('%d ms reads %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});

describe('wantsTable', () => {
  const KUBECTL_GET = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

  it("reads kubectl get's Accept as a v1 Table with metadata-only row objects", () => {
    expect(wantsTable(KUBECTL_GET)).toEqual({ table: true, version: 'v1', includeObject: 'Metadata' });
  });

  it('takes includeObject from the query parameter', () => {
    expect(wantsTable(KUBECTL_GET, 'Object').includeObject).toBe('Object');
    expect(wantsTable(KUBECTL_GET, 'None').includeObject).toBe('None');
  });

  it('answers a client that only takes v1beta1 Tables with v1beta1', () => {
    expect(wantsTable('application/json;as=Table;v=v1beta1;g=meta.k8s.io, application/json')).toMatchObject({ table: true, version: 'v1beta1' });
  });

  it('serves plain JSON to the informer, curl and wildcard clients', () => {
    for (const accept of ['application/json', 'application/json, */*', '*/*', '', undefined]) {
      expect(wantsTable(accept).table).toBe(false);
    }
  });

  it('skips transforms it does not serve and honours q values', () => {
    expect(wantsTable('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io').table).toBe(true);
    expect(wantsTable('application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io,application/json').table).toBe(false);
    expect(wantsTable('application/json;q=0.5,application/json;as=Table;v=v1;g=meta.k8s.io').table).toBe(true);
  });

  it('rejects an unknown includeObject with 400 BadRequest, as kube-apiserver does', () => {
    try {
      wantsTable(KUBECTL_GET, 'Everything');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).toStatus()).toMatchObject({ code: 400, reason: 'BadRequest', message: 'unrecognized includeObject value: "Everything"' });
    }
  });
});
