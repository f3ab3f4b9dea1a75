/**
 * Server-side field validation as the real kubectl meets it: kubectl 1.27+ sends
 * `fieldValidation=Strict` (or `Warn` with `--validate=warn`) and prints the server's strict
 * decoding errors and warnings; manifests using fields the simulator's own OpenAPI does not
 * describe are still accepted, because the check runs against client-node's complete models.
 */
import { describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import { MINORS, useKubectlTest, type KubectlSession } from './session.ts';

/** A Deployment manifest; `extraSpec` lines are added to its spec (two-space indented). */
function manifest(name: string, extraSpec = '', podSpec = ''): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  selector:
    matchLabels:
      app: ${name}
${extraSpec}  template:
    metadata:
      labels:
        app: ${name}
    spec:
${podSpec}      containers:
        - name: app
          image: nginx:1.27
`;
}

/** Pod spec fields the hand-written OpenAPI definitions lack. */
const RICH_POD_SPEC = `      securityContext:
        runAsNonRoot: true
        seccompProfile:
          type: RuntimeDefault
      dnsConfig:
        nameservers: [10.0.0.10]
        options:
          - name: ndots
            value: "2"
      hostAliases:
        - ip: 127.0.0.1
          hostnames: [foo.local]
      topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: kubernetes.io/hostname
          whenUnsatisfiable: ScheduleAnyway
          labelSelector:
            matchLabels:
              app: rich
`;

describe.skipIf(kubectlMissing !== undefined)(`real kubectl meets server-side field validation${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'validation', (state) => ({ k, ns } = state));

    it('apply -f of a misspelt field fails with the strict decoding error and creates nothing', async () => {
      const res = await k.run(['apply', '-n', ns, '-f', '-'], manifest('web', '  replicass: 3\n'));
      expect([res.code, res.stdout, res.stderr]).toEqual([
        1,
        '',
        'Error from server (BadRequest): error when creating "STDIN": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replicass"\n',
      ]);
      const get = await k.run(['get', 'deploy', 'web', '-n', ns]);
      expect([get.code, get.stderr]).toEqual([1, 'Error from server (NotFound): deployments.apps "web" not found\n']);
    });

    it('apply --validate=warn creates the object without the field and prints the warning', async () => {
      const res = await k.run(['apply', '--validate=warn', '-n', ns, '-f', '-'], manifest('web', '  replicass: 3\n'));
      expect([res.code, res.stdout, res.stderr]).toEqual([0, 'deployment.apps/web created\n', 'Warning: unknown field "spec.replicass"\n']);
      const replicas = await k.run(['get', 'deploy', 'web', '-n', ns, '-o', 'jsonpath={.spec.replicas}']);
      expect(replicas.stdout).toBe('1');
    });

    it('create -f accepts fields the simulator\'s OpenAPI does not describe, and keeps them', async () => {
      const res = await k.run(['create', '-n', ns, '-f', '-'], manifest('rich', '  replicas: 1\n', RICH_POD_SPEC));
      expect([res.code, res.stdout, res.stderr]).toEqual([0, 'deployment.apps/rich created\n', '']);
      const kept = await k.run(['get', 'deploy', 'rich', '-n', ns, '-o', 'jsonpath={.spec.template.spec.securityContext.seccompProfile.type} {.spec.template.spec.dnsConfig.options[0].value}']);
      expect(kept.stdout).toBe('RuntimeDefault 2');
    });

    it('a typo or a wrong type in a later apply, client- or server-side, is refused as a real server refuses it', async () => {
      expect((await k.run(['apply', '-n', ns, '-f', '-'], manifest('web'))).code).toBe(0);
      const typo = await k.run(['apply', '-n', ns, '-f', '-'], manifest('web', '  replicass: 3\n'));
      expect(typo.code).toBe(1);
      expect(typo.stderr).toMatch(/^The request is invalid: patch: Invalid value: "map\[metadata:map\[annotations:.* spec:map\[replicass:3\]\]": strict decoding error: unknown field "spec.replicass"\n$/s);
      const type = await k.run(['apply', '-n', ns, '-f', '-'], manifest('web', '  replicas: two\n'));
      expect(type.stderr).toMatch(/ spec:map\[replicas:two\]\]": unrecognized type: int32\n$/);
      const ssa = await k.run(['apply', '--server-side', '-n', ns, '-f', '-'], manifest('web', '  replicass: 3\n'));
      expect([ssa.code, ssa.stderr]).toEqual([1, `Error from server: failed to create typed patch object (${ns}/web; apps/v1, Kind=Deployment): .spec.replicass: field not declared in schema\n`]);
    });
  });
});
