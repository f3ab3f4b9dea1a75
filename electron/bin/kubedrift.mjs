#!/usr/bin/env node
// Entry of the `kubedrift` command. The engine needs Node >= 22.19 (client-node 2.x, node:sqlite,
// TypeScript type stripping); when started by an older Node, re-run on the project's node@22.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  const bundled = fileURLToPath(new URL('../../node_modules/node/bin/node', import.meta.url));
  if (!existsSync(bundled)) {
    console.error(`kubedrift needs Node.js >= 22.19 (this is ${process.version}); run "npm ci" to install the project's Node 22.`);
    process.exit(2);
  }
  const child = spawnSync(bundled, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(child.status ?? 1);
}

// node:sqlite (the history store) still carries Node 22's one-time ExperimentalWarning; on a
// command line it reads like an error, so that one warning is dropped and every other printed.
const printWarning = process.listeners('warning');
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name === 'ExperimentalWarning' && /SQLite/i.test(warning.message)) return;
  for (const listener of printWarning) listener(warning);
});

const { main } = await import('../cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
