/**
 * A certificate authority and a serving certificate generated per run, so clients can verify the
 * simulated API server the same way they verify a real one (certificate-authority-data in the
 * kubeconfig). ECDSA P-256 through WebCrypto; PEMs ready for node:https.
 */
import { webcrypto } from 'node:crypto';
import { ensureReflectMetadata } from './reflect-shim.ts';

/** PEM material for node:https and the kubeconfig. */
export interface Certificates {
  /** The per-run CA certificate, for kubeconfig certificate-authority-data. */
  caPem: string;
  /** The server certificate (127.0.0.1, ::1, localhost), signed by the CA. */
  certPem: string;
  /** The server certificate's private key, PKCS#8. */
  keyPem: string;
  /** The CA's private key, PKCS#8: signs client certificates for kubeconfig users (rbac/client-certificates.ts). */
  caKeyPem: string;
}

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const HOUR_MS = 3_600_000;
const VALIDITY_MS = 365 * 24 * HOUR_MS;

function pem(label: string, der: ArrayBuffer): string {
  const base64 = Buffer.from(der).toString('base64');
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** A random positive serial number (the high bit clear keeps it positive in DER). */
function serialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0] ?? 0) & 0x7f || 0x01;
  return Buffer.from(bytes).toString('hex');
}

/** Generates a fresh CA and a serving certificate for 127.0.0.1, ::1 and localhost, valid for a year. */
export async function createCertificates(options: { now?: () => number } = {}): Promise<Certificates> {
  ensureReflectMetadata();
  const x509 = await import('@peculiar/x509');
  const subtle = webcrypto.subtle;
  const now = (options.now ?? Date.now)();
  // An hour of slack for clocks that disagree slightly; clients reject "not yet valid" certs.
  const notBefore = new Date(now - HOUR_MS);
  const notAfter = new Date(now + VALIDITY_MS);

  const caKeys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const caName = 'CN=kubedrift-simcluster-ca';
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: caName,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys: caKeys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const serverKeys = (await subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: 'CN=kube-apiserver',
    issuer: ca.subject,
    notBefore,
    notAfter,
    signingAlgorithm: ALGORITHM,
    publicKey: serverKeys.publicKey,
    signingKey: caKeys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.SubjectKeyIdentifierExtension.create(serverKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const keyDer = await subtle.exportKey('pkcs8', serverKeys.privateKey);
  const caKeyDer = await subtle.exportKey('pkcs8', caKeys.privateKey);
  return { caPem: ca.toString('pem') + '\n', certPem: cert.toString('pem') + '\n', keyPem: pem('PRIVATE KEY', keyDer), caKeyPem: pem('PRIVATE KEY', caKeyDer) };
}
