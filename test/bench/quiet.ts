/**
 * Waiting for a process tree to go quiet, so a measurement does not start while something it
 * does not measure is still starting up. Chromium keeps working for about a second after it
 * launched and opened a page (its first renderer, GPU and network processes): ~0.5 CPU-s that,
 * on a 2-core machine, would otherwise be charged to the sync the live-pipeline bench measures.
 * Reads Linux's /proc; where there is none it waits a fixed second instead.
 */
import { readdir, readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

export interface QuietOptions {
  /** How long each reading spans. */
  windowMs?: number;
  /** Quiet: the tree used at most this share of one core over a window. */
  maxCoreShare?: number;
  /** Gives up waiting after this long (the measurement goes ahead). */
  timeoutMs?: number;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** utime + stime of every process, in seconds, and each one's parent; null without /proc. */
async function processTable(): Promise<Map<number, { parent: number; cpu: number }> | null> {
  let pids: string[];
  try {
    pids = await readdir('/proc');
  } catch {
    return null;
  }
  const table = new Map<number, { parent: number; cpu: number }>();
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the fields start after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(pid), { parent: Number(fields[1]), cpu: (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND });
    } catch {
      // The process ended while the table was read.
    }
  }
  return table;
}

/** CPU seconds used so far by `root` and its descendants, or null without /proc. */
export async function treeCpuSeconds(root: number): Promise<number | null> {
  const table = await processTable();
  if (!table) return null;
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of table) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  let total = 0;
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop() as number;
    total += table.get(pid)?.cpu ?? 0;
    pending.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Resolves once `root`'s process tree has used little CPU over a whole window (or on timeout). */
export async function waitForQuiet(root: number, options: QuietOptions = {}): Promise<void> {
  const windowMs = options.windowMs ?? 250;
  const maxCoreShare = options.maxCoreShare ?? 0.1;
  const deadline = performance.now() + (options.timeoutMs ?? 5_000);
  let before = await treeCpuSeconds(root);
  if (before === null) {
    await sleep(1_000);
    return;
  }
  while (performance.now() < deadline) {
    await sleep(windowMs);
    const now = await treeCpuSeconds(root);
    if (now === null) return;
    if (now - before <= (maxCoreShare * windowMs) / 1000) return;
    before = now;
  }
}
