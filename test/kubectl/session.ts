/**
 * What the real-kubectl suites share: the simulated cluster they run against (the
 * `kubectl-test` scenario at a given Kubernetes minor version), one kubectl session per test
 * (its own HOME, discovery cache and kubeconfig), the hooks that set both up (`useKubectlTest`),
 * and readers for kubectl's printed tables.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { startSimCluster, type SimCluster } from '../../electron/engine/simcluster/index.ts';
import { kubectl, kubectlStream, type KubectlResult, type KubectlStream } from './kubectl.ts';

/** The kubectl builds the suites run, chosen by the minor version the server reports. */
export const MINORS = [27, 32] as const;

const SCENARIO = fileURLToPath(new URL('../../electron/engine/simcluster/scenarios/kubectl-test.yaml', import.meta.url));

/** The `kubectl-test` scenario's cluster, reporting v1.<minor>. */
export function startKubectlCluster(minor: number): Promise<SimCluster> {
  return startSimCluster({ scenario: SCENARIO, kubernetesMinor: minor, onError: (message) => console.error(`[simcluster 1.${minor}] ${message}`) });
}

/** One test's kubectl: its own HOME, `--cache-dir` and kubeconfig file. */
export interface KubectlSession {
  readonly home: string;
  readonly kubeconfig: string;
  run(args: readonly string[], input?: string): Promise<KubectlResult>;
  stream(args: readonly string[]): KubectlStream;
  /** Removes the session's files. */
  close(): Promise<void>;
}

export async function openSession(cluster: SimCluster): Promise<KubectlSession> {
  const home = await mkdtemp(join(tmpdir(), 'kubedrift-kubectl-'));
  const kubeconfig = join(home, 'kubeconfig.yaml');
  await writeFile(kubeconfig, cluster.kubeconfig());
  return {
    home,
    kubeconfig,
    run: (args, input) => kubectl(args, { kubeconfig, home, ...(input !== undefined ? { input } : {}) }),
    stream: (args) => kubectlStream(args, { kubeconfig, home }),
    close: () => rm(home, { recursive: true, force: true }),
  };
}

let namespaceCounter = 0;

/** A namespace name no other test in this process uses. */
export function uniqueNamespace(prefix: string): string {
  namespaceCounter += 1;
  return `${prefix}-${namespaceCounter}`;
}

/** What a suite's tests work with: its cluster, this test's session and, when asked, namespace. */
export interface KubectlTestState {
  cluster: SimCluster;
  k: KubectlSession;
  /** A namespace made for this test ('' when the suite asked for none). */
  ns: string;
}

/**
 * The hooks every kubectl suite repeats, for one minor version: a cluster per suite, a session
 * per test and, with `namespacePrefix`, a fresh namespace per test created through kubectl.
 * `use` hands the suite each test's state before its own beforeEach hooks run.
 */
export function useKubectlTest(minor: number, namespacePrefix: string | undefined, use: (state: KubectlTestState) => void): void {
  let cluster: SimCluster | undefined;
  let session: KubectlSession | undefined;
  beforeAll(async () => {
    cluster = await startKubectlCluster(minor);
  });
  afterAll(() => cluster?.stop());
  beforeEach(async () => {
    if (!cluster) throw new Error('the simulated cluster did not start');
    session = await openSession(cluster);
    let ns = '';
    if (namespacePrefix !== undefined) {
      ns = uniqueNamespace(namespacePrefix);
      const created = await session.run(['create', 'namespace', ns]);
      expect([created.code, created.stdout, created.stderr]).toEqual([0, `namespace/${ns} created\n`, '']);
    }
    use({ cluster, k: session, ns });
  });
  afterEach(() => session?.close());
}

/**
 * A kubectl table (`get` output) as rows keyed by column header. Column starts come from the
 * header line, which kubectl's tabwriter aligns with every row (headers such as `LAST SEEN`
 * hold one space; columns are three or more spaces apart).
 */
export function parseTable(stdout: string): Array<Record<string, string>> {
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  const header = lines[0] ?? '';
  const columns = [...header.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index }));
  return lines.slice(1).map((line) => {
    const row: Record<string, string> = {};
    columns.forEach((column, i) => {
      const end = columns[i + 1]?.start ?? line.length;
      row[column.name] = line.slice(column.start, end).trim();
    });
    return row;
  });
}

/** The header line of a kubectl table, as its column names. */
export function headerOf(stdout: string): string[] {
  return (stdout.split('\n')[0] ?? '').trim().split(/\s{3,}/);
}

/** Retries `probe` until it returns a value (not undefined) or `timeoutMs` passes; then throws with the last value seen. */
export async function eventually<T>(probe: () => Promise<T | undefined>, options: { timeoutMs?: number; what: string; last?: () => string }): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}${options.last ? `; last seen:\n${options.last()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
