/**
 * Which registry kinds the access checks look at: those the server lets anyone list and watch
 * (by discovery's verbs) and the context does not exclude. Kinds the registry marks forbidden
 * stay in, so a RoleBinding granted later brings them back.
 */
import type { KindEntry } from '../../../../shared/discovery.ts';
import type { AccessKind } from './probe.ts';

/** The registry's kinds worth an access check. */
export function watchableKinds(entries: readonly KindEntry[]): AccessKind[] {
  return entries.filter((k) => k.listable && k.watchable && (k.mode === 'full' || k.mode === 'metadata' || k.mode === 'forbidden')).map((k) => ({ key: k.key, ref: k.ref }));
}
