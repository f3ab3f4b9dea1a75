/**
 * The diff feature: implements the `diff:*` channels of shared/contracts/diff.ts for the selected
 * context. Settings (paths, ignore rules) are per context; the last run is kept in memory so rows
 * page, objects open and ignore rules re-evaluate without asking the cluster again; the paths are
 * watched and a run that was shown is refreshed when files change.
 */
import path from 'node:path';
import type { DiffConfig, DiffRow, DiffState, DiffSummary, IgnoreRule } from '../../../shared/contracts/diff.ts';
import type { diffRequests } from '../../../shared/contracts/diff.ts';
import { DEMO_CONTEXT } from '../../../shared/model.ts';
import { err, ok, type Result } from '../../../shared/result.ts';
import type { FileDialogs } from '../dialogs.ts';
import type { EngineContext, Feature } from '../features.ts';
import { choosePath } from './choose-path.ts';
import { createSchemaCache } from './cluster/crd-schema.ts';
import { EMPTY_CONFIG, loadConfig, saveConfig, type StoredDiffConfig } from './config-store.ts';
import { objectDiff } from './evaluate.ts';
import { addRule, exportArgoYaml, ruleProblem } from './ignore/rules.ts';
import { findKubectl } from './kubectl-bin.ts';
import { runKubectlDiff } from './kubectl-diff.ts';
import { inspectPath } from './load/index.ts';
import { runDiff, type DiffRunData, type RunPhase } from './run.ts';
import { demoManifestsDir } from '../simcluster/scenarios/demo-manifests.ts';
import { rowsOf, summaryOf } from './summary.ts';
import { watchPaths, type PathWatcher } from './watch.ts';

const PROGRESS_INTERVAL_MS = 100;
type Trigger = NonNullable<DiffState['trigger']>;

interface Shown {
  run: DiffRunData;
  rows: DiffRow[];
  summary: DiffSummary;
}

export interface DiffFeatureOptions {
  /** The desktop app's native dialogs (the "Choose folder…" button); absent in the browser shell. */
  dialogs?: FileDialogs | undefined;
}

export function createDiffFeature(context: EngineContext, options: DiffFeatureOptions = {}): Feature<typeof diffRequests> {
  let contextName: string | null = null;
  /** Whether contextName is the built-in demo cluster's own context (it gets the demo manifests). */
  let demoContext = false;
  let config: StoredDiffConfig = { ...EMPTY_CONFIG };
  let loading: Promise<void> = Promise.resolve();
  let shown: Shown | undefined;
  let running: Promise<Result<DiffSummary>> | undefined;
  let rerun = false;
  let watcher: PathWatcher | undefined;
  let generation = 0;
  // CRD list schemas outlive a run: keyed by context and CRD resourceVersion, so a changed CRD is read afresh.
  const schemaCache = createSchemaCache();

  const emit = (state: Omit<DiffState, 'context'>) => context.hub.emit('diff:changed', { context: contextName, ...state });

  async function rewatch(): Promise<void> {
    watcher?.stop();
    watcher = undefined;
    if (!contextName || config.paths.length === 0) return;
    const forGeneration = generation;
    const next = await watchPaths(config.paths, () => void onFilesChanged(), { log: context.log });
    if (forGeneration === generation) watcher = next;
    else next.stop();
  }

  function onFilesChanged(): void {
    if (!shown) return;
    if (running) rerun = true;
    else void start('files');
  }

  function switchTo(name: string | null): void {
    generation += 1;
    watcher?.stop();
    watcher = undefined;
    contextName = name;
    shown = undefined;
    config = { ...EMPTY_CONFIG };
    emit({ state: 'idle', done: 0, total: 0 });
    if (!name) return;
    const forGeneration = generation;
    loading = loadConfig(context.dataDir, name, context.log).then(async (loaded) => {
      if (forGeneration !== generation) return;
      config = loaded;
      await rewatch();
    });
  }

  async function currentConfig(): Promise<DiffConfig> {
    await loading;
    const paths = await Promise.all(config.paths.map((p) => inspectPath(p)));
    // The context this config is for (contextName), not whatever is selected by the time it answers.
    const demo = contextName !== null && demoContext;
    return {
      context: contextName,
      paths,
      ignores: config.ignores,
      kubectl: (await findKubectl()) !== undefined,
      picker: options.dialogs !== undefined,
      ...(demo ? { demoManifests: demoManifestsDir() } : {}),
    };
  }

  async function persist(next: StoredDiffConfig): Promise<void> {
    if (!contextName) throw new Error('no context is selected');
    config = next;
    await saveConfig(context.dataDir, contextName, next);
  }

  function show(run: DiffRunData, trigger: Trigger): DiffSummary {
    const rows = rowsOf(run, config.ignores);
    const summary = summaryOf(run, rows);
    shown = { run, rows, summary };
    emit({ state: 'done', trigger, done: summary.total, total: summary.total, summary });
    return summary;
  }

  async function execute(trigger: Trigger): Promise<Result<DiffSummary>> {
    await loading;
    const name = contextName;
    const forGeneration = generation;
    if (!name) return err('kubeconfig', 'No context is selected.');
    const readOnly = readOnlyRefusal();
    if (readOnly) return readOnly;
    if (config.paths.length === 0) return err('invalid-request', 'Choose a folder or file of manifests first.');
    let lastEmit = 0;
    let lastPhase: RunPhase | undefined;
    const onProgress = (phase: RunPhase, done: number, total: number) => {
      const now = Date.now();
      if (phase === lastPhase && done !== total && now - lastEmit < PROGRESS_INTERVAL_MS) return;
      lastEmit = now;
      lastPhase = phase;
      if (forGeneration === generation) emit({ state: 'running', trigger, phase, done, total });
    };
    try {
      const clientConfig = await context.clientConfig();
      if (!clientConfig) return err('kubeconfig', `The context "${name}" has no usable cluster configuration.`);
      const run = await runDiff({ paths: config.paths, config: clientConfig, context: name, namespace: context.selected()?.namespace, now: context.now, onProgress, schemaCache });
      if (forGeneration !== generation) return err('unavailable', 'The context changed while the diff ran; run it again.');
      return ok(show(run, trigger));
    } catch (error) {
      const message = `The diff could not reach the cluster: ${(error as Error).message}`;
      if (forGeneration === generation) emit({ state: 'error', trigger, done: 0, total: 0, message });
      return err('unreachable', message);
    }
  }

  function start(trigger: Trigger): Promise<Result<DiffSummary>> {
    running ??= execute(trigger).finally(() => {
      running = undefined;
      if (rerun) {
        rerun = false;
        void start('files');
      }
    });
    return running;
  }

  function reevaluate(): void {
    if (shown) show(shown.run, 'ignore');
  }

  function runOf(runId: string): Shown | undefined {
    return shown && shown.run.id === runId ? shown : undefined;
  }
  /** An opened snapshot has no live cluster to compare with. */
  function readOnlyRefusal() {
    return context.selected()?.readOnly
      ? err('unavailable', 'This context is an offline snapshot: there is no live cluster to diff against. Select a live context to diff manifests.')
      : undefined;
  }
  const gone = () => err('not-found', 'That diff result is no longer current (the files or the context changed); run the diff again.');

  const stopListening = context.onContextChange((selected) => {
    // Only the demo as its admin: the restricted demo user cannot read most of what they hold.
    demoContext = selected?.demo === true && selected.name === DEMO_CONTEXT;
    switchTo(selected?.name ?? null);
  });

  return {
    handlers: {
      'diff:config': async () => ok(await currentConfig()),
      'diff:inspect': async ({ path: given }) => ok(await inspectPath(given)),
      'diff:choose-path': async ({ kind }) => {
        await loading;
        return choosePath(options.dialogs, kind, config.paths.at(-1));
      },
      'diff:paths': async ({ paths }) => {
        await loading;
        if (!contextName) return err('kubeconfig', 'No context is selected.');
        const infos = await Promise.all(paths.map((p) => inspectPath(p)));
        const bad = infos.find((info) => !info.ok);
        if (bad) return err('invalid-request', `${bad.path}: ${bad.message}`);
        const unique = [...new Set(infos.map((info) => path.resolve(info.path)))];
        await persist({ ...config, paths: unique });
        shown = undefined;
        emit({ state: 'idle', done: 0, total: 0 });
        await rewatch();
        return ok(await currentConfig());
      },
      'diff:run': () => start('manual'),
      'diff:rows': ({ runId, offset, limit }) => {
        const current = runOf(runId);
        if (!current) return gone();
        return ok({ runId, offset, total: current.rows.length, rows: current.rows.slice(offset, offset + limit) });
      },
      'diff:object': ({ runId, id }) => {
        const current = runOf(runId);
        const object = current?.run.objects.find((o) => o.id === id);
        if (!current) return gone();
        if (!object) return err('not-found', `No object "${id}" in this diff.`);
        return ok(objectDiff(object, config.ignores, current.run.hpas));
      },
      'diff:ignore': async ({ rule }) => {
        await loading;
        const problem = ruleProblem(rule);
        if (problem) return err('invalid-request', problem);
        await persist({ ...config, ignores: addRule(config.ignores, rule as IgnoreRule) });
        reevaluate();
        return ok(await currentConfig());
      },
      'diff:unignore': async ({ index }) => {
        await loading;
        if (index >= config.ignores.length) return err('not-found', `There is no ignore rule number ${index + 1}.`);
        await persist({ ...config, ignores: config.ignores.filter((_, i) => i !== index) });
        reevaluate();
        return ok(await currentConfig());
      },
      'diff:export': async () => {
        await loading;
        return ok({ yaml: exportArgoYaml(config.ignores, contextName) });
      },
      'diff:kubectl': async () => {
        await loading;
        const readOnly = readOnlyRefusal();
        if (readOnly) return readOnly;
        if (config.paths.length === 0) return err('invalid-request', 'Choose a folder or file of manifests first.');
        const kubectl = await findKubectl();
        if (!kubectl) return err('unavailable', 'kubectl is not on PATH (see Diagnostics for the PATH Kubedrift uses).');
        const clientConfig = await context.clientConfig();
        if (!clientConfig) return err('kubeconfig', 'No context is selected.');
        return ok(await runKubectlDiff({ kubectl, config: clientConfig, paths: config.paths, cacheDir: path.join(context.dataDir, 'diff', 'kubectl-cache') }));
      },
    },
    dispose() {
      stopListening();
      generation += 1;
      watcher?.stop();
      watcher = undefined;
    },
  };
}
