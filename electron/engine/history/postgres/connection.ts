/**
 * The shared store's connection string (`postgres://user:password@host:port/database`), checked
 * before anything connects, and PostgreSQL's failures turned into sentences a person can act on
 * (the password is never repeated in them).
 */
import pg from 'pg';

/** How long connecting may take before the store counts as unreachable. */
export const CONNECT_TIMEOUT_MS = 5_000;
/** A statement that runs longer than this is cancelled (a flush's batch is small). */
export const STATEMENT_TIMEOUT_MS = 30_000;
const INT8_OID = 20;

/** A history store location: the embedded SQLite files, or a PostgreSQL database shared by recorders. */
export type StoreLocation = { kind: 'sqlite' } | { kind: 'postgres'; url: string; target: string };

/**
 * Parses the history store setting: empty or `sqlite` is the embedded store; a
 * `postgres://` / `postgresql://` URL the shared one. Throws with the reason otherwise.
 */
export function parseStoreLocation(value: string | undefined | null): StoreLocation {
  const text = (value ?? '').trim();
  if (text === '' || text === 'sqlite') return { kind: 'sqlite' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`The history store must be "sqlite" or a connection string such as postgres://user:password@host:5432/kubedrift, got "${redact(text)}".`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new Error(`The history store's connection string must start with postgres:// or postgresql://, got "${url.protocol}…".`);
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new Error('The history store\'s connection string names no host (postgres://user:password@HOST:5432/database).');
  return { kind: 'postgres', url: text, target: describeTarget(url) };
}

/** `user@host:port/database`, for messages: no password. */
function describeTarget(url: URL): string {
  const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
  const host = url.hostname || url.searchParams.get('host') || 'localhost';
  const database = url.pathname.replace(/^\//, '') || decodeURIComponent(url.username) || 'postgres';
  return `${user}${host}:${url.port || '5432'}/${database}`;
}

function redact(text: string): string {
  return text.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}

/** A pool whose BIGINT columns come back as numbers (every stored integer fits in 2^53). */
export function createPool(url: string, onIdleError: (error: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 10_000,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    application_name: 'kubedrift',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser,
    },
  });
  // A server that goes away while a connection idles: reported by the next sync, not a crash.
  pool.on('error', onIdleError);
  return pool;
}

/** What went wrong talking to the shared store, in words (no credentials). */
export function describeFailure(error: unknown, target: string): string {
  const e = error as { code?: string; message?: string } | null;
  const code = e?.code ?? '';
  const message = e?.message ?? String(error);
  if (code === '28P01' || code === '28000') return `PostgreSQL at ${target} refused the credentials (${message})`;
  if (code === '3D000') return `PostgreSQL at ${target} has no such database (${message})`;
  if (code === '42501') return `the PostgreSQL user at ${target} may not create or write the history tables (${message})`;
  if (code === '57P01' || code === '57P03') return `PostgreSQL at ${target} is shutting down or starting (${message})`;
  if (/ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ETIMEDOUT|EAI_AGAIN|timeout|Connection terminated/i.test(`${code} ${message}`)) return `PostgreSQL at ${target} is unreachable (${message})`;
  return `PostgreSQL at ${target} failed: ${message}`;
}

/**
 * Runs `work` in one transaction on a connection of `pool`: committed when it returns, rolled
 * back when it throws. A connection the server drops between two statements reports it on the
 * client's 'error' event, not as a crash; such a connection, or one that cannot even roll back,
 * is closed rather than handed back to the pool for the next caller.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onError = (error: Error): void => void (broken = error);
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      // A connection that can still roll back is healthy (an SQL error, a refused migration).
      await client.query('ROLLBACK').catch((rollbackError: unknown) => void (broken ??= rollbackError as Error));
      throw error;
    }
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
