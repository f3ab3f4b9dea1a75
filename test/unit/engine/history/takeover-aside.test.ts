/**
 * The journal a takeover replaces is kept beside it (postgres/takeover.ts `swapInSeed`), but only
 * the latest one: retention never looks at these copies, so a recorder taken over again and again
 * on one volume must not pile them up.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { swapInSeed } from '../../../../electron/engine/history/postgres/takeover.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('swapInSeed', () => {
  it('puts the seed in place, keeps the journal it replaces and its side files, and drops an older kept copy', async () => {
    const temp = await withTempDir();
    cleanups.push(temp.cleanup);
    const file = path.join(temp.dir, 'prod.sqlite');
    const other = path.join(temp.dir, 'staging.sqlite.before-takeover-1');
    writeFileSync(other, 'another context');
    writeFileSync(file, 'journal 1');
    writeFileSync(`${file}-wal`, 'wal 1');
    writeFileSync(`${file}.takeover`, 'seed 1');
    const first = swapInSeed(file, `${file}.takeover`, 1_000);
    expect(readFileSync(file, 'utf8')).toBe('seed 1');
    expect(readFileSync(first, 'utf8')).toBe('journal 1');
    expect(readFileSync(`${first}-wal`, 'utf8')).toBe('wal 1');

    writeFileSync(`${file}.takeover`, 'seed 2');
    const second = swapInSeed(file, `${file}.takeover`, 2_000);
    expect(readFileSync(file, 'utf8')).toBe('seed 2');
    expect(readFileSync(second, 'utf8')).toBe('seed 1');
    expect(existsSync(first)).toBe(false);
    expect(existsSync(`${first}-wal`)).toBe(false);
    // Another context's copy is not this journal's to remove.
    expect(existsSync(other)).toBe(true);
    expect(readdirSync(temp.dir).sort()).toEqual(['prod.sqlite', 'prod.sqlite.before-takeover-2000', 'staging.sqlite.before-takeover-1']);
  });
});
