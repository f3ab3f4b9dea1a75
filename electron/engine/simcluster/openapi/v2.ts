/** The OpenAPI v2 (swagger 2.0) document kube-apiserver serves at /openapi/v2. */
import { RESOURCE_TYPES } from '../resources.ts';
import { definitions } from './definitions.ts';
import { resourcePaths, type PathItem } from './paths.ts';
import type { Schema } from './schema.ts';
import { SIM_KUBERNETES_VERSION } from './version.ts';

export interface SwaggerDocument {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, PathItem>;
  definitions: Record<string, Schema>;
}

export interface OpenApiOptions {
  /** The `gitVersion` the server reports, e.g. `v1.32.4`; defaults to SIM_KUBERNETES_VERSION. */
  version?: string;
}

/** Every resource path of every served kind, sorted as kube-apiserver sorts them. */
export function allPaths(): Record<string, PathItem> {
  const paths: Record<string, PathItem> = {};
  for (const type of RESOURCE_TYPES) Object.assign(paths, resourcePaths(type));
  return Object.fromEntries(Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The whole swagger 2.0 document: every served resource path with its operations, and every
 * definition. A fresh object on each call; callers that serve it should memoise (see index.ts).
 */
export function openapiV2Document(options: OpenApiOptions = {}): SwaggerDocument {
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: options.version ?? SIM_KUBERNETES_VERSION },
    paths: allPaths(),
    definitions: definitions(),
  };
}
