/**
 * Request decoding and object presentation shared by the verb handlers: bodies (JSON, YAML or
 * Kubernetes protobuf) checked against the endpoint's kind, events.k8s.io presented over the
 * stored core Events, dryRun and fieldManager options, selectors.
 */
import { parse as parseYaml } from 'yaml';
import { ApiError, badRequest } from '../errors.ts';
import { apiVersionOf, typeById, type ResourceType } from '../resources.ts';
import { parseFieldSelector, parseLabelSelector, type FieldRequirement, type LabelSelector } from '../selectors.ts';
import type { KubeObject } from '../types.ts';
import type { ApiRequest } from './context.ts';
import { coreToEventsV1, eventsV1FieldToCore, eventsV1ToCore } from './event-conversion.ts';
import { baseMediaType } from './media.ts';
import { decodeKubernetesProtobuf } from './protobuf.ts';

const CORE_EVENTS = typeById('events');
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

function isEventsV1(type: ResourceType): boolean {
  return type.group === 'events.k8s.io';
}

/** The type objects of `type` are stored as (events.k8s.io Events are core Events). */
export function storageType(type: ResourceType): ResourceType {
  return isEventsV1(type) && CORE_EVENTS ? CORE_EVENTS : type;
}

/** A stored object as clients of `type` see it, with apiVersion and kind set. */
export function toWire(type: ResourceType, stored: KubeObject): KubeObject {
  if (isEventsV1(type)) return coreToEventsV1(stored);
  const apiVersion = apiVersionOf(type);
  if (stored.apiVersion === apiVersion && stored.kind === type.kind) return stored;
  return { ...stored, apiVersion, kind: type.kind };
}

/** A client's object of `type` in the form it is stored. */
export function fromWire(type: ResourceType, object: KubeObject): KubeObject {
  return isEventsV1(type) ? eventsV1ToCore(object) : object;
}

function summarize(body: string): string {
  return body.length <= 30 ? body : `${body.slice(0, 30)}...`;
}

function decodeBody(req: ApiRequest, expectedKind: string): unknown {
  const mediaType = baseMediaType(req.headers['content-type']) || 'application/json';
  if (mediaType === PROTOBUF) return decodeKubernetesProtobuf(req.rawBody);
  if (mediaType !== 'application/json' && mediaType !== 'application/yaml') {
    throw new ApiError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, ${PROTOBUF} (got ${mediaType})`, {});
  }
  try {
    return mediaType === 'application/yaml' ? parseYaml(req.body) : JSON.parse(req.body);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw badRequest(`the object provided is unrecognized (must be of type ${expectedKind}): couldn't get version/kind; json parse error: ${reason} (${summarize(req.body)})`);
  }
}

/**
 * The request body as an object of `type`: missing apiVersion/kind are filled in (as the
 * apiserver's decoder defaults them); a different group version or kind is a 400.
 */
export function parseObjectBody(req: ApiRequest, type: ResourceType): KubeObject {
  const expected = { apiVersion: apiVersionOf(type), kind: type.kind };
  const value = decodeBody(req, expected.kind);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw badRequest(`the object provided is unrecognized (must be of type ${expected.kind}): couldn't get version/kind; json parse error: expected an object (${summarize(req.body)})`);
  }
  const object = value as Record<string, unknown>;
  const apiVersion = typeof object['apiVersion'] === 'string' && object['apiVersion'] !== '' ? object['apiVersion'] : expected.apiVersion;
  const kind = typeof object['kind'] === 'string' && object['kind'] !== '' ? object['kind'] : expected.kind;
  if (apiVersion !== expected.apiVersion) {
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${expected.apiVersion})`);
  }
  if (kind !== expected.kind) {
    const version = apiVersion.includes('/') ? apiVersion.split('/')[1] : apiVersion;
    throw badRequest(`${kind} in version "${version ?? ''}" cannot be handled as a ${expected.kind}: no kind "${kind}" is registered for the endpoint`);
  }
  const metadata = object['metadata'];
  if (metadata !== undefined && (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata))) {
    throw badRequest(`the object provided is unrecognized (must be of type ${expected.kind}): metadata must be an object (${summarize(req.body)})`);
  }
  return { ...object, apiVersion, kind, metadata: { ...((metadata as Record<string, unknown> | undefined) ?? {}) } } as KubeObject;
}

/** `dryRun=All` → true; other values are rejected like the apiserver's option validation. */
export function dryRunOf(req: ApiRequest, optionsKind: string): boolean {
  const values = req.query.getAll('dryRun');
  if (values.length === 0) return false;
  if (values.every((v) => v === 'All')) return true;
  throw new ApiError(422, 'Invalid', `${optionsKind}.meta.k8s.io "" is invalid: dryRun: Unsupported value: ${JSON.stringify(values)}: supported values: "All"`, {
    group: 'meta.k8s.io',
    kind: optionsKind,
    causes: [{ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(values)}: supported values: "All"`, field: 'dryRun' }],
  });
}

/** The fieldManager parameter, or the user agent's product as kube-apiserver derives it. */
export function fieldManagerOf(req: ApiRequest): string {
  const manager = req.query.get('fieldManager');
  if (manager) return manager;
  const agent = req.headers['user-agent'] ?? '';
  return agent.split('/')[0]?.slice(0, 128) || 'unknown';
}

/** A boolean query parameter as the apiserver parses it (`true` or `1`). */
export function boolParam(req: ApiRequest, name: string): boolean {
  const value = req.query.get(name);
  return value === 'true' || value === '1';
}

/** Parsed label and field selectors. */
export interface Selectors {
  labelSelector: LabelSelector;
  fieldSelector: FieldRequirement[];
}

/** The request's selectors; events.k8s.io field names are mapped onto the stored core fields. */
export function selectorsOf(req: ApiRequest, type: ResourceType): Selectors {
  // A custom kind supports only metadata.name and metadata.namespace, whatever its kind is called.
  const fieldSelector = parseFieldSelector(req.query.get('fieldSelector'), type.custom ? '' : type.kind);
  return {
    labelSelector: parseLabelSelector(req.query.get('labelSelector')),
    fieldSelector: isEventsV1(type) ? fieldSelector.map((r) => ({ ...r, field: eventsV1FieldToCore(r.field) })) : fieldSelector,
  };
}
