/**
 * Kubernetes `Status` failures. Store and handlers throw ApiError; the HTTP layer writes its
 * `status` body with the matching code, exactly as kube-apiserver does.
 */

export interface StatusCause {
  reason?: string;
  message: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Failure' | 'Success';
  message: string;
  reason: string;
  details?: StatusDetails;
  code: number;
}

export class ApiError extends Error {
  readonly code: number;
  readonly reason: string;
  readonly details: StatusDetails | undefined;

  constructor(code: number, reason: string, message: string, details?: StatusDetails) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.reason = reason;
    this.details = details;
  }

  toStatus(): Status {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: this.message, reason: this.reason, code: this.code };
    if (this.details) status.details = this.details;
    return status;
  }
}

/** `deployments.apps "web"` — how kube-apiserver names an object in messages. */
function qualified(resource: string, group: string): string {
  return group ? `${resource}.${group}` : resource;
}

export const notFound = (resource: string, group: string, name: string) =>
  new ApiError(404, 'NotFound', `${qualified(resource, group)} "${name}" not found`, { name, group, kind: resource });

export const alreadyExists = (resource: string, group: string, name: string) =>
  new ApiError(409, 'AlreadyExists', `${qualified(resource, group)} "${name}" already exists`, { name, group, kind: resource });

export const conflict = (resource: string, group: string, name: string, why: string) =>
  new ApiError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(resource, group)} "${name}": ${why}`, { name, group, kind: resource });

/** Go's aggregate error prints one cause bare and several in brackets. */
function describeCauses(causes: StatusCause[]): string {
  const parts = causes.map((c) => `${c.field ? `${c.field}: ` : ''}${c.message}`);
  return parts.length === 1 ? (parts[0] ?? '') : `[${parts.join(', ')}]`;
}

export const invalid = (kind: string, group: string, name: string, causes: StatusCause[]) =>
  new ApiError(
    422,
    'Invalid',
    `${kind}${group ? `.${group}` : ''} "${name}" is invalid: ${describeCauses(causes)}`,
    { name, group, kind, causes: causes.map((c) => ({ reason: c.reason ?? 'FieldValueInvalid', message: c.message, ...(c.field ? { field: c.field } : {}) })) },
  );

export const badRequest = (message: string) => new ApiError(400, 'BadRequest', message);

export const gone = (message: string) => new ApiError(410, 'Expired', message);

export const forbidden = (message: string) => new ApiError(403, 'Forbidden', message);

export const unauthorized = () => new ApiError(401, 'Unauthorized', 'Unauthorized');

export const methodNotAllowed = (message: string) => new ApiError(405, 'MethodNotAllowed', message);

export const unsupportedMediaType = (type: string) => new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json (got ${type})`);

/** What a custom resource answers a strategic merge patch with: it has no Go struct tags to merge by. */
export const unsupportedCustomResourcePatch = (type: string) => new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got ${type})`);

export const tooManyRequests = (retryAfterSeconds: number) =>
  new ApiError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds });

/** storage.NewTooLargeResourceVersionError: a 504 Timeout (NewTimeoutError prefixes "Timeout: ") with its cause. */
export const tooLargeResourceVersion = (requested: number, current: number) =>
  new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });

export const internalError = (message: string) => new ApiError(500, 'InternalError', `Internal error occurred: ${message}`);
