/**
 * `npm test`'s static checks: `npm run typecheck` and `npm run lint` side by side. Each is one
 * single-threaded process (tsc/vue-tsc, ESLint), so on a 2-core CI machine running them together
 * takes about as long as the slower one instead of both in turn. Each one's output is printed
 * whole when it ends (never interleaved); the exit code is the first failure's, else 0.
 *
 *   node electron/tools/checks.ts
 */
import { spawn } from 'node:child_process';

/** The npm scripts run side by side. */
const SCRIPTS = ['typecheck', 'lint'] as const;

interface Finished {
  script: string;
  code: number;
  output: string;
}

function runScript(script: string): Promise<Finished> {
  return new Promise((resolve) => {
    // npm is npm.cmd on Windows, which only a shell can start.
    const child = spawn('npm', ['run', '--silent', script], { shell: process.platform === 'win32', stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.on('error', (error) => resolve({ script, code: 1, output: `could not start npm run ${script}: ${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString() }));
  });
}

const results = await Promise.all(
  SCRIPTS.map(async (script) => {
    const started = performance.now();
    const finished = await runScript(script);
    // Printed as each ends, so the faster one's errors show without waiting for the other.
    process.stdout.write(`\n> npm run ${script}: ${finished.code === 0 ? 'ok' : `failed (exit ${finished.code})`} in ${Math.round((performance.now() - started) / 1000)} s\n${finished.output}`);
    return finished;
  }),
);
process.exitCode = results.find((result) => result.code !== 0)?.code ?? 0;
