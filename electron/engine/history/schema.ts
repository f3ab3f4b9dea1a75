/**
 * The history database's schema, versioned with `PRAGMA user_version`: MIGRATIONS[i] takes a
 * database from version i to i + 1, each in its own transaction, so a database written by an
 * older build is upgraded in place and one from a newer build is refused rather than damaged.
 *
 * Tables:
 * - `workloads`: uid -> kind (its kind key since v4) / namespace / name, and when it was deleted;
 *   since v5 also the Kubernetes kind (`kind_name`) of a custom resource, which its key cannot say.
 * - `sample_blocks`: a workload's samples, BLOCK_CAPACITY to a row (sample-codec.ts), found by
 *   (workload, end time).
 * - `rollouts`: a generation bump until the rollout completed (drift.ts `rolloutComplete`).
 * - `episodes`: drift episodes; `reasons` is a bitmask of DRIFT_REASON_BITS (reason-bits.ts);
 *   since v5 a custom resource's episode keeps its worst state with that state's reason and
 *   message (`state`, `state_reason`, `state_message`; null for built-in workloads); since v7
 *   the cause finder's headline causes seen while it was open (`causes`, JSON, episode-causes.ts).
 * - `events`: every Event ever seen, by uid (count / last time updated in place), so history
 *   outlives the API server's one-hour Event TTL.
 * - `owners`: child uid -> controlling owner uid (ReplicaSets, Pods, Jobs), so a workload's
 *   Warning markers include its pods' events after those pods are gone.
 * - `delta_batches` + `keyframes` / `keyframe_chunks`: every object change since the last
 *   keyframe, one compressed batch per flush (and, since v2, its headers apart), and periodic
 *   compressed snapshots of all objects; the state at T is the last complete keyframe before T
 *   plus the batches after it.
 * - `meta`: `since` (the oldest moment still kept) and the context name.
 * - `sessions` (v6): when this context was observed: start, the last moment known alive, and why
 *   it ended when it said (null: it stopped without saying). Gaps between sessions are shaded.
 * - `unobserved` (v8): per workload, from when to when it was out of view though recording went
 *   on (the user's access to its namespace withdrawn; end null: not seen since), shaded too;
 *   since v9 `gone` = 1 when it was not there once its namespace was listed again (deleted at
 *   an unknown time within the stretch; the workload's `deleted_at` is then the stretch's end).
 * - `inferred` (v6): facts the cluster still held on connect (backfill.ts), by deterministic id;
 *   `workload_uid` is the object's topmost controller (a pod's Deployment), `at` null when unknown;
 *   since v9 indexed by its last moment too (`inferred_last`), so the timeline's query of a range
 *   seeks to the range's start instead of reading every older row; since v10 only by that and by
 *   workload (`inferred_at`, by fact and start, dropped).
 */
import type { DatabaseSync } from 'node:sqlite';
import { migrateKindKeys } from './kind-migration.ts';
import { rederiveRolloutReasons } from './reason-migration.ts';

/** Episodes ongoing store this end in the index, so one range scan finds overlapping episodes. */
export const OPEN_END = 9_007_199_254_740_991;

/** v6's tables (kept apart so the list of migrations stays readable). */
const COVERAGE_AND_INFERRED = `
  CREATE TABLE sessions (id INTEGER PRIMARY KEY, start_at INTEGER NOT NULL, end_at INTEGER NOT NULL, end_reason TEXT);
  CREATE INDEX sessions_end ON sessions (end_at);
  CREATE TABLE inferred (
    id TEXT PRIMARY KEY,
    object_uid TEXT NOT NULL,
    workload_uid TEXT NOT NULL,
    kind TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    fact TEXT NOT NULL,
    at INTEGER,
    end_at INTEGER,
    detail TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX inferred_workload ON inferred (workload_uid, at);
  CREATE INDEX inferred_at ON inferred (fact, at);
`;

/** SQL, or a step that needs code (it runs inside the migration's transaction). */
export type Migration = string | ((db: DatabaseSync) => void);

export const MIGRATIONS: readonly Migration[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE workloads (
    id INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    namespace TEXT NOT NULL,
    name TEXT NOT NULL,
    first_at INTEGER NOT NULL,
    deleted_at INTEGER
  );
  CREATE TABLE sample_blocks (
    id INTEGER PRIMARY KEY,
    workload_id INTEGER NOT NULL,
    start_at INTEGER NOT NULL,
    end_at INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
  );
  CREATE INDEX sample_blocks_range ON sample_blocks (workload_id, end_at);
  CREATE INDEX sample_blocks_end ON sample_blocks (end_at);
  CREATE TABLE rollouts (
    workload_id INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    start_at INTEGER NOT NULL,
    end_at INTEGER,
    image TEXT,
    PRIMARY KEY (workload_id, generation)
  ) WITHOUT ROWID;
  CREATE TABLE episodes (
    id INTEGER PRIMARY KEY,
    workload_id INTEGER NOT NULL,
    start_at INTEGER NOT NULL,
    end_at INTEGER,
    peak_gap INTEGER NOT NULL,
    reasons INTEGER NOT NULL,
    trigger_generation INTEGER,
    trigger_image TEXT
  );
  CREATE INDEX episodes_range ON episodes (coalesce(end_at, ${OPEN_END}), start_at);
  CREATE INDEX episodes_workload ON episodes (workload_id, start_at);
  CREATE TABLE events (
    uid TEXT PRIMARY KEY,
    first_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    type TEXT NOT NULL,
    reason TEXT NOT NULL,
    message TEXT NOT NULL,
    count INTEGER NOT NULL,
    source TEXT NOT NULL,
    object_kind TEXT NOT NULL,
    object_namespace TEXT,
    object_name TEXT NOT NULL,
    object_uid TEXT
  ) WITHOUT ROWID;
  CREATE INDEX events_object ON events (object_uid, last_at);
  CREATE INDEX events_last ON events (last_at);
  CREATE TABLE owners (
    child_uid TEXT PRIMARY KEY,
    owner_uid TEXT NOT NULL,
    child_kind TEXT NOT NULL,
    first_at INTEGER NOT NULL,
    gone_at INTEGER
  ) WITHOUT ROWID;
  CREATE INDEX owners_owner ON owners (owner_uid);
  CREATE TABLE delta_batches (
    id INTEGER PRIMARY KEY,
    first_at INTEGER NOT NULL,
    last_at INTEGER NOT NULL,
    count INTEGER NOT NULL,
    data BLOB NOT NULL
  );
  CREATE TABLE keyframes (
    id INTEGER PRIMARY KEY,
    at INTEGER NOT NULL,
    after_batch INTEGER NOT NULL,
    objects INTEGER NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX keyframes_at ON keyframes (complete, at);
  CREATE TABLE keyframe_chunks (
    keyframe_id INTEGER NOT NULL,
    chunk INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (keyframe_id, chunk)
  );
  `,
  // v2: each change batch's headers ([at, op, kind, uid] per change) compressed on their own, so
  // a rebuild finds the newest change of each object before decompressing any object text.
  `ALTER TABLE delta_batches ADD COLUMN headers BLOB;`,
  // v3: `stalled` (the controller gave up) split off `progressing` (still rolling out); episodes
  // recorded before are re-derived from their samples.
  rederiveRolloutReasons,
  // v4: stored kinds are kind keys (`deployments.apps`), no longer the enum's names (kind-migration.ts).
  migrateKindKeys,
  // v5: custom resources are recorded (custom-sample.ts). Added columns only, null for every row
  // recorded before (built-in workloads, whose kind name their key gives): SQLite adds a
  // nullable column without rewriting the table, so a database of any size upgrades at once.
  `
  ALTER TABLE workloads ADD COLUMN kind_name TEXT;
  ALTER TABLE episodes ADD COLUMN state TEXT;
  ALTER TABLE episodes ADD COLUMN state_reason TEXT;
  ALTER TABLE episodes ADD COLUMN state_message TEXT;
  `,
  // v6: coverage and backfill (coverage.ts, backfill.ts): new tables only.
  COVERAGE_AND_INFERRED,
  // v7: an episode keeps the causes that explained it (episode-causes.ts), JSON; null before.
  `ALTER TABLE episodes ADD COLUMN causes TEXT;`,
  // v8: when a workload was out of view (access withdrawn, left-view.ts): a new table only.
  `
  CREATE TABLE IF NOT EXISTS unobserved (workload_id INTEGER NOT NULL, start_at INTEGER NOT NULL, end_at INTEGER, PRIMARY KEY (workload_id, start_at)) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS unobserved_end ON unobserved (end_at);
  `,
  // v9: a stretch out of view that ended with the workload gone (left-view.ts `listed`), and the
  // inferred rows by their last moment (backfill-run.ts, the timeline's lower bound). A nullable
  // column and an index (no table is rewritten), each added only when missing, as v8's.
  addUnobservedGone,
  // v10: `inferred_at` goes: no query reads by (fact, start) any more (the timeline seeks
  // `inferred_last`, a workload `inferred_workload`), and every backfill row paid for it
  // (an aged cluster's 21,451 upserts: 402-429 -> 275-294 ms).
  'DROP INDEX IF EXISTS inferred_at',
];

/** v9's step: SQLite's ADD COLUMN has no IF NOT EXISTS. */
function addUnobservedGone(db: DatabaseSync): void {
  const columns = db.prepare('PRAGMA table_info(unobserved)').all() as Array<{ name: string }>;
  if (!columns.some((column) => column.name === 'gone')) db.exec('ALTER TABLE unobserved ADD COLUMN gone INTEGER');
  db.exec('CREATE INDEX IF NOT EXISTS inferred_last ON inferred (fact, coalesce(end_at, at))');
}

export const SCHEMA_VERSION = MIGRATIONS.length;
