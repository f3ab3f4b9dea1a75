/**
 * `npm run bench`: measures the simulated cluster and prints ONE JSON object on stdout,
 * `{ machine, config, results, goals }`; progress notes go to stderr.
 *
 *   node test/bench/run.ts [--json] [--quick] [--only NAME[,NAME...]] [--skip NAME[,NAME...]]
 *
 * `--json` is accepted for scripts that ask for it (JSON is the only output). `--quick` runs
 * small sizes in a few seconds: a smoke test of the harness whose numbers mean little.
 * `--only` picks scenarios by scenario name (`sim-list`) or result name (`sim_list_50k_pods_ms`);
 * `--skip` leaves scenarios out the same way.
 * The heap measurement needs `global.gc`, so without `--expose-gc` this re-runs itself with it
 * (before loading anything else, so the first process stays cheap).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Set in the re-spawned child, so a node that ignores --expose-gc cannot loop forever. */
const RESPAWNED_ENV = 'KUBEDRIFT_BENCH_RESPAWNED';

if (typeof (globalThis as { gc?: unknown }).gc === 'function') {
  const { runBench } = await import('./runner.ts');
  process.exitCode = await runBench(process.argv.slice(2));
} else if (process.env[RESPAWNED_ENV]) {
  throw new Error('global.gc is still missing after re-running with --expose-gc');
} else {
  const child = spawn(process.execPath, ['--expose-gc', ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, [RESPAWNED_ENV]: '1' },
  });
  child.on('exit', (code, signal) => {
    process.exitCode = code ?? (signal ? 1 : 0);
  });
}
