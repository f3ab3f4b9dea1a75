/**
 * The real kubectl writing ControllerRevisions: the simulated API server refuses what
 * kube-apiserver refuses, and kubectl prints the same lines — a create without `data`
 * ("data: Required value: data is mandatory"), a replace changing `data` (immutable, the new
 * value printed as Go prints the internal field: a RawExtension since 1.31, a runtime.Unknown
 * before, holding the JSON bytes kubectl sent); and a revision a client wrote under the name a
 * StatefulSet's revision takes makes the controller bump `status.collisionCount` and pick the
 * next hash.
 */
import { describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import { eventually, MINORS, useKubectlTest, type KubectlSession } from './session.ts';
import { statefulSet } from './statefulset.ts';

/** The revision's data with its keys sorted, as kubectl's JSON encoding sends them. */
function data(image: string) {
  return { spec: { template: { $patch: 'replace', metadata: { labels: { app: 'db' } }, spec: { containers: [{ image, name: 'db' }] } } } };
}

function manifest(ns: string, body: { data?: unknown; revision: number }): string {
  return JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'db-1', namespace: ns }, ...body });
}

/** Go's `%#v` of the internal `data` holding `json` (bytes in hex), per release: written out here, not taken from the simulator. */
function goData(minor: number, json: string): string {
  const bytes = `[]uint8{${[...Buffer.from(json, 'utf8')].map((byte) => `0x${byte.toString(16)}`).join(', ')}}`;
  if (minor >= 31) return `runtime.RawExtension{Raw:${bytes}, Object:runtime.Object(nil)}`;
  return `runtime.Unknown{TypeMeta:runtime.TypeMeta{APIVersion:"", Kind:""}, Raw:${bytes}, ContentEncoding:"", ContentType:"application/json"}`;
}

describe.skipIf(kubectlMissing !== undefined)(`real kubectl writes ControllerRevisions${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'revision-writes', (state) => ({ k, ns } = state));

    it('create -f of a ControllerRevision without data prints the Invalid error and exits 1', async () => {
      const res = await k.run(['create', '-f', '-'], manifest(ns, { revision: 1 }));
      expect([res.code, res.stdout, res.stderr]).toEqual([1, '', 'The ControllerRevision "db-1" is invalid: data: Required value: data is mandatory\n']);
    });

    it('replace -f changing data is refused as immutable; changing revision only is accepted', async () => {
      const created = await k.run(['create', '-f', '-'], manifest(ns, { data: data('postgres:16.4'), revision: 1 }));
      expect([created.code, created.stdout, created.stderr]).toEqual([0, 'controllerrevision.apps/db-1 created\n', '']);
      const changed = data('postgres:16.5');
      const refused = await k.run(['replace', '-f', '-'], manifest(ns, { data: changed, revision: 1 }));
      expect([refused.code, refused.stdout, refused.stderr]).toEqual([1, '', `The ControllerRevision "db-1" is invalid: data: Invalid value: ${goData(minor, JSON.stringify(changed))}: field is immutable\n`]);
      const renumbered = await k.run(['replace', '-f', '-'], manifest(ns, { data: data('postgres:16.4'), revision: 2 }));
      expect([renumbered.code, renumbered.stdout, renumbered.stderr]).toEqual([0, 'controllerrevision.apps/db-1 replaced\n', '']);
      const stored = await k.run(['get', 'controllerrevision', 'db-1', '-n', ns, '-o', 'jsonpath={.revision} {.data.spec.template.spec.containers[0].image}']);
      expect(stored.stdout).toBe('2 postgres:16.4');
    });

    it('a revision a client wrote under the StatefulSet revision\'s name makes the controller bump collisionCount', async () => {
      const jsonpath = (what: string, path: string) => k.run(['get', ...what.split(' '), '-n', ns, '-o', `jsonpath=${path}`]);
      const applied = await k.run(['apply', '-f', '-'], statefulSet(ns));
      expect([applied.code, applied.stderr]).toEqual([0, '']);
      const taken = await eventually(async () => (await jsonpath('statefulset db', '{.status.updateRevision}')).stdout || undefined, { what: 'the first revision' });
      const deleted = await k.run(['delete', 'statefulset', 'db', '-n', ns, '--wait=true']);
      expect(deleted.code).toBe(0);
      await eventually(async () => ((await k.run(['get', 'controllerrevision', taken, '-n', ns])).code === 1 ? true : undefined), { what: `${taken} collected` });
      const squatter = JSON.stringify({ apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: taken, namespace: ns }, data: data('postgres:9.6'), revision: 1 });
      const created = await k.run(['create', '-f', '-'], squatter);
      expect([created.code, created.stdout, created.stderr]).toEqual([0, `controllerrevision.apps/${taken} created\n`, '']);
      const again = await k.run(['apply', '-f', '-'], statefulSet(ns));
      expect([again.code, again.stderr]).toEqual([0, '']);
      const status = await eventually(
        async () => {
          const res = await jsonpath('statefulset db', '{.status.collisionCount} {.status.updateRevision}');
          return res.stdout.startsWith('1 ') ? res.stdout : undefined;
        },
        { what: 'collisionCount 1' },
      );
      const [, next] = status.split(' ');
      expect(next).toMatch(/^db-[a-z0-9]+$/);
      expect(next).not.toBe(taken);
      expect((await jsonpath(`controllerrevision ${taken}`, '{.data.spec.template.spec.containers[0].image}')).stdout).toBe('postgres:9.6');
    });
  });
});
