/**
 * Client certificates for kubeconfig users, signed by the simulated cluster's CA: the subject's
 * CN is the user name and each O a group, which is how kube-apiserver's x509 authenticator reads
 * them (kubeadm's admin.conf carries `O=system:masters` or `O=kubeadm:cluster-admins`).
 */
import { webcrypto } from 'node:crypto';
import { ensureReflectMetadata } from '../server/reflect-shim.ts';

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const HOUR_MS = 3_600_000;
const VALIDITY_MS = 365 * 24 * HOUR_MS;

export interface ClientCertificate {
  certPem: string;
  keyPem: string;
}

function pem(label: string, der: ArrayBuffer): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** Escapes the characters RFC 4514 reserves in a distinguished name's attribute values. */
function escapeDn(value: string): string {
  return value.replace(/([,+"\\<>;=])/g, '\\$1').replace(/^([ #])/, '\\$1').replace(/ $/, '\\ ');
}

/** A client certificate for `user` in `groups`, valid for a year, signed by the CA. */
export async function issueClientCertificate(options: { caPem: string; caKeyPem: string; user: string; groups: readonly string[]; now?: () => number }): Promise<ClientCertificate> {
  ensureReflectMetadata();
  const x509 = await import('@peculiar/x509');
  const subtle = webcrypto.subtle;
  const now = (options.now ?? Date.now)();
  const ca = new x509.X509Certificate(options.caPem);
  const caKeyDer = Buffer.from(options.caKeyPem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const caKey = await subtle.importKey('pkcs8', caKeyDer, ALGORITHM, false, ['sign']);
  const keys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const subject = [...options.groups.map((group) => `O=${escapeDn(group)}`), `CN=${escapeDn(options.user)}`].join(', ');
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: Buffer.from(bytes).toString('hex'),
    subject,
    issuer: ca.subject,
    notBefore: new Date(now - HOUR_MS),
    notAfter: new Date(now + VALIDITY_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.clientAuth]),
    ],
  });
  const keyDer = await subtle.exportKey('pkcs8', keys.privateKey);
  return { certPem: cert.toString('pem') + '\n', keyPem: pem('PRIVATE KEY', keyDer) };
}
