/** The `kubedrift` command: one entry, subcommands. Bad usage exits 2 with a clear message. */
import { UsageError } from './args.ts';
import { packageVersion } from './paths.ts';

type Command = { summary: string; run: (argv: string[]) => Promise<number> };

// Subcommands load lazily: `--help` should not pay for the Kubernetes client's import.
export const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'serve the app to a browser on a loopback port (the browser shell)',
    run: async (argv) => (await import('./serve.ts')).serveCommand(argv),
  },
  sim: {
    summary: 'run the simulated Kubernetes cluster (API server, controllers, scenario) for kubectl and tests',
    run: async (argv) => (await import('./sim.ts')).simCommand(argv),
  },
  diff: {
    summary: 'diff local manifests against the live cluster (exit 0 same, 1 different, 2 error)',
    run: async (argv) => (await import('./diff.ts')).diffCommand(argv),
  },
  record: {
    summary: 'record the history of one or more contexts with no UI (a server, a pod)',
    run: async (argv) => (await import('./record.ts')).recordCommand(argv),
  },
  snapshot: {
    summary: 'export what a cluster looks like (snapshot file, YAML, HTML report), or inspect a snapshot file',
    run: async (argv) => (await import('./snapshot.ts')).snapshotCommand(argv),
  },
};

export function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`);
  return `Usage: kubedrift <command> [flags]

Kubedrift shows a Kubernetes cluster's desired state against its actual state over time.

Commands:
${lines.join('\n')}

Run "kubedrift <command> --help" for a command's flags. "kubedrift --version" prints the version.`;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    console.log(helpText());
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    console.log(packageVersion());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`kubedrift: unknown command "${name}"\n\n${helpText()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`kubedrift ${name}: ${error.message}\nRun "kubedrift ${name} --help" for usage.`);
      return 2;
    }
    console.error(`kubedrift ${name}: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
