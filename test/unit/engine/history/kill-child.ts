/**
 * The process the kill -9 test kills: records a busy cluster into the history database named on
 * the command line, as the engine does (real clock, default flush interval), and prints the time
 * of every change it makes so the test knows what should have been saved.
 *
 *   node kill-child.ts <database file>
 */
import { openStore } from '../../../../electron/engine/history/store.ts';
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { deployment, pod } from './fixtures.ts';
import { upsertBuiltin } from '../stream/cache-helpers.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: kill-child.ts <database file>');
const cache = new ObjectCache();
const store = openStore({
  file,
  context: 'kill-test',
  cache,
  record: true,
  now: Date.now,
  log: (message) => process.stderr.write(`${message}\n`),
  limits: () => ({ maxAgeMs: 86_400_000, maxBytes: 1024 ** 3 }),
  onStatus: (status) => process.stderr.write(`status ${status.state} ${status.message ?? ''}\n`),
  timing: { keyframeMaxDeltas: 5_000 },
});
store.synced();
let step = 0;
const filler = 'x'.repeat(1_500);
setInterval(() => {
  step += 1;
  upsertBuiltin(cache, deployment('web', 'w', { ready: step % 3, replicas: 3 + (step % 2) }));
  for (let i = 0; i < 20; i++) {
    const p = pod(`p${(step * 20 + i) % 2_000}`, `p${(step * 20 + i) % 2_000}`, 'rs');
    p.metadata.annotations = { step: String(step), filler };
    upsertBuiltin(cache, p);
  }
  process.stdout.write(`changed ${Date.now()}\n`);
}, 5);
process.stdout.write('ready\n');
