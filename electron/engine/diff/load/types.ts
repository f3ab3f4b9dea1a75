/** What loading manifests produces: objects with where they came from, bad documents, notices. */
import type { DiffNotice, DiffSource } from '../../../../shared/contracts/diff.ts';

export type JsonObject = Record<string, unknown>;

/** One Kubernetes object read from a file (or a kustomization's rendered output). */
export interface Manifest {
  object: JsonObject;
  source: DiffSource;
}

/** A document that is not a usable object, with as much identity as it has. */
export interface BadDocument {
  source: DiffSource;
  message: string;
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  name?: string;
}

export interface LoadResult {
  manifests: Manifest[];
  errors: BadDocument[];
  notices: DiffNotice[];
  /** Manifest files read (a kustomization counts as one). */
  files: number;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
