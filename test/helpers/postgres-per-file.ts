/**
 * A real PostgreSQL server for the calling test file: started before its first test, removed
 * after its last, and a new empty database for each test that asks (so tests never see each
 * other's rows). The server itself is test/helpers/postgres.ts.
 */
import { afterAll, beforeAll } from 'vitest';
import { createDatabase, startTestPostgres, type TestPostgres } from './postgres.ts';

/** Start-up allowance of initdb plus postgres on a loaded machine. */
const START_TIMEOUT_MS = 60_000;

export interface PostgresForFile {
  /** The running server (throws before `beforeAll` has started it). */
  server(): TestPostgres;
  /** A new, empty database on the file's server; its connection string. */
  freshDatabase(): Promise<string>;
}

/** Registers the file's server; `prefix` names its databases (`<prefix>_<pid>_<n>`). */
export function postgresForFile(prefix: string): PostgresForFile {
  let server: TestPostgres | undefined;
  let next = 0;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await server?.dispose();
  });
  const running = (): TestPostgres => {
    if (!server) throw new Error('the test PostgreSQL server is not running');
    return server;
  };
  return {
    server: running,
    freshDatabase: () => createDatabase(running(), `${prefix}_${process.pid}_${(next += 1)}`),
  };
}
