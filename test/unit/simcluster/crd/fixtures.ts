/** CustomResourceDefinitions in the shapes real operators ship (trimmed cert-manager and a database operator). */

/** A trimmed cert-manager Certificate CRD: namespaced, status subresource, printer columns. */
export function certificateCrd(): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'certificates.cert-manager.io', labels: { app: 'cert-manager' } },
    spec: {
      group: 'cert-manager.io',
      names: { kind: 'Certificate', listKind: 'CertificateList', plural: 'certificates', shortNames: ['cert', 'certs'], singular: 'certificate', categories: ['cert-manager'] },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { jsonPath: '.status.conditions[?(@.type=="Ready")].status', name: 'Ready', type: 'string' },
            { jsonPath: '.spec.secretName', name: 'Secret', type: 'string' },
            { jsonPath: '.spec.issuerRef.name', name: 'Issuer', type: 'string', priority: 1 },
            { jsonPath: '.status.conditions[?(@.type=="Ready")].message', name: 'Status', type: 'string', priority: 1 },
            { jsonPath: '.metadata.creationTimestamp', name: 'Age', type: 'date', description: 'CreationTimestamp is a timestamp representing the server time when this object was created.' },
          ],
          schema: {
            openAPIV3Schema: {
              description: 'A Certificate resource should be created to ensure an up to date and signed X.509 certificate is stored in the Kubernetes Secret resource named in `spec.secretName`.',
              type: 'object',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
                kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
                metadata: { type: 'object' },
                spec: {
                  type: 'object',
                  description: 'Specification of the desired state of the Certificate resource.',
                  required: ['issuerRef', 'secretName'],
                  properties: {
                    commonName: { type: 'string', maxLength: 64, description: 'Requested common name X509 certificate subject attribute.' },
                    dnsNames: { type: 'array', items: { type: 'string' }, description: 'Requested DNS subject alternative names.' },
                    duration: { type: 'string', description: 'Requested \'duration\' (i.e. lifetime) of the Certificate.' },
                    isCA: { type: 'boolean' },
                    issuerRef: {
                      type: 'object',
                      required: ['name'],
                      description: 'Reference to the issuer responsible for issuing the certificate.',
                      properties: { group: { type: 'string' }, kind: { type: 'string', default: 'Issuer' }, name: { type: 'string', description: 'Name of the resource being referred to.' } },
                    },
                    privateKey: {
                      type: 'object',
                      properties: {
                        algorithm: { type: 'string', enum: ['RSA', 'ECDSA', 'Ed25519'] },
                        size: { type: 'integer', minimum: 256, maximum: 8192 },
                        rotationPolicy: { type: 'string', default: 'Never' },
                      },
                    },
                    renewBefore: { type: 'string' },
                    revisionHistoryLimit: { type: 'integer', format: 'int32', nullable: true },
                    secretName: { type: 'string', description: 'Name of the Secret resource that will be automatically created and managed by this Certificate resource.', pattern: '^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$' },
                  },
                },
                status: {
                  type: 'object',
                  properties: {
                    conditions: {
                      type: 'array',
                      'x-kubernetes-list-map-keys': ['type'],
                      'x-kubernetes-list-type': 'map',
                      items: {
                        type: 'object',
                        required: ['status', 'type'],
                        properties: {
                          lastTransitionTime: { type: 'string', format: 'date-time' },
                          message: { type: 'string' },
                          observedGeneration: { type: 'integer', format: 'int64' },
                          reason: { type: 'string' },
                          status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
                          type: { type: 'string' },
                        },
                      },
                    },
                    notAfter: { type: 'string', format: 'date-time' },
                    revision: { type: 'integer' },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}

/** A Certificate as a user writes it. */
export function certificate(name: string, namespace = 'default', spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'cert-manager.io/v1',
    kind: 'Certificate',
    metadata: { name, namespace },
    spec: { secretName: `${name}-tls`, dnsNames: [`${name}.example.com`], issuerRef: { name: 'letsencrypt' }, ...spec },
  };
}

/** A database operator's CRD: cluster-scoped v1alpha1 and namespaced-style v1 versions, scale subresource. */
export function databaseCrd(): Record<string, unknown> {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['engine'],
        properties: {
          engine: { type: 'string', enum: ['postgres', 'mysql'] },
          replicas: { type: 'integer', minimum: 1, default: 1 },
          storage: { 'x-kubernetes-int-or-string': true },
          settings: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        },
      },
      status: {
        type: 'object',
        properties: {
          replicas: { type: 'integer' },
          selector: { type: 'string' },
          observedGeneration: { type: 'integer' },
          phase: { type: 'string' },
        },
      },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'databases.db.example.com' },
    spec: {
      group: 'db.example.com',
      names: { kind: 'Database', plural: 'databases', shortNames: ['db'] },
      scope: 'Namespaced',
      versions: [
        { name: 'v1alpha1', served: true, storage: false, schema: { openAPIV3Schema: schema } },
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: schema },
          subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
          additionalPrinterColumns: [
            { name: 'Engine', type: 'string', jsonPath: '.spec.engine' },
            { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
            { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
          ],
        },
      ],
    },
  };
}

/**
 * A routing operator's CRD whose lists carry every list type server-side apply knows: backends a
 * list map keyed by name, ports a list map keyed by port and protocol (protocol defaults to TCP,
 * as a Service port's does), hosts a set, and rules an atomic list (whose items have a `name`
 * that must not make them a list map).
 */
export function routeCrd(): Record<string, unknown> {
  const backend = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, weight: { type: 'integer' }, port: { type: 'integer' } } };
  const port = { type: 'object', required: ['port'], properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' }, name: { type: 'string' } } };
  const rule = { type: 'object', properties: { name: { type: 'string' }, path: { type: 'string' }, backend: { type: 'string' } } };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'routes.net.kubedrift.dev' },
    spec: {
      group: 'net.kubedrift.dev',
      names: { kind: 'Route', listKind: 'RouteList', plural: 'routes', singular: 'route' },
      scope: 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: {
                    backends: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: backend },
                    ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['port', 'protocol'], items: port },
                    hosts: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                    rules: { type: 'array', 'x-kubernetes-list-type': 'atomic', items: rule },
                  },
                },
              },
            },
          },
        },
      ],
    },
  };
}
