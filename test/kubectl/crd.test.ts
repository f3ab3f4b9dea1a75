/**
 * The real kubectl works with CustomResourceDefinitions on the simulated cluster as on a real
 * one: it applies a CRD and then a custom resource, prints the CRD's printer columns, explains
 * the schema's fields, diffs a custom resource (exit 0 unchanged, 1 changed), deletes one with
 * the garbage collector removing what it owns, and shows the apiserver's message for an invalid one.
 */
import { describe, expect, it } from 'vitest';
import { kubectlMissing } from './kubectl.ts';
import type { SimCluster } from '../../electron/engine/simcluster/index.ts';
import { eventually, MINORS, parseTable, useKubectlTest, type KubectlSession } from './session.ts';

/** A trimmed cert-manager Certificate CRD, as its Helm chart installs it. */
const CERTIFICATE_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: certificates.cert-manager.io
spec:
  group: cert-manager.io
  names:
    kind: Certificate
    listKind: CertificateList
    plural: certificates
    shortNames: [cert, certs]
    singular: certificate
    categories: [cert-manager]
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      subresources:
        status: {}
      additionalPrinterColumns:
        - jsonPath: .status.conditions[?(@.type=="Ready")].status
          name: Ready
          type: string
        - jsonPath: .spec.secretName
          name: Secret
          type: string
        - jsonPath: .spec.issuerRef.name
          name: Issuer
          type: string
          priority: 1
        - jsonPath: .metadata.creationTimestamp
          name: Age
          type: date
      schema:
        openAPIV3Schema:
          description: A Certificate resource should be created to ensure an up to date and signed X.509 certificate is stored in the Kubernetes Secret resource named in spec.secretName.
          type: object
          required: [spec]
          properties:
            apiVersion:
              type: string
            kind:
              type: string
            metadata:
              type: object
            spec:
              description: Specification of the desired state of the Certificate resource.
              type: object
              required: [issuerRef, secretName]
              properties:
                dnsNames:
                  description: Requested DNS subject alternative names.
                  type: array
                  items:
                    type: string
                issuerRef:
                  description: Reference to the issuer responsible for issuing the certificate.
                  type: object
                  required: [name]
                  properties:
                    kind:
                      type: string
                    name:
                      description: Name of the resource being referred to.
                      type: string
                secretName:
                  description: Name of the Secret resource that will be automatically created and managed by this Certificate resource.
                  type: string
            status:
              type: object
              properties:
                conditions:
                  type: array
                  x-kubernetes-list-map-keys: [type]
                  x-kubernetes-list-type: map
                  items:
                    type: object
                    required: [status, type]
                    properties:
                      message:
                        type: string
                      status:
                        type: string
                      type:
                        type: string
`;

function certificate(ns: string, secretName: string | undefined): string {
  return `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: web
  namespace: ${ns}
spec:
${secretName === undefined ? '' : `  secretName: ${secretName}\n`}  dnsNames: [web.example.com]
  issuerRef:
    name: letsencrypt
`;
}

describe.skipIf(kubectlMissing !== undefined)(`real kubectl and custom resources${kubectlMissing ? ` (skipped: ${kubectlMissing})` : ''}`, () => {
  describe.each(MINORS)('kubectl 1.%i', (minor) => {
    let cluster: SimCluster;
    let k: KubectlSession;
    let ns: string;
    useKubectlTest(minor, 'crd', (state) => ({ cluster, k, ns } = state));

    /** The CRD once per cluster (each test has its own namespace), then this test's Certificate. */
    async function install(): Promise<void> {
      const crd = await k.run(['apply', '-f', '-'], CERTIFICATE_CRD);
      expect(crd.code, crd.stderr).toBe(0);
      expect(crd.stdout).toMatch(/^customresourcedefinition\.apiextensions\.k8s\.io\/certificates\.cert-manager\.io (created|unchanged)\n$/);
      const cr = await k.run(['apply', '-f', '-'], certificate(ns, 'web-tls'));
      expect([cr.code, cr.stdout, cr.stderr]).toEqual([0, 'certificate.cert-manager.io/web created\n', '']);
    }

    it('applies a CRD, then a custom resource, and gets it with the printer columns', async () => {
      await install();
      const table = await k.run(['get', 'certificates', '-n', ns]);
      expect([table.code, table.stderr]).toEqual([0, '']);
      expect(table.stdout.split('\n')[0]?.trim().split(/\s{2,}/)).toEqual(['NAME', 'READY', 'SECRET', 'AGE']);
      expect(parseTable(table.stdout)).toEqual([{ NAME: 'web', READY: '', SECRET: 'web-tls', AGE: expect.stringMatching(/^\d+s$/) }]);
      const wide = await k.run(['get', 'cert', 'web', '-n', ns, '-o', 'wide']);
      expect(parseTable(wide.stdout)).toEqual([{ NAME: 'web', READY: '', SECRET: 'web-tls', ISSUER: 'letsencrypt', AGE: expect.stringMatching(/^\d+s$/) }]);
      const crds = await k.run(['get', 'crd', 'certificates.cert-manager.io']);
      expect(parseTable(crds.stdout)).toEqual([{ NAME: 'certificates.cert-manager.io', 'CREATED AT': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/) }]);
    });

    it("explains the custom resource's fields from the CRD schema", async () => {
      await install();
      const res = await k.run(['explain', 'certificates.spec']);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(res.stdout).toMatch(/^GROUP:\s+cert-manager\.io\nKIND:\s+Certificate\nVERSION:\s+v1\n/);
      expect(res.stdout).toMatch(/FIELD: spec <Object>/);
      expect(res.stdout).toMatch(/\n {4}Specification of the desired state of the Certificate resource\./);
      expect(res.stdout).toMatch(/\n {2}issuerRef\t<Object> -required-\n {4}Reference to the issuer responsible for issuing the certificate\./);
      expect(res.stdout).toMatch(/\n {2}secretName\t<string> -required-\n/);
      const leaf = await k.run(['explain', 'certificate.spec.issuerRef.name']);
      expect(leaf.stdout).toMatch(/FIELD: name <string>\n[\s\S]*Name of the resource being referred to\./);
    });

    it('diffs a custom resource: exit 0 when unchanged, 1 with the changed field', async () => {
      await install();
      const same = await k.run(['diff', '-f', '-'], certificate(ns, 'web-tls'));
      expect([same.code, same.stdout, same.stderr]).toEqual([0, '', '']);
      const changed = await k.run(['diff', '-f', '-'], certificate(ns, 'web-tls-2'));
      expect([changed.code, changed.stderr]).toEqual([1, '']);
      expect(changed.stdout).toMatch(new RegExp(`^diff -u -N \\S+/LIVE-\\d+/cert-manager\\.io\\.v1\\.Certificate\\.${ns}\\.web `));
      expect(changed.stdout.split('\n').filter((line) => /^[-+] /.test(line))).toEqual(['-  generation: 1', '+  generation: 2', '-  secretName: web-tls', '+  secretName: web-tls-2']);
    });

    it('deletes a custom resource and the garbage collector deletes the ConfigMap it owns', async () => {
      await install();
      const uid = (await k.run(['get', 'certificate', 'web', '-n', ns, '-o', 'jsonpath={.metadata.uid}'])).stdout;
      const owned = `apiVersion: v1
kind: ConfigMap
metadata:
  name: web-owned
  namespace: ${ns}
  ownerReferences:
    - apiVersion: cert-manager.io/v1
      kind: Certificate
      name: web
      uid: ${uid}
data:
  issued: "true"
`;
      expect((await k.run(['apply', '-f', '-'], owned)).code).toBe(0);
      const deleted = await k.run(['delete', 'certificate', 'web', '-n', ns]);
      expect([deleted.code, deleted.stdout, deleted.stderr]).toEqual([0, 'certificate.cert-manager.io "web" deleted\n', '']);
      await eventually(async () => ((await k.run(['get', 'configmap', 'web-owned', '-n', ns])).code === 1 ? true : undefined), { what: 'the owned ConfigMap to be garbage collected' });
      const gone = await k.run(['get', 'configmap', 'web-owned', '-n', ns]);
      expect(gone.stderr).toBe('Error from server (NotFound): configmaps "web-owned" not found\n');
    });

    it('watches custom resources as Tables with the printer columns (get -w)', async () => {
      await install();
      const watch = k.stream(['get', 'certificates', '-n', ns, '-w']);
      try {
        await watch.until((out) => /^web\s+web-tls\s+\d+s$/m.test(out));
        const second = await k.run(['apply', '-f', '-'], certificate(ns, 'api-tls').replace('name: web\n', 'name: api\n'));
        expect(second.code, second.stderr).toBe(0);
        const out = await watch.until((text) => /^api\s+api-tls\s+\d+s$/m.test(text));
        expect(out.split('\n')[0]?.trim().split(/\s{2,}/)).toEqual(['NAME', 'READY', 'SECRET', 'AGE']);
      } finally {
        await watch.stop();
      }
    });

    it('prints the conversion webhook failure of a broken version as the apiserver words it', async () => {
      await install();
      cluster.server.faults.failConversion({ group: 'cert-manager.io', version: 'v1', plural: 'certificates', kind: 'Certificate', cause: 'Post "https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s": dial tcp 10.96.0.12:443: connect: connection refused' });
      try {
        const res = await k.run(['get', 'certificates', '-n', ns]);
        expect([res.code, res.stdout]).toEqual([1, '']);
        expect(res.stderr).toBe('Error from server: conversion webhook for cert-manager.io/v1, Kind=Certificate failed: Post "https://cert-manager-webhook.cert-manager.svc:443/convert?timeout=30s": dial tcp 10.96.0.12:443: connect: connection refused\n');
      } finally {
        cluster.server.faults.clear();
      }
      expect((await k.run(['get', 'certificates', '-n', ns])).code).toBe(0);
    });

    it("refuses an invalid custom resource with the apiserver's message", async () => {
      const crd = await k.run(['apply', '-f', '-'], CERTIFICATE_CRD);
      expect(crd.code, crd.stderr).toBe(0);
      const res = await k.run(['apply', '-f', '-'], certificate(ns, undefined));
      expect([res.code, res.stdout, res.stderr]).toEqual([1, '', 'The Certificate "web" is invalid: spec.secretName: Required value\n']);
    });
  });
});
