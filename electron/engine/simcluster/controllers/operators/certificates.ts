/**
 * A cert-manager-like Certificate controller for the demo. A `Certificate`
 * (cert-manager.io/v1) is issued by its `Issuer`: `Issuing=True` while a request is in flight,
 * then the TLS Secret is written and `Ready=True` ("Certificate is up to date and has not
 * expired"). An Issuer annotated `simcluster.kubedrift.dev/fail-every: "N"` fails every Nth
 * request (`Issuing=False`, reason Failed, a Warning Event), and the Certificate is retried after
 * a back-off. Issuers get `Ready=True`. Events carry cert-manager's controller names.
 */
import type { Change } from '../../changelog.ts';
import type { ResourceType } from '../../resources.ts';
import type { KubeObject } from '../../types.ts';
import { getCondition, setCondition, timestamp } from '../conditions.ts';
import { SECRETS } from '../kinds.ts';
import type { Controller, ControllerContext, ReconcileKey } from '../runtime.ts';

const CERTIFICATES = 'certificates.cert-manager.io';
const ISSUERS = 'issuers.cert-manager.io';
/** How often an Issuer's requests fail: every Nth one. */
export const FAIL_EVERY_ANNOTATION = 'simcluster.kubedrift.dev/fail-every';
/** How long a request takes to be signed, and how long a failed one waits to be retried (before speed). */
const ISSUE_MS = 4_000;
const RETRY_MS = 30_000;
const DAY_MS = 24 * 3600_000;

interface CertificateSpec {
  secretName?: string;
  dnsNames?: string[];
  issuerRef?: { name?: string; kind?: string };
}

/** The controller's options: the scenario speed. */
export interface CertificateControllerOptions {
  speed?: number;
}

function key(resource: string, object: KubeObject): ReconcileKey {
  return { resource, namespace: object.metadata.namespace, name: object.metadata.name };
}

/** The spec the Secret was issued for, so a spec change triggers a new issuance. */
function issuedFor(spec: CertificateSpec): string {
  return JSON.stringify({ dnsNames: spec.dnsNames ?? [], issuer: spec.issuerRef?.name ?? '' });
}

/** The Certificate controllers and the Issuer readiness controller; idle until the CRDs exist. */
export function createCertificateController(options: CertificateControllerOptions = {}): Controller {
  const speed = options.speed ?? 1;
  /** Requests each Issuer has signed or failed so far, for `fail-every`. */
  const attempts = new Map<string, number>();

  function writeStatus(ctx: ControllerContext, type: ResourceType, object: KubeObject, edit: (status: Record<string, unknown>) => void): void {
    const status = structuredClone((object['status'] ?? {}) as Record<string, unknown>);
    edit(status);
    if (JSON.stringify(status) === JSON.stringify(object['status'] ?? {})) return;
    ctx.store.mutate(type, object.metadata.namespace, object.metadata.name, (copy) => {
      copy['status'] = status;
    }, { subresource: 'status' });
  }

  function reconcileIssuer(ctx: ControllerContext, type: ResourceType, issuer: KubeObject): void {
    writeStatus(ctx, type, issuer, (status) => setCondition(status, 'Ready', 'True', 'IsReady', 'Signing CA verified', ctx.clock.now()));
  }

  function issue(ctx: ControllerContext, type: ResourceType, cert: KubeObject, spec: CertificateSpec, issuer: KubeObject): number | void {
    const now = ctx.clock.now();
    const issuerKey = `${issuer.metadata.namespace}/${issuer.metadata.name}`;
    const attempt = (attempts.get(issuerKey) ?? 0) + 1;
    attempts.set(issuerKey, attempt);
    const failEvery = Number(issuer.metadata.annotations?.[FAIL_EVERY_ANNOTATION] ?? 0);
    if (failEvery > 0 && attempt % failEvery === 0) {
      const message = `The certificate request has failed to complete and will be retried: Failed to wait for order resource "${cert.metadata.name}-1" to become ready: order is in "errored" state: 429 urn:ietf:params:acme:error:rateLimited: too many certificates already issued`;
      writeStatus(ctx, type, cert, (status) => {
        setCondition(status, 'Issuing', 'False', 'Failed', message, now);
        status['failedIssuanceAttempts'] = Number(status['failedIssuanceAttempts'] ?? 0) + 1;
        status['lastFailureTime'] = timestamp(now);
      });
      ctx.events.record({ regarding: cert, type: 'Warning', reason: 'Failed', message, component: 'cert-manager-certificates-issuing' });
      return RETRY_MS / speed;
    }
    const secretName = spec.secretName ?? '';
    const secret = {
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/tls',
      metadata: { name: secretName, namespace: cert.metadata.namespace, annotations: { 'cert-manager.io/certificate-name': cert.metadata.name, 'cert-manager.io/issuer-name': issuer.metadata.name, 'kubedrift.dev/issued-for': issuedFor(spec) } },
      data: { 'tls.crt': Buffer.from(`certificate for ${(spec.dnsNames ?? []).join(',')}`).toString('base64'), 'tls.key': Buffer.from('private key').toString('base64') },
    } as unknown as KubeObject;
    if (ctx.store.find(SECRETS, cert.metadata.namespace, secretName)) ctx.store.update(SECRETS, secret);
    else ctx.store.create(SECRETS, secret);
    writeStatus(ctx, type, cert, (status) => {
      status['conditions'] = ((status['conditions'] as Array<{ type: string }> | undefined) ?? []).filter((c) => c.type !== 'Issuing');
      setCondition(status, 'Ready', 'True', 'Ready', 'Certificate is up to date and has not expired', now);
      status['notBefore'] = timestamp(now);
      status['notAfter'] = timestamp(now + 90 * DAY_MS);
      status['renewalTime'] = timestamp(now + 60 * DAY_MS);
      status['revision'] = Number(status['revision'] ?? 0) + 1;
      delete status['failedIssuanceAttempts'];
      delete status['lastFailureTime'];
    });
    ctx.events.record({ regarding: cert, type: 'Normal', reason: 'Issuing', message: 'The certificate has been successfully issued', component: 'cert-manager-certificates-issuing' });
  }

  function reconcileCertificate(ctx: ControllerContext, type: ResourceType, cert: KubeObject): number | void {
    const spec = (cert['spec'] ?? {}) as CertificateSpec;
    const issuersType = ctx.store.types.byId(ISSUERS);
    const issuer = issuersType && ctx.store.find(issuersType, cert.metadata.namespace, spec.issuerRef?.name ?? '');
    const secret = ctx.store.find(SECRETS, cert.metadata.namespace, spec.secretName ?? '');
    const upToDate = secret?.metadata.annotations?.['kubedrift.dev/issued-for'] === issuedFor(spec);
    const now = ctx.clock.now();
    if (upToDate && getCondition(cert['status'], 'Ready')?.status === 'True') return;
    const issuing = getCondition(cert['status'], 'Issuing');
    if (issuing?.status !== 'True') {
      // A failed request waits out its back-off before the trigger controller tries again.
      const failedAt = Date.parse(String((cert['status'] as { lastFailureTime?: string } | undefined)?.lastFailureTime ?? ''));
      if (!Number.isNaN(failedAt) && now < failedAt + RETRY_MS / speed) return failedAt + RETRY_MS / speed - now;
      const why = secret ? 'Issuing certificate as Secret was previously issued for a different spec' : 'Issuing certificate as Secret does not exist';
      writeStatus(ctx, type, cert, (status) => {
        setCondition(status, 'Issuing', 'True', secret ? 'Reissuing' : 'DoesNotExist', why, now);
        if (!upToDate) setCondition(status, 'Ready', 'False', secret ? 'Reissuing' : 'DoesNotExist', why, now);
      });
      ctx.events.record({ regarding: cert, type: 'Normal', reason: 'Issuing', message: why, component: 'cert-manager-certificates-trigger' });
      return ISSUE_MS / speed;
    }
    if (!issuer) return RETRY_MS / speed;
    const startedAt = Date.parse(issuing.lastTransitionTime ?? '');
    if (!Number.isNaN(startedAt) && now < startedAt + ISSUE_MS / speed) return startedAt + ISSUE_MS / speed - now;
    return issue(ctx, type, cert, spec, issuer);
  }

  return {
    name: 'cert-manager-certificates',
    keysFor(change: Change): ReconcileKey[] {
      if (change.type === 'DELETED') return [];
      if (change.resource === CERTIFICATES || change.resource === ISSUERS) return [key(change.resource, change.object)];
      return [];
    },
    initialKeys(ctx: ControllerContext): ReconcileKey[] {
      return [CERTIFICATES, ISSUERS].flatMap((resource) => {
        const type = ctx.store.types.byId(resource);
        return type ? ctx.store.all(type).map((o) => key(resource, o)) : [];
      });
    },
    reconcile(reconcileKey: ReconcileKey, ctx: ControllerContext): number | void {
      const type = ctx.store.types.byId(reconcileKey.resource);
      const object = type && ctx.store.find(type, reconcileKey.namespace, reconcileKey.name);
      if (!type || !object || object.metadata.deletionTimestamp) return;
      if (reconcileKey.resource === ISSUERS) return reconcileIssuer(ctx, type, object);
      return reconcileCertificate(ctx, type, object);
    },
  };
}
