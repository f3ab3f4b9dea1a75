/**
 * The takeover time setting (historyTakeoverSeconds) reaches the store the history feature opens
 * for the selected context: a writer of another history file silent 8 s is taken over with the
 * setting at 5 s, and still refused with the default 30 s. On a real PostgreSQL server.
 */
import { hostname } from 'node:os';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { until } from '../../../helpers/until.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { historyFeaturePerTest } from './feature-env.ts';
import { deployment } from './fixtures.ts';

const postgres = postgresForFile('feature_takeover');
const ME = `Kubedrift on ${hostname()} (pid ${process.pid})`;
const start = historyFeaturePerTest();

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params).catch(() => ({ rows: [] as T[] }))).rows;
  } finally {
    await client.end();
  }
}

/** Records `prod` into `url` with the given takeover setting; resolves once the store holds the claim. */
async function recording(url: string, historyTakeoverSeconds: number | undefined) {
  const env = await start({ historyStore: url, ...(historyTakeoverSeconds === undefined ? {} : { historyTakeoverSeconds }) });
  env.switchTo('prod');
  upsertBuiltin(env.cache, deployment('web', 'w', { ready: 0 }));
  await until(async () => ((await query<{ label: string }>(url, 'SELECT label FROM kd_writers WHERE context = $1', ['prod']))[0]?.label === ME ? true : undefined), 'the claim');
  return env.statuses;
}

/** Another history file's recorder holds `prod`'s claim, silent `seconds` on the database's clock. */
async function silentWriter(url: string, seconds: number): Promise<void> {
  await query(url, `UPDATE kd_writers SET writer = 'laptop', lineage = 'laptop-file', label = 'Kubedrift on laptop (pid 7)', released = false, heartbeat_at = clock_timestamp() - interval '${seconds} seconds' WHERE context = 'prod'`);
}

const holder = async (url: string) => (await query<{ label: string }>(url, 'SELECT label FROM kd_writers WHERE context = $1', ['prod']))[0]?.label;

describe('the takeover time setting', () => {
  it('takes over a writer silent longer than the configured 5 s', async () => {
    const url = await postgres.freshDatabase();
    await recording(url, 5);
    await silentWriter(url, 8);
    await until(async () => ((await holder(url)) === ME ? true : undefined), 'the takeover', { timeoutMs: 15_000 });
  });

  it('refuses the same writer with the default 30 s, naming it', async () => {
    const url = await postgres.freshDatabase();
    const statuses = await recording(url, undefined);
    await silentWriter(url, 8);
    const refused = await until(() => statuses.find((s) => s.message?.includes('already has a recorder for prod')), 'the refusal');
    expect(refused.message).toContain('Kubedrift on laptop (pid 7) is writing it');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await holder(url)).toBe('Kubedrift on laptop (pid 7)');
  });
});
