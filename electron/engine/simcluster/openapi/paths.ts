/**
 * The swagger 2.0 path items for every served resource: collection, object, /status, /scale
 * and the deprecated /watch paths, with kube-apiserver's operation ids, actions and GVKs.
 */
import { customDefinitionName } from '../crd/openapi.ts';
import { type ResourceType } from '../resources.ts';
import { definitionNameFor } from './definitions.ts';
import {
  DELETE_COLLECTION_PARAMETERS,
  DELETE_OPTIONS,
  DELETE_PARAMETERS,
  LIST_PARAMETERS,
  PATCH_BODY,
  PATCH_PARAMETERS,
  PRETTY,
  STATUS,
  WATCH_EVENT,
  WRITE_PARAMETERS,
  body,
  pathParameter,
  type Parameter,
} from './parameters.ts';
import { ref, type GroupVersionKind, type Schema } from './schema.ts';

export type KubernetesAction = 'get' | 'list' | 'watch' | 'watchlist' | 'post' | 'put' | 'patch' | 'delete' | 'deletecollection';

export interface Response {
  description: string;
  schema?: Schema;
}

export interface Operation {
  description: string;
  consumes: string[];
  produces: string[];
  schemes: string[];
  tags: string[];
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, Response>;
  'x-kubernetes-action': KubernetesAction;
  'x-kubernetes-group-version-kind': GroupVersionKind;
}

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

export type PathItem = Partial<Record<Method, Operation>> & { parameters?: Parameter[] };

/** The patch content types kube-apiserver accepts; kubectl picks one per command. */
export const PATCH_CONTENT_TYPES = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];
/** Custom resources take no strategic merge patch (they have no Go struct tags to merge by). */
const CUSTOM_PATCH_CONTENT_TYPES = PATCH_CONTENT_TYPES.filter((t) => t !== 'application/strategic-merge-patch+json');
const PRODUCES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];
const PRODUCES_STREAM = [...PRODUCES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];
const UNAUTHORIZED: Record<string, Response> = { '401': { description: 'Unauthorized' } };

/** `/api/v1` or `/apis/<group>/<version>`. */
export function groupVersionPrefix(group: string, version: string): string {
  return group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
}

/** `Core`, `Apps`, `Events` (events.k8s.io)... + `V1`: the operation id infix. */
function operationInfix(type: ResourceType): string {
  const group = type.group === '' ? 'core' : type.group.replace(/\.k8s\.io$/, '');
  // `cert-manager.io` → `CertManagerIo`, as the OpenAPI builder camel-cases a CRD's group.
  const camel = group
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return camel + type.version.charAt(0).toUpperCase() + type.version.slice(1);
}

function tag(type: ResourceType): string {
  const group = type.group === '' ? 'core' : type.group.replace(/\.k8s\.io$/, '').replace(/\./g, '_');
  return `${group}_${type.version}`;
}

interface OperationSpec {
  verb: string;
  action: KubernetesAction;
  description: string;
  id: string;
  responses: Record<string, Schema | undefined>;
  parameters?: Parameter[];
  gvk?: GroupVersionKind;
  consumes?: string[];
  stream?: boolean;
}

function operation(type: ResourceType, spec: OperationSpec): Operation {
  const responses: Record<string, Response> = {};
  for (const [code, schema] of Object.entries(spec.responses)) {
    const description = code === '200' ? 'OK' : code === '201' ? 'Created' : 'Accepted';
    responses[code] = schema ? { description, schema } : { description };
  }
  const op: Operation = {
    description: spec.description,
    consumes: spec.consumes ?? ['*/*'],
    produces: spec.stream ? PRODUCES_STREAM : PRODUCES,
    schemes: ['https'],
    tags: [tag(type)],
    operationId: spec.id,
    responses: { ...responses, ...UNAUTHORIZED },
    'x-kubernetes-action': spec.action,
    'x-kubernetes-group-version-kind': spec.gvk ?? { group: type.group, kind: type.kind, version: type.version },
  };
  if (spec.parameters && spec.parameters.length > 0) op.parameters = spec.parameters;
  return op;
}

/** Adds the operations whose verb the type serves; an item with none is left out. */
function item(type: ResourceType, parameters: Parameter[], ops: Partial<Record<Method, OperationSpec>>): PathItem | undefined {
  const out: PathItem = {};
  let any = false;
  for (const [method, spec] of Object.entries(ops) as Array<[Method, OperationSpec]>) {
    if (!type.verbs.includes(spec.verb)) continue;
    out[method] = operation(type, spec);
    any = true;
  }
  if (!any) return undefined;
  out.parameters = parameters;
  return out;
}

/** Every path item for one served resource type, keyed by path. */
export function resourcePaths(type: ResourceType): Record<string, PathItem> {
  const { kind, plural, namespaced } = type;
  const selfName = type.custom ? customDefinitionName(type, kind) : definitionNameFor(type.group, type.version, kind);
  const self = ref(selfName);
  const list = ref(type.custom ? customDefinitionName(type, type.custom.listKind) : definitionNameFor(type.group, type.version, `${kind}List`));
  const patchTypes = type.custom ? CUSTOM_PATCH_CONTENT_TYPES : PATCH_CONTENT_TYPES;
  const status = ref(STATUS);
  const infix = operationInfix(type);
  const scope = namespaced ? 'Namespaced' : '';
  const prefix = groupVersionPrefix(type.group, type.version);
  const base = namespaced ? `${prefix}/namespaces/{namespace}/${plural}` : `${prefix}/${plural}`;
  const watchBase = namespaced ? `${prefix}/watch/namespaces/{namespace}/${plural}` : `${prefix}/watch/${plural}`;
  const ns = namespaced ? [pathParameter('namespace', kind)] : [];
  const named = [pathParameter('name', kind), ...ns];
  const listParams = [...LIST_PARAMETERS];
  const paths: Record<string, PathItem | undefined> = {};

  paths[base] = item(type, [...ns, PRETTY], {
    get: { verb: 'list', action: 'list', description: `list or watch objects of kind ${kind}`, id: `list${infix}${scope}${kind}`, responses: { '200': list }, parameters: listParams, stream: true },
    post: { verb: 'create', action: 'post', description: `create ${article(kind)} ${kind}`, id: `create${infix}${scope}${kind}`, responses: { '200': self, '201': self, '202': self }, parameters: [body(selfName), ...WRITE_PARAMETERS] },
    delete: {
      verb: 'deletecollection',
      action: 'deletecollection',
      description: `delete collection of ${kind}`,
      id: `delete${infix}Collection${scope}${kind}`,
      responses: { '200': status },
      parameters: [body(DELETE_OPTIONS), ...DELETE_COLLECTION_PARAMETERS],
    },
  });
  paths[`${base}/{name}`] = item(type, [...named, PRETTY], {
    get: { verb: 'get', action: 'get', description: `read the specified ${kind}`, id: `read${infix}${scope}${kind}`, responses: { '200': self } },
    put: { verb: 'update', action: 'put', description: `replace the specified ${kind}`, id: `replace${infix}${scope}${kind}`, responses: { '200': self, '201': self }, parameters: [body(selfName), ...WRITE_PARAMETERS] },
    patch: {
      verb: 'patch',
      action: 'patch',
      description: `partially update the specified ${kind}`,
      id: `patch${infix}${scope}${kind}`,
      responses: { '200': self, '201': self },
      parameters: [body(PATCH_BODY), ...PATCH_PARAMETERS],
      consumes: patchTypes,
    },
    delete: {
      verb: 'delete',
      action: 'delete',
      description: `delete ${article(kind)} ${kind}`,
      id: `delete${infix}${scope}${kind}`,
      responses: { '200': status, '202': status },
      parameters: [body(DELETE_OPTIONS), ...DELETE_PARAMETERS],
    },
  });
  for (const sub of type.subresources) {
    const targetName = sub === 'scale' ? definitionNameFor('autoscaling', 'v1', 'Scale') : selfName;
    const target = ref(targetName);
    const gvk = sub === 'scale' ? { group: 'autoscaling', kind: 'Scale', version: 'v1' } : undefined;
    const suffix = sub === 'scale' ? 'Scale' : 'Status';
    paths[`${base}/{name}/${sub}`] = item(type, [pathParameter('name', sub === 'scale' ? 'Scale' : kind), ...ns, PRETTY], {
      get: { verb: 'get', action: 'get', description: `read ${sub} of the specified ${kind}`, id: `read${infix}${scope}${kind}${suffix}`, responses: { '200': target }, ...(gvk ? { gvk } : {}) },
      put: {
        verb: 'update',
        action: 'put',
        description: `replace ${sub} of the specified ${kind}`,
        id: `replace${infix}${scope}${kind}${suffix}`,
        responses: { '200': target, '201': target },
        parameters: [body(targetName), ...WRITE_PARAMETERS],
        ...(gvk ? { gvk } : {}),
      },
      patch: {
        verb: 'patch',
        action: 'patch',
        description: `partially update ${sub} of the specified ${kind}`,
        id: `patch${infix}${scope}${kind}${suffix}`,
        responses: { '200': target, '201': target },
        parameters: [body(PATCH_BODY), ...PATCH_PARAMETERS],
        consumes: patchTypes,
        ...(gvk ? { gvk } : {}),
      },
    });
  }
  if (namespaced) {
    paths[`${prefix}/${plural}`] = item(type, [...listParams, PRETTY], {
      get: { verb: 'list', action: 'list', description: `list or watch objects of kind ${kind}`, id: `list${infix}${kind}ForAllNamespaces`, responses: { '200': list }, stream: true },
    });
    paths[`${prefix}/watch/${plural}`] = item(type, [...listParams, PRETTY], {
      get: watchList(kind, `watch${infix}${kind}ListForAllNamespaces`),
    });
  }
  paths[watchBase] = item(type, [...listParams, ...ns, PRETTY], { get: watchList(kind, `watch${infix}${scope}${kind}List`) });
  paths[`${watchBase}/{name}`] = item(type, [...listParams, ...named, PRETTY], {
    get: {
      verb: 'watch',
      action: 'watch',
      description: `watch changes to an object of kind ${kind}. deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with the 'fieldSelector' parameter.`,
      id: `watch${infix}${scope}${kind}`,
      responses: { '200': ref(WATCH_EVENT) },
      stream: true,
    },
  });
  return Object.fromEntries(Object.entries(paths).filter((entry): entry is [string, PathItem] => entry[1] !== undefined));
}

function watchList(kind: string, id: string): OperationSpec {
  return {
    verb: 'watch',
    action: 'watchlist',
    description: `watch individual changes to a list of ${kind}. deprecated: use the 'watch' parameter with a list operation instead.`,
    id,
    responses: { '200': ref(WATCH_EVENT) },
    stream: true,
  };
}

function article(kind: string): string {
  return /^[AEIOU]/.test(kind) ? 'an' : 'a';
}

