/**
 * `kubedrift record --takeover-after S`: how long a shared store's silent writer keeps its context
 * before a recorder of another history file takes it over. Whole seconds from 5 to 3600, in ms
 * for the store; anything else is refused with a message naming the flag and what was typed.
 */
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../electron/cli/args.ts';
import { parseTakeoverAfter, RECORD_HELP } from '../../../electron/cli/record.ts';
import { runCli } from '../../helpers/cli.ts';

const REFUSAL = (typed: string) => `--takeover-after must be a whole number of seconds from 5 to 3600, got "${typed}"`;

describe('--takeover-after', () => {
  it('turns whole seconds from 5 to 3600 into the store’s time-to-live in ms, and keeps the default when absent', () => {
    expect(parseTakeoverAfter(undefined)).toBeUndefined();
    expect(parseTakeoverAfter('5')).toBe(5_000);
    expect(parseTakeoverAfter('30')).toBe(30_000);
    expect(parseTakeoverAfter(' 90 ')).toBe(90_000);
    expect(parseTakeoverAfter('3600')).toBe(3_600_000);
  });

  it.each(['4', '0', '3601', '-5', '2.5', '10s', '', 'soon', '1e3', '99999999999999999999'])('refuses "%s" with a message saying what it accepts', (typed) => {
    expect(() => parseTakeoverAfter(typed)).toThrow(UsageError);
    expect(() => parseTakeoverAfter(typed)).toThrow(REFUSAL(typed));
  });

  it('is documented in the help text with its range, default and the renew traffic a short time costs', () => {
    expect(RECORD_HELP).toContain('--takeover-after S');
    expect(RECORD_HELP).toMatch(/seconds \(5 to 3600, default 30\)/);
    expect(RECORD_HELP).toMatch(/renewed every S\/3 seconds, so a small S\s+means a faster takeover but more traffic/);
  });

  it('stops the command at once on a bad value, and without a shared store to take over in', async () => {
    const bad = await runCli(['record', '--context', 'prod', '--store', 'postgres://k@127.0.0.1:1/h', '--takeover-after', '2']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(REFUSAL('2'));
    const alone = await runCli(['record', '--context', 'prod', '--takeover-after', '10'], { KUBEDRIFT_HISTORY_STORE: '' });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--takeover-after goes with a shared store: --store postgres://… (or $KUBEDRIFT_HISTORY_STORE)');
  });
});
