/** `kubedrift serve`: the browser shell on a loopback port. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { SMOKE_TIMEOUT_MS, smokeTimeoutMs } from '../../shared/smoke.ts';
import { startBrowserShell } from '../web/shell.ts';
import { isLoopbackHost } from '../web/token.ts';
import { parseFlags, parsePort, UsageError } from './args.ts';
import { defaultDataDir, packageVersion, RENDERER_DIR } from './paths.ts';

export const SERVE_HELP = `Usage: kubedrift serve [--port N] [--host 127.0.0.1] [--no-open] [--kubeconfig FILE] [--context NAME] [--data-dir DIR]
       kubedrift serve --smoke-test [--smoke-timeout SECONDS] [--data-dir DIR]

Serves Kubedrift to a browser on a loopback address. Prints
  Kubedrift listening on http://127.0.0.1:PORT/?token=TOKEN
when ready; the token changes on every start and is required by the page. The contexts chosen
in Settings → Record in the background record their history while it runs.

  --port N           port to listen on (default 0: any free port)
  --host ADDR        loopback address to bind (default 127.0.0.1)
  --no-open          do not open a browser
  --kubeconfig FILE  read only this kubeconfig (default: $KUBECONFIG, else ~/.kube/config)
  --context NAME     start on this context
  --data-dir DIR     where settings and history live (default: the per-user app data folder)
  --static DIR       serve this renderer build instead of out/renderer
  --smoke-test       start on the built-in demo cluster (no kubeconfig read, data in a temp
                     dir unless --data-dir), load the page in headless Chromium
                     ($KUBEDRIFT_CHROMIUM, else /usr/bin/chromium) until the Overview is live,
                     print one line and exit 0; exit 1 with the reason otherwise
  --smoke-timeout S  how long --smoke-test waits, in seconds (default ${SMOKE_TIMEOUT_MS / 1000})`;

/** Flags that choose a cluster or a listening address, which a smoke test fixes itself. */
const NOT_WITH_SMOKE_TEST = ['port', 'host', 'no-open', 'kubeconfig', 'context'] as const;

function openBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => console.error(`Could not open a browser; open the address above yourself.`));
  child.unref();
}

export async function serveCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    port: { type: 'string' },
    host: { type: 'string' },
    'no-open': { type: 'boolean' },
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    'data-dir': { type: 'string' },
    static: { type: 'string' },
    'smoke-test': { type: 'boolean' },
    'smoke-timeout': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(SERVE_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got "${positionals[0]}"`);
  if (values['smoke-timeout'] !== undefined && !values['smoke-test']) throw new UsageError('--smoke-timeout goes with --smoke-test');
  if (values['smoke-test']) {
    const conflicting = NOT_WITH_SMOKE_TEST.find((name) => values[name] !== undefined);
    if (conflicting) throw new UsageError(`--smoke-test runs on the demo cluster on a free loopback port and opens no browser window; drop --${conflicting}`);
  }
  const timeoutMs = values['smoke-timeout'] === undefined ? SMOKE_TIMEOUT_MS : smokeTimeoutMs(values['smoke-timeout']);
  if (timeoutMs === undefined) throw new UsageError(`--smoke-timeout must be a positive number of seconds, got "${values['smoke-timeout']}"`);
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new UsageError(`--host must be a loopback address such as 127.0.0.1, got "${host}"`);
  const port = parsePort(values.port, 0);
  const staticDir = path.resolve(values.static ?? RENDERER_DIR);
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    console.error(`No renderer build in ${staticDir}: run "npm run build" first (npm run serve does it for you).`);
    return 1;
  }
  if (values['smoke-test']) {
    const { runServeSmoke } = await import('./serve-smoke.ts');
    return runServeSmoke({ staticDir, timeoutMs, dataDir: values['data-dir'] });
  }
  let shell;
  try {
    shell = await startBrowserShell({
      engine: {
        version: packageVersion(),
        dataDir: path.resolve(values['data-dir'] ?? defaultDataDir()),
        kubeconfig: values.kubeconfig,
        context: values.context,
        // Started from a terminal, the PATH already is the login shell's.
        loginShellPath: false,
      },
      staticDir,
      host,
      port,
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).syscall !== 'listen') throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'EADDRINUSE' ? `port ${port} is already in use` : (error as Error).message;
    console.error(`Kubedrift could not listen on ${host}:${port}: ${reason}`);
    return 1;
  }
  console.log(`Kubedrift listening on ${shell.url}`);
  if (!values['no-open']) openBrowser(shell.url);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await shell.close();
  return 0;
}
