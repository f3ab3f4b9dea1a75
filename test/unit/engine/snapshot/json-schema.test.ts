import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_SCHEMA_FILE, snapshotJsonSchemaText } from '../../../../electron/engine/snapshot/json-schema.ts';
import { sampleFile } from './sample-file.ts';
import { SNAPSHOT_SCHEMA_VERSION } from '../../../../shared/contracts/snapshot.ts';

describe('resources/snapshot.schema.json', () => {
  it('is the JSON Schema generated from the zod schema (run `node electron/engine/snapshot/json-schema.ts` after changing the format)', () => {
    expect(readFileSync(SNAPSHOT_SCHEMA_FILE, 'utf8')).toBe(snapshotJsonSchemaText());
  });

  it('requires every top-level field a snapshot file has, and no other', () => {
    const schema = JSON.parse(readFileSync(SNAPSHOT_SCHEMA_FILE, 'utf8')) as { required: string[]; additionalProperties: boolean; properties: Record<string, unknown> };
    expect([...schema.required].sort()).toEqual(Object.keys(sampleFile()).sort());
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties['schemaVersion']).toEqual({ type: 'number', const: SNAPSHOT_SCHEMA_VERSION });
  });
});
