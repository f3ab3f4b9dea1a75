/**
 * The surprises feature: implements `surprises:*` (shared/contracts/surprises.ts) over the live
 * cache. Every cache change goes through the detector (detect.ts); when a workload's replicas
 * change, the object is read once more from the API server for its managedFields (the cache
 * keeps none), so a fight names both managers. Keeps the context's last MAX_SURPRISES.
 */
import { builtinRef, BUILTIN_KEYS, BUILTIN_RESOLVER } from '../../../shared/builtin-kinds.ts';
import type { KindKey, SlimObject } from '../../../shared/cluster.ts';
import type { RecentSurprises, Surprise, surprisesRequests } from '../../../shared/contracts/surprises.ts';
import { collectionPath } from '../../../shared/kinds.ts';
import { ok } from '../../../shared/result.ts';
import { createTransport, getJson, type Transport } from '../cluster/informers/http.ts';
import type { EngineContext, Feature } from '../features.ts';
import type { CacheChange } from '../stream/cache.ts';
import { SurpriseDetector } from './detect.ts';
import { writerOf } from './writers.ts';

/** Surprises kept per context, newest first. */
export const MAX_SURPRISES = 200;
/** The fields whose writers are read: the one controllers fight over most (HPA vs kubectl scale, GitOps vs HPA). */
const FOUGHT_FIELDS: ReadonlyArray<readonly string[]> = [['spec', 'replicas']];
const SCALED_KINDS: ReadonlySet<string> = new Set([BUILTIN_KEYS.Deployment, BUILTIN_KEYS.StatefulSet]);
const READ_TIMEOUT_MS = 5_000;

const valueAt = (object: SlimObject, path: readonly string[]): unknown => path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], object);

export function createSurprisesFeature(context: EngineContext): Feature<typeof surprisesRequests> {
  const detector = new SurpriseDetector((ref) => {
    const kind = BUILTIN_RESOLVER.keyOf(ref.apiVersion, ref.kind);
    const object = kind ? context.cache.get(kind, ref.uid) : undefined;
    return kind && object ? { kind, object } : undefined;
  });
  let surprises: Surprise[] = [];
  let transport: { context: string; transport: Transport } | undefined;

  const current = (): RecentSurprises => ({ context: context.selected()?.name ?? null, surprises });

  function add(found: readonly Surprise[]): void {
    if (found.length === 0) return;
    const ids = new Set(found.map((s) => s.id));
    surprises = [...found, ...surprises.filter((s) => !ids.has(s.id))].slice(0, MAX_SURPRISES);
    context.hub.emit('surprises:changed', current());
  }

  async function transportFor(name: string): Promise<Transport | undefined> {
    if (transport?.context === name) return transport.transport;
    transport?.transport.close();
    transport = undefined;
    const config = await context.clientConfig();
    if (!config || context.selected()?.name !== name) return undefined;
    transport = { context: name, transport: createTransport(config) };
    return transport.transport;
  }

  /** Reads who set the changed field from the object's managedFields, and feeds it to the detector. */
  async function readWriters(kind: KindKey, object: SlimObject, paths: ReadonlyArray<readonly string[]>, seenAt: number): Promise<void> {
    const name = context.selected()?.name;
    if (!name) return;
    try {
      const client = await transportFor(name);
      if (!client) return;
      const path = `${collectionPath(builtinRef(kind), object.metadata.namespace)}/${encodeURIComponent(object.metadata.name)}`;
      const live = await getJson(client, path, { signal: AbortSignal.timeout(READ_TIMEOUT_MS) });
      if (context.selected()?.name !== name) return;
      for (const field of paths) {
        const write = writerOf(live, field, String(valueAt(object, field)), seenAt);
        const fight = write && detector.recordWrite(kind, object, field.join('.'), write);
        if (fight) add([fight]);
      }
    } catch (error) {
      // Not being able to say who wrote a field loses no data; the cache and views go on.
      context.log(`surprises: could not read ${kind} ${object.metadata.name}'s managedFields: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  function onChange(change: CacheChange): void {
    const at = context.now();
    add(detector.observe(change, at));
    if (change.type !== 'upsert' || !change.previous || !SCALED_KINDS.has(change.kind)) return;
    const { previous, object } = change;
    const changed = FOUGHT_FIELDS.filter((path) => JSON.stringify(valueAt(previous, path)) !== JSON.stringify(valueAt(object, path)));
    if (changed.length > 0) void readWriters(change.kind, object, changed, at);
  }

  const unsubscribe = context.cache.onChange(onChange);
  const stopContext = context.onContextChange(() => {
    detector.clear();
    surprises = [];
    transport?.transport.close();
    transport = undefined;
    context.hub.emit('surprises:changed', current());
  });

  return {
    handlers: {
      'surprises:recent': () => ok(current()),
    },
    dispose() {
      unsubscribe();
      stopContext();
      transport?.transport.close();
    },
  };
}
