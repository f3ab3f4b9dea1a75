/**
 * How far the API server has got, so a watch's lag can count the time a change waited before
 * the engine read it. A watch event carries no write time, and a backlog can wait where the
 * engine cannot see it: in the server's per-watch buffer, in HTTP/2 flow control, in the kernel.
 * A resourceVersion can date it: kube-apiserver's versions are etcd revisions, one counter for
 * every object, so "the server had reached version R by time T" is known from any answer that
 * carries R - another kind's watch line, or a list of one item (`?limit=1`), whose
 * `metadata.resourceVersion` is the server's newest. A change read at time T2 with version
 * V <= R had existed since T at the latest: it had waited at least T2 - T.
 *
 * Samples are kept as (version, time) with versions strictly increasing, so the earliest time
 * known to hold a version is a binary search. Versions that are not decimal integers (a server
 * that is not etcd-backed) are ignored: the lag then counts from the read, as before.
 *
 * Probing costs a request, so it is done only while a watch is busy (the intake asks, at most
 * once per PROBE_INTERVAL_MS): an idle cluster is never probed.
 */
import { ApiStatusError } from './http.ts';
import type { Clock } from './timing.ts';

/** Shortest interval between two probes of one server. */
export const PROBE_INTERVAL_MS = 1_000;
/**
 * After a probe the server answered with an error (RBAC, a proxy that refuses limit=1), the next
 * waits this long. A probe that got no answer (a stream reset or refused) is tried again after
 * the usual interval: a backlogged connection is when the lag most needs a sample.
 */
export const PROBE_FAILURE_PAUSE_MS = 5_000;
/** Samples kept: a few minutes at one a second and a few notes in between. */
const MAX_SAMPLES = 512;
/** A watch line's version is noted at most this often (each line would cost a parse and a push). */
const NOTE_INTERVAL_MS = 50;

/** Options of a ServerProgress. */
export interface ServerProgressOptions {
  clock: Clock;
  /** Asks the server for its newest resourceVersion (a list of one item from `path`); undefined when none came. */
  probe?: (path: string, signal: AbortSignal) => Promise<string | undefined>;
  intervalMs?: number;
  log?: (message: string) => void;
}

/** Parses a resourceVersion that is a decimal integer; undefined otherwise. */
function versionNumber(resourceVersion: string | undefined): number | undefined {
  if (!resourceVersion || resourceVersion.length > 15 || !/^\d+$/.test(resourceVersion)) return undefined;
  return Number(resourceVersion);
}

/** The server's progress over time, from notes and probes (one instance per API server). */
export class ServerProgress {
  private readonly o: ServerProgressOptions;
  private versions: number[] = [];
  private times: number[] = [];
  private lastNoteAt = Number.NEGATIVE_INFINITY;
  private nextProbeAt = Number.NEGATIVE_INFINITY;
  private probing: AbortController | undefined;
  private stopped = false;
  /** Probes answered (tests, measurements). */
  probes = 0;

  constructor(options: ServerProgressOptions) {
    this.o = options;
  }

  /**
   * The server had reached `resourceVersion` by `at` (the clock's ms; now by default). Noted at
   * most every NOTE_INTERVAL_MS unless `force` (a probe's answer).
   */
  note(resourceVersion: string | undefined, at = this.o.clock.now(), force = false): void {
    if (!force && at - this.lastNoteAt < NOTE_INTERVAL_MS) return;
    const version = versionNumber(resourceVersion);
    if (version === undefined) return;
    this.lastNoteAt = at;
    const last = this.versions.length - 1;
    if (last >= 0 && version <= (this.versions[last] as number)) return;
    this.versions.push(version);
    this.times.push(at);
    if (this.versions.length > MAX_SAMPLES) {
      // Dropped in halves, so the copy is paid once per MAX_SAMPLES / 2 samples.
      this.versions = this.versions.slice(MAX_SAMPLES / 2);
      this.times = this.times.slice(MAX_SAMPLES / 2);
    }
  }

  /**
   * The earliest time known at which the server had reached `resourceVersion`; undefined when
   * no sample reaches it yet (the change is newer than anything known), or it is not a number.
   */
  reachedAt(resourceVersion: string | undefined): number | undefined {
    const version = versionNumber(resourceVersion);
    if (version === undefined) return undefined;
    const { versions } = this;
    let low = 0;
    let high = versions.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((versions[mid] as number) < version) low = mid + 1;
      else high = mid;
    }
    return low < versions.length ? this.times[low] : undefined;
  }

  /** A busy watch of `path` wants a fresh sample: probes unless one is under way or was made within the interval. */
  wanted(path: string): void {
    const { probe, clock } = this.o;
    if (!probe || this.stopped || this.probing) return;
    const now = clock.now();
    if (now < this.nextProbeAt) return;
    this.nextProbeAt = now + (this.o.intervalMs ?? PROBE_INTERVAL_MS);
    const controller = new AbortController();
    this.probing = controller;
    probe(path, controller.signal).then(
      (resourceVersion) => {
        if (this.probing === controller) this.probing = undefined;
        if (this.stopped) return;
        this.probes += 1;
        // Known by the time the answer was read: never earlier than the truth, so never overstated.
        this.note(resourceVersion, clock.now(), true);
      },
      (error: unknown) => {
        if (this.probing === controller) this.probing = undefined;
        if (this.stopped) return;
        if (error instanceof ApiStatusError) this.nextProbeAt = clock.now() + PROBE_FAILURE_PAUSE_MS;
        this.o.log?.(`progress probe of ${path} failed (${error instanceof Error ? error.message : String(error)}); the lag counts from the read until it answers`);
      },
    );
  }

  /** Aborts a probe under way; no more are made. */
  stop(): void {
    this.stopped = true;
    this.probing?.abort();
    this.probing = undefined;
  }
}
