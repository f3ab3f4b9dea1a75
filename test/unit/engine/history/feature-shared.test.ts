/**
 * The history feature with the history store setting: a postgres:// connection string has the
 * selected context recorded into the shared database and the `history:*` handlers answer from
 * it; changing the setting while running switches the store; a string that is not a store is
 * refused by the settings schema, and one without a host is reported in the status.
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SettingsUpdateSchema } from '../../../../shared/contracts/settings.ts';
import { postgresForFile } from '../../../helpers/postgres-per-file.ts';
import { until } from '../../../helpers/until.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';
import { historyFeaturePerTest } from './feature-env.ts';
import { deployment } from './fixtures.ts';

const postgres = postgresForFile('feature');
const start = historyFeaturePerTest();
const setup = (historyStore: string | undefined) => start(historyStore === undefined ? {} : { historyStore });

async function sharedWorkloads(context: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: postgres.server().url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>('SELECT name FROM kd_workloads WHERE context = $1 ORDER BY name', [context]).catch(() => ({ rows: [] as Array<{ name: string }> }));
    return rows.map((row) => row.name);
  } finally {
    await client.end();
  }
}

describe('the history store setting', () => {
  it('records the selected context into PostgreSQL and answers the timeline from it', async () => {
    const env = await setup(postgres.server().url);
    env.switchTo('prod');
    upsertBuiltin(env.cache, deployment('web', 'w', { ready: 0 }));
    await until(async () => ((await sharedWorkloads('prod')).includes('web') ? true : undefined), 'the workload in PostgreSQL');
    const answer = await until(async () => {
      const result = await env.feature.handlers['history:episodes']({ from: 0, to: Date.now() + 60_000 });
      return result.ok && result.value.episodes.length > 0 ? result.value : undefined;
    }, 'the episode in the timeline');
    expect(answer.episodes.map((e) => e.workload.name)).toEqual(['web']);
    expect(env.statuses.at(-1)).toMatchObject({ context: 'prod', state: 'recording' });
    expect(env.statuses.at(-1)?.message).toBeUndefined();
  });

  it('switches to the shared store when the setting changes while recording', async () => {
    const env = await setup(undefined);
    env.switchTo('staging');
    upsertBuiltin(env.cache, deployment('api', 'a'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await sharedWorkloads('staging')).toEqual([]);
    const next = await env.settings.update({ historyStore: postgres.server().url });
    env.hub.emit('settings:changed', next);
    // What was recorded before the switch is copied too: the journal's rows are all queued.
    await until(async () => ((await sharedWorkloads('staging')).includes('api') ? true : undefined), 'the earlier recording in PostgreSQL');
  });

  it('refuses a store that is not one in the settings, and reports a connection string without a host', async () => {
    const refused = SettingsUpdateSchema.safeParse({ historyStore: 'mysql://root@db/history' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('the history store must be "sqlite" or a connection string such as postgres://user@host:5432/kubedrift');
    const env = await setup('postgres:///history');
    env.switchTo('prod');
    const status = await until(() => env.statuses.find((s) => s.context === 'prod' && s.state === 'error'), 'the error status');
    expect(status.message).toBe("History cannot be opened (The history store's connection string names no host (postgres://user:password@HOST:5432/database).); the live view keeps working and opening is retried.");
  });
});
