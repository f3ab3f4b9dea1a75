import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../electron/engine/simcluster/errors.ts';
import type { KubeObject } from '../../../../electron/engine/simcluster/types.ts';
import { applyPathOf, listSemanticsOf } from '../../../../electron/engine/simcluster/validation/apply-paths.ts';
import { scanJsonKeys } from '../../../../electron/engine/simcluster/validation/duplicates.ts';
import { fieldValidationOf, validateBody, warningHeaderValue } from '../../../../electron/engine/simcluster/validation/field-validation.ts';
import { validateApplyBody, validatePatchResult } from '../../../../electron/engine/simcluster/validation/patch-validation.ts';

const TYPO = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,"replicass":3,"replicas":2,"selector":{"matchLabels":{"app":"web"}}}}';

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected an ApiError');
}

function live(): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default', uid: 'u', resourceVersion: '5', creationTimestamp: '2025-06-01T12:00:00Z' },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } } },
  };
}

describe('the fieldValidation parameter', () => {
  it('defaults to Warn and accepts the three directives', () => {
    expect(['', 'fieldValidation=', 'fieldValidation=Strict', 'fieldValidation=Ignore'].map((q) => fieldValidationOf(new URLSearchParams(q), 'CreateOptions'))).toEqual(['Warn', 'Warn', 'Strict', 'Ignore']);
  });

  it('refuses other values with the options validation 422', () => {
    const error = thrown(() => fieldValidationOf(new URLSearchParams('fieldValidation=strict'), 'PatchOptions'));
    expect([error.code, error.message]).toEqual([422, 'PatchOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"']);
    expect(error.details?.causes).toEqual([{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"', field: 'fieldValidation' }]);
  });
});

describe('repeated JSON keys', () => {
  it('are found with their strict paths, lines and document order, escapes and all', () => {
    const scan = scanJsonKeys('{"a":1,\n"a":2,"b":{"c":[{"d":1},{"d":1,"d\\u0041":2,"dA":3}]},"s":"x,\\"}"}');
    expect(scan.duplicates.map((d) => [d.path, d.line])).toEqual([
      ['a', 2],
      ['b.c[1].dA', 2],
    ]);
    expect(scan.firstSeen.get('b.c[0].d')).toBeLessThan(scan.firstSeen.get('s') ?? 0);
  });
});

describe('create and update bodies', () => {
  const object = JSON.parse(TYPO) as KubeObject;

  it('fail under Strict with every unknown and repeated field in document order', () => {
    const error = thrown(() => validateBody({ object, endpointKind: 'Deployment', directive: 'Strict', jsonText: TYPO }));
    expect([error.code, error.reason, error.message]).toEqual([
      400,
      'BadRequest',
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass", duplicate field "spec.replicas"',
    ]);
  });

  it('warn under Warn and drop the unknown field; Ignore drops it silently', () => {
    const warned = validateBody({ object, endpointKind: 'Deployment', directive: 'Warn', jsonText: TYPO });
    expect(warned.warnings).toEqual(['unknown field "spec.replicass"', 'duplicate field "spec.replicas"']);
    expect(warned.object['spec']).toEqual({ replicas: 2, selector: { matchLabels: { app: 'web' } } });
    const ignored = validateBody({ object, endpointKind: 'Deployment', directive: 'Ignore', jsonText: TYPO });
    expect([ignored.warnings, ignored.object['spec']]).toEqual([[], { replicas: 2, selector: { matchLabels: { app: 'web' } } }]);
  });

  it('fail on a type error whatever the directive', () => {
    const bad = { ...object, spec: { replicas: 'two' } };
    const error = thrown(() => validateBody({ object: bad, endpointKind: 'Deployment', directive: 'Ignore' }));
    expect(error.message).toBe('Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('ignore repeats inside values the decoder does not look into', () => {
    const text = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c","managedFields":[{"fieldsV1":{"f:a":{},"f:a":{}}}]},"extra":{"x":1,"x":2}}';
    const result = validateBody({ object: JSON.parse(text) as KubeObject, endpointKind: 'ConfigMap', directive: 'Warn', jsonText: text });
    expect(result.warnings).toEqual(['unknown field "extra"']);
  });
});

describe('warning headers', () => {
  it('carry code 299, agent "-" and the text quoted with its quotes escaped', () => {
    expect(warningHeaderValue('unknown field "spec.replicass"')).toBe('299 - "unknown field \\"spec.replicass\\""');
  });
});

describe('patch results', () => {
  const patched = (): KubeObject => {
    const object = live();
    (object['spec'] as Record<string, unknown>)['replicass'] = 3;
    return object;
  };

  it('a strategic merge patch fails with the patch as Go prints a map, its repeated keys first', () => {
    const body = '{"spec":{"replicass":3,"paused":false,"paused":false}}';
    const error = thrown(() => validatePatchResult({ flavor: 'strategic', body, live: live(), patched: patched(), directive: 'Strict' }));
    expect([error.code, error.message]).toEqual([
      422,
      ' "" is invalid: patch: Invalid value: "map[spec:map[paused:false replicass:3]]": strict decoding error: duplicate field "spec.paused", unknown field "spec.replicass"',
    ]);
    expect(error.details).toMatchObject({ name: '', group: '', kind: '', causes: [{ field: 'patch', reason: 'FieldValueInvalid' }] });
  });

  it('a merge patch fails with the patched object as JSON', () => {
    const error = thrown(() => validatePatchResult({ flavor: 'merge', body: '{"spec":{"replicass":3}}', live: live(), patched: patched(), directive: 'Strict' }));
    expect(error.message).toBe(` "" is invalid: patch: Invalid value: ${JSON.stringify(JSON.stringify(patched()))}: strict decoding error: unknown field "spec.replicass"`);
  });

  it('type errors name the converter for strategic merge patches and Go json otherwise', () => {
    const bad = live();
    (bad['spec'] as Record<string, unknown>)['replicas'] = 'two';
    const args = { body: '{"spec":{"replicas":"two"}}', live: live(), patched: bad, directive: 'Ignore' as const };
    expect(thrown(() => validatePatchResult({ ...args, flavor: 'strategic' })).message).toBe(' "" is invalid: patch: Invalid value: "map[spec:map[replicas:two]]": unrecognized type: int32');
    expect(thrown(() => validatePatchResult({ ...args, flavor: 'json' })).message).toContain(': json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32');
  });

  it('under Warn the result loses the unknown field; fields the live object already had are not the patch\'s fault', () => {
    const result = validatePatchResult({ flavor: 'merge', body: '{"spec":{"replicass":3}}', live: live(), patched: patched(), directive: 'Warn' });
    expect([result.warnings, result.object]).toEqual([['unknown field "spec.replicass"'], live()]);
    const again = validatePatchResult({ flavor: 'merge', body: '{"metadata":{"labels":{"a":"b"}}}', live: patched(), patched: patched(), directive: 'Strict' });
    expect([again.warnings, again.object]).toEqual([[], patched()]);
  });
});

describe('server-side apply bodies', () => {
  const lists = listSemanticsOf('apps', 'v1', 'Deployment');
  const apply = (body: object | string, directive: 'Strict' | 'Warn' | 'Ignore' = 'Strict') =>
    validateApplyBody({ body: typeof body === 'string' ? body : JSON.stringify(body), apiVersion: 'apps/v1', kind: 'Deployment', directive, lists });

  it('refuse unknown fields in every mode as structured-merge-diff does: a 500 naming list items by key', () => {
    const body = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { replicass: 3, template: { spec: { containers: [{ name: 'c', imagee: 'x', ports: [{ containerPort: 80, hostPortt: 1 }] }] } } },
    };
    const error = thrown(() => apply(body, 'Ignore'));
    expect([error.code, error.reason]).toEqual([500, '']);
    expect(error.message).toBe(
      'failed to create typed patch object (default/web; apps/v1, Kind=Deployment): errors:\n' +
        '  .spec.replicass: field not declared in schema\n' +
        '  .spec.template.spec.containers[name="c"].imagee: field not declared in schema\n' +
        '  .spec.template.spec.containers[name="c"].ports[containerPort=80,protocol="TCP"].hostPortt: field not declared in schema',
    );
  });

  it('name atomic list items by index', () => {
    const object = { spec: { template: { spec: { tolerations: [{ key: 'a' }, { key: 'b', bogus: 1 }] } } } };
    expect(applyPathOf(object, 'spec.template.spec.tolerations[1].bogus', lists)).toBe('.spec.template.spec.tolerations[1].bogus');
  });

  it('resolve repeated keys for the apply and report them afterwards as the YAML decoder does', () => {
    const body = '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":1,"replicas":2}}';
    const strict = apply(body);
    expect(JSON.parse(strict.body)).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 2 } });
    expect(thrown(() => strict.afterApply()).message).toBe('error strict decoding YAML: error converting YAML to JSON: yaml: unmarshal errors:\n  line 1: key "replicas" already set in map');
    expect(apply(body, 'Warn').afterApply()).toEqual(['line 1: key "replicas" already set in map']);
    expect(apply(body, 'Ignore').afterApply()).toEqual([]);
  });
});
