/**
 * `kubedrift diff PATH...`: the app's diff engine without the app, for scripts and CI. Reads the
 * kubeconfig like kubectl (`--kubeconfig`, else $KUBECONFIG, else ~/.kube/config), diffs every
 * manifest under the paths against the context's cluster and exits like `kubectl diff`: 0 no
 * differences, 1 differences, 2 an error (bad input, no cluster). Every failure is caught here,
 * so no error can masquerade as exit code 1.
 */
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import { parse } from 'yaml';
import { z } from 'zod';
import { IgnoreRuleSchema, type IgnoreRule } from '../../shared/contracts/diff.ts';
import { ContextRegistry } from '../engine/cluster/contexts.ts';
import { ruleProblem } from '../engine/diff/ignore/rules.ts';
import { inspectPath } from '../engine/diff/load/index.ts';
import { runDiff } from '../engine/diff/run.ts';
import { parseFlags, UsageError } from './args.ts';
import { EXIT_ERROR, jsonOutput, textOutput } from './diff-output.ts';

export const DIFF_HELP = `Usage: kubedrift diff PATH... [--kubeconfig FILE] [--context NAME] [--ignore FILE] [--json]

Diffs local manifests (.yaml, .yml, .json files and folders of them, recursively; kustomizations
rendered with kubectl) against the live cluster, as "kubectl diff --server-side" would: the
predicted state is the server's own dry run. Prints kubectl-style unified diffs; Secret values
are masked.

  --kubeconfig FILE  read only this kubeconfig (default: $KUBECONFIG, else ~/.kube/config)
  --context NAME     use this context (default: the kubeconfig's current-context)
  --ignore FILE      ignore rules: Argo CD ignoreDifferences YAML (as Kubedrift exports it)
  --json             print one JSON object: every object's status, differing fields and owners

Exit status: 0 no differences, 1 differences, 2 an error (bad input, cluster unreachable).`;

const IgnoreFileSchema = z.object({ ignoreDifferences: z.array(IgnoreRuleSchema) }).or(z.array(IgnoreRuleSchema));

async function readIgnores(file: string): Promise<IgnoreRule[]> {
  let document: unknown;
  try {
    document = parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`--ignore ${file}: ${(error as Error).message.split('\n')[0]}`);
  }
  const parsed = IgnoreFileSchema.safeParse(document);
  if (!parsed.success) throw new UsageError(`--ignore ${file}: expected "ignoreDifferences:" with a list of rules (group, kind, jsonPointers, jqPathExpressions, managedFieldsManagers): ${parsed.error.issues[0]?.message ?? ''}`);
  const rules = Array.isArray(parsed.data) ? parsed.data : parsed.data.ignoreDifferences;
  for (const rule of rules) {
    const problem = ruleProblem(rule);
    if (problem) throw new UsageError(`--ignore ${file}: ${problem}`);
  }
  return rules;
}

/** The context to diff against and its client configuration; usage errors for anything unusable. */
async function resolveContext(kubeconfig: string | undefined, wanted: string | undefined) {
  const registry = new ContextRegistry({ explicit: kubeconfig, env: process.env, homeDir: os.homedir() });
  await registry.reload();
  const list = registry.list();
  const problems = list.sources.filter((source) => source.state === 'error').map((source) => `${source.path}: ${source.message ?? 'unreadable'}`);
  const usable = list.contexts.filter((context) => !context.demo).map((context) => context.name);
  const name = wanted ?? list.kubeconfigCurrent ?? undefined;
  if (!name) {
    const where = list.sources.map((source) => source.path).join(', ') || '(none)';
    throw new UsageError(`no context to diff against: ${usable.length ? `pass --context (contexts: ${usable.join(', ')})` : `no kubeconfig with a context was found (looked at ${where})`}${problems.length ? `; ${problems.join('; ')}` : ''}`);
  }
  const info = registry.get(name);
  if (!info || info.demo) throw new UsageError(`context "${name}" is not in the kubeconfig${usable.length ? ` (contexts: ${usable.join(', ')})` : ''}`);
  if (info.problem) throw new UsageError(`context "${name}": ${info.problem}`);
  const config = registry.clientConfig(name);
  if (!config) throw new UsageError(`context "${name}" has no usable cluster configuration`);
  return { name, config, namespace: info.namespace, server: info.server };
}

async function diffMain(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    kubeconfig: { type: 'string' },
    context: { type: 'string' },
    ignore: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(DIFF_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('diff needs at least one PATH (a manifest file or a folder of manifests)');
  for (const given of positionals) {
    const info = await inspectPath(given);
    if (!info.ok) throw new UsageError(`${info.path}: ${info.message}`);
  }
  const rules = values.ignore ? await readIgnores(values.ignore) : [];
  const context = await resolveContext(values.kubeconfig, values.context);
  let run;
  try {
    run = await runDiff({ paths: positionals, config: context.config, context: context.name, namespace: context.namespace });
  } catch (error) {
    console.error(`kubedrift diff: cannot reach the cluster of context "${context.name}"${context.server ? ` (${context.server})` : ''}: ${(error as Error).message}`);
    return EXIT_ERROR;
  }
  const output = values.json ? jsonOutput(run, rules, context.server) : textOutput(run, rules);
  process.stdout.write(output.stdout);
  process.stderr.write(output.stderr);
  return output.code;
}

export async function diffCommand(argv: string[]): Promise<number> {
  try {
    return await diffMain(argv);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    console.error(`kubedrift diff: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_ERROR;
  }
}
