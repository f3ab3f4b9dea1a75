import { describe, expect, it } from 'vitest';
import { smokeLine, smokeTimeoutMs, waitForOverviewLive, type WaitForOverviewOptions } from '../../../shared/smoke.ts';

/** A clock that moves only when the wait sleeps, and a probe that answers from a script. */
function scripted(answers: Array<unknown | Error>, options: Partial<WaitForOverviewOptions> = {}) {
  let clock = 1_000;
  const slept: number[] = [];
  let probes = 0;
  const wait = waitForOverviewLive({
    probe: async () => {
      const answer = answers[Math.min(probes++, answers.length - 1)];
      if (answer instanceof Error) throw answer;
      return answer;
    },
    now: () => clock,
    sleep: async (ms) => {
      slept.push(ms);
      clock += ms;
    },
    startedAt: 0,
    timeoutMs: 2_000,
    intervalMs: 100,
    ...options,
  });
  return { wait, slept, probes: () => probes };
}

const LIVE = { context: 'kubedrift-demo', workloads: 18 };

describe('waiting for the Overview', () => {
  it('asks until the page reports the Overview live, and times it from the start', async () => {
    const { wait, slept } = scripted([null, null, LIVE]);
    await expect(wait).resolves.toEqual({ ok: true, live: LIVE, elapsedMs: 1_200 });
    expect(slept).toEqual([100, 100]);
  });

  it('asks again when the page cannot be asked yet (still loading)', async () => {
    const { wait } = scripted([new Error('Execution context was destroyed, most likely because of a navigation'), LIVE]);
    await expect(wait).resolves.toMatchObject({ ok: true, live: LIVE });
  });

  it('gives up after the timeout, with the last error in the reason', async () => {
    const { wait } = scripted([new Error('Target page, context or browser has been closed\nCall log: ...')]);
    await expect(wait).resolves.toEqual({
      ok: false,
      reason: 'the Overview did not go live within 2000 ms (last error: Target page, context or browser has been closed)',
      elapsedMs: 2_000,
    });
  });

  it('gives up after the timeout when the page never reports it', async () => {
    const { wait, probes } = scripted([null]);
    await expect(wait).resolves.toEqual({ ok: false, reason: 'the Overview did not go live within 2000 ms', elapsedMs: 2_000 });
    expect(probes()).toBe(11);
  });

  it('stops at once on a failure the shell reports (the page crashed)', async () => {
    const { wait, probes } = scripted([null], { failure: () => 'the page crashed' });
    await expect(wait).resolves.toMatchObject({ ok: false, reason: 'the page crashed' });
    expect(probes()).toBe(0);
  });

  it('fails when the Overview went live on another context than the demo cluster', async () => {
    const { wait } = scripted([{ context: 'prod-us', workloads: 3 }], { expectedContext: 'kubedrift-demo' });
    await expect(wait).resolves.toMatchObject({ ok: false, reason: 'the Overview went live on "prod-us", not on kubedrift-demo' });
  });
});

describe('the smoke line', () => {
  it('says where the Overview went live, with how many workloads, and how long it took', () => {
    expect(smokeLine({ ok: true, live: { context: 'kubedrift-demo', workloads: 1234 }, elapsedMs: 4_567.4 })).toBe(
      'kubedrift smoke-test: overview live on kubedrift-demo (1,234 workloads) in 4567 ms',
    );
  });

  it('says why it failed', () => {
    expect(smokeLine({ ok: false, reason: 'the page crashed', elapsedMs: 12 })).toBe('kubedrift smoke-test: failed after 12 ms: the page crashed');
  });
});

describe('--smoke-timeout', () => {
  it.each([
    ['60', 60_000],
    ['0.5', 500],
  ])('reads %s seconds as %d ms', (text, ms) => expect(smokeTimeoutMs(text)).toBe(ms));

  it.each(['0', '-1', 'abc', '', '1e3', '10s'])('refuses %j', (text) => expect(smokeTimeoutMs(text)).toBeUndefined());
});
