/** `kubedrift serve`: the browser shell on a loopback port. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { startBrowserShell } from '../web/shell.ts';
import { isLoopbackHost } from '../web/token.ts';
import { parseFlags, parsePort, UsageError } from './args.ts';
import { defaultDataDir, packageVersion, RENDERER_DIR } from './paths.ts';

export const SERVE_HELP = `Usage: kubedrift serve [--port N] [--host 127.0.0.1] [--no-open] [--kubeconfig FILE] [--context NAME] [--data-dir DIR]

Serves Kubedrift to a browser on a loopback address. Prints
  Kubedrift listening on http://127.0.0.1:PORT/?token=TOKEN
when ready; the token changes on every start and is required by the page.

  --port N           port to listen on (default 0: any free port)
  --host ADDR        loopback address to bind (default 127.0.0.1)
  --no-open          do not open a browser
  --kubeconfig FILE  read only this kubeconfig (default: $KUBECONFIG, else ~/.kube/config)
  --context NAME     start on this context
  --data-dir DIR     where settings and history live (default: the per-user app data folder)
  --static DIR       serve this renderer build instead of out/renderer`;

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
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(SERVE_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`serve takes no arguments, got "${positionals[0]}"`);
  const host = values.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new UsageError(`--host must be a loopback address such as 127.0.0.1, got "${host}"`);
  const port = parsePort(values.port, 0);
  const staticDir = path.resolve(values.static ?? RENDERER_DIR);
  if (!existsSync(path.join(staticDir, 'index.html'))) {
    console.error(`No renderer build in ${staticDir}: run "npm run build" first (npm run serve does it for you).`);
    return 1;
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
