/**
 * The snapshot format as a JSON Schema (resources/snapshot.schema.json), generated from the zod
 * schema that is its source of truth, for people and tools that read snapshots without
 * Kubedrift. `node electron/engine/snapshot/json-schema.ts` rewrites the file; a unit test fails
 * when the committed file and the zod schema drift apart.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SNAPSHOT_SCHEMA_VERSION, SnapshotFileSchema } from '../../../shared/contracts/snapshot.ts';

export const SNAPSHOT_SCHEMA_FILE = fileURLToPath(new URL('../../../resources/snapshot.schema.json', import.meta.url));

export function snapshotJsonSchemaText(): string {
  const schema = z.toJSONSchema(SnapshotFileSchema, { target: 'draft-2020-12' });
  const document = {
    $id: `https://kubedrift.dev/schemas/snapshot-v${SNAPSHOT_SCHEMA_VERSION}.json`,
    title: `Kubedrift snapshot, format version ${SNAPSHOT_SCHEMA_VERSION}`,
    description: 'The content of a .kubedrift.json.gz file (gzip-compressed JSON). Generated from shared/contracts/snapshot.ts.',
    ...schema,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(SNAPSHOT_SCHEMA_FILE, snapshotJsonSchemaText());
  console.log(`wrote ${SNAPSHOT_SCHEMA_FILE}`);
}
