/** Where the diff tests' real-world manifests live, and copies of them a test may edit. */
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from '../../../../electron/engine/diff/load/types.ts';

export const MANIFESTS = fileURLToPath(new URL('../../../fixtures/manifests/', import.meta.url));

export const fixture = (...parts: string[]) => path.join(MANIFESTS, ...parts);

/** Copies fixture folders into `dir` (each under its own name) and answers the copies' paths. */
export async function copyFixtures(dir: string, ...names: string[]): Promise<string[]> {
  return Promise.all(
    names.map(async (name) => {
      const target = path.join(dir, name);
      await cp(fixture(name), target, { recursive: true });
      return target;
    }),
  );
}

export async function liveDeployment(): Promise<JsonObject> {
  return JSON.parse(await readFile(fixture('live-objects', 'checkout-deployment.json'), 'utf8')) as JsonObject;
}
