/**
 * What never leaves the machine in an export: Secret values, the last-applied annotation (a full
 * copy of the manifest, Secret data included when someone applied a Secret's YAML), annotations
 * whose name says they hold a credential, and credential-shaped strings anywhere (private keys,
 * JWTs, passwords in URLs or `password=` pairs). Slimming already dropped Secrets, env and
 * commands from live objects; this runs again on every export because a past state rebuilt from
 * history or a snapshot opened from disk did not necessarily pass through today's slimming.
 */
import type { SlimObject } from '../../../shared/cluster.ts';
import { LAST_APPLIED_ANNOTATION } from '../cluster/informers/slim.ts';

export const REDACTED = '[redacted by Kubedrift]';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Annotation names that carry credentials: `…/token`, `…-password`, `vault.…/secret`,
 * `…/api-key`, `…/private-key`, `…/credentials`, `…/auth`... matched on the name's words.
 */
const CREDENTIAL_NAME = /(^|[^a-z])(token|tokens|password|passwd|pwd|passphrase|secret|secrets|credential|credentials|api[-_.]?key|apikey|private[-_.]?key|access[-_.]?key|secret[-_.]?key|client[-_.]?key|auth|authorization|bearer|cookie|session[-_.]?key|signing[-_.]?key|encryption[-_.]?key)([^a-z]|$)/i;

/** Annotations known to be harmless although their name matches (they hold no value of one). */
const SAFE_ANNOTATIONS: ReadonlySet<string> = new Set(['kubernetes.io/service-account.name', 'kubernetes.io/service-account.uid']);

/** Credential-shaped text inside any string, each replaced where it stands. */
const VALUE_PATTERNS: readonly RegExp[] = [
  // PEM private keys (RSA, EC, OpenSSH, PKCS#8, encrypted)
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  // JSON Web Tokens (service-account tokens, OIDC id tokens)
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/g,
  // scheme://user:password@host
  /(?<=[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)[^\s@/]+(?=@)/gi,
  // Authorization: Bearer / Basic values
  /(?<=\b(?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}/gi,
  // password=..., token: ..., "secret": "..." (the value only)
  /(?<=\b(?:password|passwd|pwd|token|secret|api[-_]?key|apikey|access[-_]?key|client[-_]?secret)["']?\s*[:=]\s*["']?)[^\s"',;&}]{3,}/gi,
  // Cloud access keys (AWS), GitHub and Slack tokens
  /\b(AKIA|ASIA)[A-Z0-9]{16}\b/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}\b/g,
];

/** A string with every credential-shaped part replaced. */
export function redactText(text: string): string {
  let out = text;
  for (const pattern of VALUE_PATTERNS) out = out.replace(pattern, REDACTED);
  return out;
}

/** Whether an annotation's name says its value is a credential. */
export function isCredentialAnnotation(name: string): boolean {
  if (name === LAST_APPLIED_ANNOTATION) return true;
  if (SAFE_ANNOTATIONS.has(name)) return false;
  return CREDENTIAL_NAME.test(name);
}

function redactAnnotations(annotations: Json): Json | undefined {
  const out: Json = {};
  for (const [name, value] of Object.entries(annotations)) {
    if (name === LAST_APPLIED_ANNOTATION) continue;
    out[name] = isCredentialAnnotation(name) ? REDACTED : typeof value === 'string' ? redactText(value) : value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Deep copy with every `annotations` map and every string cleaned. */
function redactValue(value: unknown, key: string | undefined): unknown {
  if (typeof value === 'string') return redactText(value);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, undefined));
  if (!isObject(value)) return value;
  if (key === 'annotations') return redactAnnotations(value);
  const out: Json = {};
  for (const [name, child] of Object.entries(value)) {
    const cleaned = redactValue(child, name);
    if (cleaned !== undefined) out[name] = cleaned;
  }
  return out;
}

/** Kinds whose top-level payload is secret by nature; only their metadata may leave. */
const SECRET_PAYLOAD_FIELDS: Readonly<Record<string, readonly string[]>> = {
  Secret: ['data', 'stringData'],
};

/** A copy of `object` that is safe to hand to someone else. */
export function redactObject<T extends SlimObject>(object: T): T {
  const copy = redactValue(object, undefined) as Json;
  for (const field of SECRET_PAYLOAD_FIELDS[object.kind as string] ?? []) delete copy[field];
  return copy as T;
}
