/**
 * controller_history (pkg/controller/history) as the StatefulSet and DaemonSet controllers use
 * it: one ControllerRevision per distinct pod template, named `<owner>-<hash>`, labelled with the
 * template's labels and the hash, controlled by its owner, `data` holding the strategic-merge
 * patch that restores the template (`{"spec":{"template":{...,"$patch":"replace"}}}`) and
 * `revision` one more than the owner's highest. Going back to a template an old revision holds
 * re-uses that revision with the next number, as upstream does; old revisions no pod and neither
 * the current nor the update revision uses are deleted beyond `spec.revisionHistoryLimit`.
 * When the name is taken by a revision holding another template (a hash collision, or one a
 * client wrote), the owner's `status.collisionCount` is bumped and hashed in until a name is
 * free, as CreateControllerRevision (StatefulSets) and the DaemonSet controller's snapshot do.
 */
import type { KubeObject } from '../types.ts';
import { equalIgnoreHash, podTemplateHash } from './deployment-util.ts';
import { CONTROLLER_REVISIONS } from './kinds.ts';
import { isControlledBy, newControllerRef } from './owner.ts';
import type { PodTemplate } from './pods.ts';
import type { ControllerContext } from './runtime.ts';

/** The StatefulSet revision's hash label (history.ControllerRevisionHashLabel). */
export const CONTROLLER_HASH_LABEL = 'controller.kubernetes.io/hash';
/** The default of `spec.revisionHistoryLimit` for StatefulSets and DaemonSets. */
export const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** How an owner kind labels its revisions: StatefulSets with CONTROLLER_HASH_LABEL, DaemonSets with controller-revision-hash. */
export interface HistoryOptions {
  hashLabel: string;
  /**
   * After a collision, label the revision with the hash its name has (the DaemonSet controller
   * hashes anew on its next sync) rather than the first one tried (history.CreateControllerRevision
   * renames its clone but keeps the label NewControllerRevision gave it).
   */
  relabelOnCollision: boolean;
}

/** The revision a template is stored as, and the owner's collision count after finding it a name. */
export interface EnsuredRevision {
  name: string;
  /** The hash the revision is labelled with (a DaemonSet's pods carry it). */
  hash: string;
  /** `status.collisionCount` to write: the owner's, bumped once per name collision. */
  collisionCount: number;
}

/** The owner's `status.collisionCount` (0 when unset). */
export function collisionCountOf(owner: KubeObject): number {
  const value = (owner['status'] as { collisionCount?: unknown } | undefined)?.collisionCount;
  return typeof value === 'number' && value > 0 ? value : 0;
}

/** The ControllerRevisions `owner` controls, oldest revision first. */
export function revisionsOf(owner: KubeObject, ctx: ControllerContext): KubeObject[] {
  return ctx.store
    .all(CONTROLLER_REVISIONS, owner.metadata.namespace)
    .filter((revision) => isControlledBy(revision, owner))
    .sort((a, b) => revisionNumber(a) - revisionNumber(b));
}

/** A revision's `revision` (0 when unreadable). */
export function revisionNumber(revision: KubeObject): number {
  const value = revision['revision'];
  return typeof value === 'number' ? value : 0;
}

/** The pod template a revision's patch restores (undefined when it holds none). */
export function revisionTemplate(revision: KubeObject): PodTemplate | undefined {
  const data = revision['data'] as { spec?: { template?: Record<string, unknown> } } | undefined;
  const template = data?.spec?.template;
  if (!template) return undefined;
  const { $patch: _replace, ...rest } = template;
  return rest as PodTemplate;
}

function revisionData(template: PodTemplate): Record<string, unknown> {
  return { spec: { template: { ...structuredClone(template), $patch: 'replace' } } };
}

/** Whether a revision restores `template` (EqualRevision compares the data). */
function holds(revision: KubeObject, template: PodTemplate): boolean {
  const held = revisionTemplate(revision);
  return held !== undefined && equalIgnoreHash(held, template);
}

/**
 * The revision of `template` (created, or an identical old one renumbered when it is not the
 * latest already), its name and hash, with the other revisions as they stand. A name taken by a
 * revision of another template bumps the collision count and is hashed again; a name taken by
 * one of the same template is that revision (upstream returns it as created).
 */
export function ensureRevision(owner: KubeObject, template: PodTemplate, ctx: ControllerContext, options: HistoryOptions): EnsuredRevision {
  let collisionCount = collisionCountOf(owner);
  const revisions = revisionsOf(owner, ctx);
  const latest = revisions.at(-1);
  const next = (latest ? revisionNumber(latest) : 0) + 1;
  const equal = revisions.filter((revision) => holds(revision, template)).at(-1);
  if (equal) {
    if (equal !== latest) ctx.store.update(CONTROLLER_REVISIONS, { ...equal, revision: next });
    const name = equal.metadata.name;
    return { name, hash: equal.metadata.labels?.[options.hashLabel] ?? name.slice(owner.metadata.name.length + 1), collisionCount };
  }
  const first = podTemplateHash(template, collisionCount);
  for (;;) {
    const hash = podTemplateHash(template, collisionCount);
    const name = `${owner.metadata.name}-${hash}`;
    const taken = ctx.store.find(CONTROLLER_REVISIONS, owner.metadata.namespace, name);
    if (taken) {
      if (holds(taken, template)) return { name, hash: taken.metadata.labels?.[options.hashLabel] ?? hash, collisionCount };
      collisionCount += 1;
      continue;
    }
    const label = options.relabelOnCollision ? hash : first;
    ctx.store.create(CONTROLLER_REVISIONS, {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: {
        name,
        namespace: owner.metadata.namespace,
        labels: { ...(template.metadata?.labels ?? {}), [options.hashLabel]: label },
        // Upstream copies the owner's annotations: `kubectl rollout history` reads its change-cause there.
        ...(owner.metadata.annotations ? { annotations: { ...owner.metadata.annotations } } : {}),
        ownerReferences: [newControllerRef(owner)],
      },
      data: revisionData(template),
      revision: next,
    });
    return { name, hash: label, collisionCount };
  }
}

/**
 * truncateHistory: deletes the oldest revisions that are neither `live` (current, update, or a
 * pod's) beyond the owner's `spec.revisionHistoryLimit`.
 */
export function truncateHistory(owner: KubeObject, live: ReadonlySet<string>, ctx: ControllerContext): void {
  const limit = (owner['spec'] as { revisionHistoryLimit?: number } | undefined)?.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
  const old = revisionsOf(owner, ctx).filter((revision) => !live.has(revision.metadata.name));
  for (const revision of old.slice(0, Math.max(0, old.length - limit))) ctx.store.delete(CONTROLLER_REVISIONS, revision.metadata.namespace, revision.metadata.name);
}
