/**
 * The context picker's source of truth: kubeconfig contexts plus the always-offered demo context,
 * the selection (remembered across runs) and the per-file load report.
 */
import { DEMO_CONTEXT, DEMO_DEV_CONTEXT, DEMO_DEV_CONTEXT_NAMESPACE, type ContextInfo, type ContextList } from '../../../shared/model.ts';
import {
  describeContexts,
  loadKubeconfigs,
  resolveKubeconfigPaths,
  singleContextConfig,
  type MergedKubeconfig,
  type ResolveOptions,
} from './kubeconfig.ts';

export const DEMO_CONTEXT_INFO: ContextInfo = {
  name: DEMO_CONTEXT,
  cluster: DEMO_CONTEXT,
  user: DEMO_CONTEXT,
  source: 'built-in',
  demo: true,
};

/** The demo cluster as the restricted user "dev" (view in shop and payments only). */
export const DEMO_DEV_CONTEXT_INFO: ContextInfo = { ...DEMO_CONTEXT_INFO, name: DEMO_DEV_CONTEXT, user: DEMO_DEV_CONTEXT, namespace: DEMO_DEV_CONTEXT_NAMESPACE };

const DEMO_CONTEXT_INFOS = [DEMO_CONTEXT_INFO, DEMO_DEV_CONTEXT_INFO];

export class ContextRegistry {
  private merged: MergedKubeconfig | null = null;
  private contexts: ContextInfo[] = [...DEMO_CONTEXT_INFOS];
  /** Read-only contexts of opened snapshot files (engine/snapshot/), listed after the kubeconfig's. */
  private extras: ContextInfo[] = [];
  private selected: string | null = null;

  private readonly resolve: ResolveOptions;

  constructor(resolve: ResolveOptions) {
    this.resolve = resolve;
  }

  /**
   * Re-reads the kubeconfig files. Never throws; problems are in `list().sources`. A selected
   * context that is gone (its file deleted or broken) falls back to the kubeconfig's
   * current-context, else the demo, so the app never shows a context that no longer exists.
   */
  async reload(): Promise<void> {
    const { paths, explicit } = resolveKubeconfigPaths(this.resolve);
    this.merged = await loadKubeconfigs(paths, { explicit });
    const described = describeContexts(this.merged);
    // A kubeconfig context of the same name wins over a built-in demo context.
    const demos = DEMO_CONTEXT_INFOS.filter((demo) => !described.some((context) => context.name === demo.name));
    this.contexts = [...described, ...demos];
    if (this.selected !== null && !this.has(this.selected)) this.selected = this.chooseInitial([]);
  }

  /** The kubeconfig files this registry reads, in merge order (whether or not they exist). */
  paths(): string[] {
    return resolveKubeconfigPaths(this.resolve).paths;
  }

  /** The merged kubeconfig as last read; null before the first `reload()`. */
  kubeconfig(): MergedKubeconfig | null {
    return this.merged;
  }

  has(name: string): boolean {
    return this.all().some((context) => context.name === name);
  }

  get(name: string): ContextInfo | undefined {
    return this.all().find((context) => context.name === name);
  }

  private all(): ContextInfo[] {
    return [...this.contexts, ...this.extras];
  }

  /** Replaces the snapshot contexts; a selected one that is gone falls back as in `reload()`. */
  setExtraContexts(contexts: readonly ContextInfo[]): void {
    this.extras = contexts.filter((extra) => !this.contexts.some((context) => context.name === extra.name));
    if (this.selected !== null && !this.has(this.selected)) this.selected = this.chooseInitial([]);
  }

  /** The first usable of: the requested name, the remembered one, kubeconfig's current, the demo. */
  chooseInitial(candidates: Array<string | null | undefined>): string {
    for (const name of [...candidates, this.merged?.currentContext]) {
      if (name && this.has(name)) return name;
    }
    return DEMO_CONTEXT;
  }

  select(name: string): void {
    if (!this.has(name)) throw new Error(`context "${name}" is not in any kubeconfig`);
    this.selected = name;
  }

  selectedName(): string | null {
    return this.selected;
  }

  /** A single-context kubeconfig for client libraries; undefined for the demo context. */
  clientConfig(name: string): object | undefined {
    const info = this.get(name);
    if (!info || info.demo || !this.merged) return undefined;
    return singleContextConfig(this.merged, name);
  }

  list(): ContextList {
    return {
      contexts: this.all().map((context) => ({ ...context })),
      selected: this.selected,
      kubeconfigCurrent: this.merged?.currentContext ?? null,
      sources: this.merged?.sources.map((source) => ({ ...source })) ?? [],
    };
  }
}
