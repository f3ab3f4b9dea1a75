/**
 * A context's access checks wired to its informers: the first check starts once discovery has
 * found the kinds; every plan that changes sets each kind's scope on the watcher (cluster-wide,
 * per namespace, hidden) and marks the hidden kinds forbidden in the discovery registry, so the
 * Cluster screen says so too. Access is checked again every 5 minutes (the checker's timer), when
 * asked, after a 403 on a kind the plan allowed, when discovery finds new kinds, and, for one
 * namespace, when the namespace watch sees a new namespace.
 *
 * The informers start cluster-wide before the first check answers, as before: a cluster-admin
 * loses no time, and a restricted user's kinds move to their namespaces as the check goes: each
 * namespace's rules review adds it to its kinds' scopes at once (AccessChecker.onProgress), so
 * its lists start while the other namespaces are still being reviewed and confirmed.
 */
import { AccessibleNamespacesSchema, type AccessSummary, type KindAccess } from '../../../../shared/access.ts';
import { BUILTIN_KEYS } from '../../../../shared/builtin-kinds.ts';
import type { KindKey } from '../../../../shared/cluster.ts';
import type { ObjectCache } from '../../stream/cache.ts';
import type { DiscoveryRegistry } from '../discovery/registry.ts';
import type { Clock } from '../informers/timing.ts';
import { AccessChecker } from './checker.ts';
import { connectAccess, type AccessConnection } from './connect.ts';
import { watchableKinds } from './kinds.ts';

/** What the follower needs of the informers. */
export interface ScopedWatcher {
  setScope(kind: KindKey, access: KindAccess): void;
}

/** Options of `followAccess`. */
export interface AccessFollowerOptions {
  /** The context's single-context kubeconfig object. */
  config: object;
  registry: Pick<DiscoveryRegistry, 'start' | 'kinds' | 'onChange' | 'setForbidden'>;
  watcher: ScopedWatcher;
  cache: ObjectCache;
  /** Namespaces the user added for this context (settings). */
  userNamespaces?: readonly string[];
  /** The access checks' connection; `connectAccess(config)` by default. */
  connect?: (config: object) => Promise<AccessConnection>;
  clock?: Clock;
  log: (message: string) => void;
  /** Every finished check (and failure). */
  onSummary: (summary: AccessSummary) => void;
}

/** A running follower; `stop` ends its checks and closes its connection. */
export interface AccessFollower {
  /** The last check's summary; null before the first one finished. */
  summary(): AccessSummary | null;
  /** Checks again (the UI's "Check again"); resolves when done. */
  recheck(reason: string): Promise<void>;
  /** An informer got a 403 (namespace null: cluster-wide). */
  onForbidden(kind: KindKey, namespace: string | null): void;
  /** Replaces the hand-added namespaces and checks again; throws on a bad list (see AccessibleNamespacesSchema). */
  setUserNamespaces(names: readonly string[]): Promise<void>;
  stop(): void;
}

/**
 * Starts the access checks of one context. It throws only on a bad `userNamespaces` list; every
 * later failure is logged and summarised.
 */
export function followAccess(options: AccessFollowerOptions): AccessFollower {
  let checker: AccessChecker | undefined;
  let userNamespaces = AccessibleNamespacesSchema.parse(options.userNamespaces ?? []);
  let connection: AccessConnection | undefined;
  let stopped = false;
  let checked = false;
  /** What this follower marked forbidden in the registry, by kind key. */
  const marked = new Map<string, string>();
  const unsubscribe: Array<() => void> = [];

  const apply = (): void => {
    if (!checker || stopped) return;
    for (const [kind, access] of Object.entries(checker.plan())) {
      // The scope first: clearing a mark makes the registry add the kind to the watcher at once.
      options.watcher.setScope(kind, access);
      const message = access.scope === 'hidden' ? access.message : undefined;
      if (marked.get(kind) === message) continue;
      if (message === undefined) marked.delete(kind);
      else marked.set(kind, message);
      options.registry.setForbidden(kind, message);
    }
  };

  const start = async (): Promise<void> => {
    connection = await (options.connect ?? connectAccess)(options.config);
    if (stopped) {
      connection.close();
      return;
    }
    await options.registry.start();
    if (stopped) return;
    const made = new AccessChecker({
      api: connection,
      kinds: () => watchableKinds(options.registry.kinds()),
      contextNamespace: connection.namespace,
      userNamespaces,
      ...(options.clock ? { clock: options.clock } : {}),
      log: options.log,
    });
    checker = made;
    // Every finished check, not only those that start or stop watches: a user who may watch
    // nothing has no watch to change, and its kinds must still read hidden.
    made.onSummary((summary) => {
      apply();
      options.onSummary(summary);
    });
    // A namespace reviewed while the check goes on starts its lists at once; the end of the
    // check (apply) sets every kind's final scope and the registry's marks.
    made.onProgress((grown) => {
      if (stopped) return;
      for (const [kind, access] of Object.entries(grown)) options.watcher.setScope(kind, access);
    });
    unsubscribe.push(
      options.registry.onChange((changes) => {
        if (checked && changes.added.length > 0) void made.recheck(`discovery found ${changes.added.map((k) => k.key).join(', ')}`);
      }),
      options.cache.onChange((change) => {
        if (change.kind === BUILTIN_KEYS.Namespace && change.type === 'upsert' && !change.previous) void made.onNamespaceAdded(change.object.metadata.name);
      }),
    );
    await made.start();
    checked = true;
  };

  start().catch((error: unknown) => {
    if (!stopped) options.log(`access: cannot check your access: ${error instanceof Error ? error.message : String(error)}`);
  });

  return {
    summary() {
      const summary = checker?.summary();
      return summary && (summary.checkedAt !== null || summary.error !== undefined) ? summary : null;
    },
    recheck: (reason) => checker?.recheck(reason) ?? Promise.resolve(),
    onForbidden(kind, namespace) {
      // A cluster-wide 403 counts only for a kind the plan reads cluster-wide: the others' wide
      // reflectors are on their way out (or never had the right, before the first check).
      if (!checker || (namespace === null && checker.plan()[kind]?.scope !== 'cluster')) return;
      void checker.onForbidden(kind, namespace ?? undefined);
    },
    setUserNamespaces(names) {
      const parsed = AccessibleNamespacesSchema.safeParse(names);
      if (!parsed.success) throw new Error(`Accessible namespaces: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
      userNamespaces = parsed.data;
      // Before the first check starts, the list is simply the one it will use.
      return checker?.setUserNamespaces(userNamespaces) ?? Promise.resolve();
    },
    stop() {
      stopped = true;
      checker?.stop();
      for (const off of unsubscribe.splice(0)) off();
      connection?.close();
    },
  };
}
