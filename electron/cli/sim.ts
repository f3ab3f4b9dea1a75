/** `kubedrift sim`: the simulated cluster as a standalone API server for kubectl and friends. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { startSimCluster } from '../engine/simcluster/index.ts';
import { userContextName } from '../engine/simcluster/rbac/kubeconfig-users.ts';
import { parseUserFlag, restrictedPresetUser, type PresetUser } from '../engine/simcluster/rbac/preset-users.ts';
import { DEFAULT_CONTEXT_NAME } from '../engine/simcluster/server/kubeconfig.ts';
import { parseFlags, parsePort, UsageError } from './args.ts';
import { parseClusterSize, seedCluster } from './sim-size.ts';

export const SIM_HELP = `Usage: kubedrift sim [--port N] [--scenario demo|minimal|FILE] [--write-kubeconfig FILE] [--user NAME=ROLE[:NS,...]]... [--token T] [--http] [--http2] [--kubernetes-minor N] [--speed X] [--pods N --nodes N --namespaces N]

Runs the simulated Kubernetes cluster (API server, controllers and a scenario) on 127.0.0.1.
Prints
  simcluster listening on https://127.0.0.1:PORT
when ready. Point kubectl at it with --write-kubeconfig FILE and KUBECONFIG=FILE.

  --port N               port (default 0: any free port)
  --scenario NAME|FILE   built-in scenario (demo, minimal) or a scenario YAML file (default demo)
  --write-kubeconfig F   write a kubeconfig for this cluster to F
  --user NAME=ROLE[:NS,...]
                         add a user with a preset role, bound in the listed namespaces or
                         cluster-wide; the kubeconfig gets a context <context>-NAME with its
                         client certificate (repeatable). Roles are the default ClusterRoles:
                           cluster-admin  everything
                           admin          read and write, RBAC within the namespace too
                           edit           read and write most objects, no RBAC
                           view           read most objects (not Secrets)
                           none           nothing beyond discovery and the self-reviews
                         A user with namespaces is set up like the demo's kubedrift-demo-dev:
                         it may also list and watch namespaces (ClusterRole namespace-viewer)
                         and its context namespace is the first one listed, e.g.
                         --user dev=view:shop,payments is the demo's developer
  --token T              require this bearer token
  --read-only-token T    also accept T, refusing its writes with 403
  --http                 serve plain HTTP instead of HTTPS with a per-run CA
  --http2                also serve HTTP/2 (ALPN h2, as kube-apiserver; HTTPS only)
  --kubernetes-minor N   the minor version /version reports (27-33; default 32)
  --speed X              run the scenario X times faster
  --pods N --nodes N --namespaces N
                         add a cluster of this size (Running pods of a real pod's size in
                         Deployments of up to 50, evenly over the nodes and namespaces
                         churn-000...), up to Kubernetes' ceiling of 150,000 pods on 5,000 nodes;
                         with the minimal scenario and no controllers unless --scenario is given
                         (--user may bind namespaces churn-NNN)`;

/** "view in shop, payments; may list namespaces; context namespace shop". */
function describeUser(user: PresetUser): string {
  const scope = user.namespaces ? ` in ${user.namespaces.join(', ')}` : user.role === 'none' ? '' : ' cluster-wide';
  const extras = [...(user.namespaceViewer ? ['may list namespaces'] : []), ...(user.contextNamespace ? [`context namespace ${user.contextNamespace}`] : [])];
  return [`${user.role}${scope}`, ...extras].join('; ');
}

export async function simCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    port: { type: 'string' },
    scenario: { type: 'string' },
    'write-kubeconfig': { type: 'string' },
    user: { type: 'string', multiple: true },
    token: { type: 'string' },
    'read-only-token': { type: 'string' },
    http: { type: 'boolean' },
    http2: { type: 'boolean' },
    'kubernetes-minor': { type: 'string' },
    speed: { type: 'string' },
    pods: { type: 'string' },
    nodes: { type: 'string' },
    namespaces: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(SIM_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`sim takes no arguments, got "${positionals[0]}"`);
  const port = parsePort(values.port, 0);
  if (values.http2 && values.http) throw new UsageError('--http2 needs HTTPS: kube-apiserver offers HTTP/2 only through TLS (ALPN), so it cannot be combined with --http');
  let minor: number | undefined;
  if (values['kubernetes-minor'] !== undefined) {
    minor = Number(values['kubernetes-minor']);
    if (!Number.isInteger(minor) || minor < 20 || minor > 40) throw new UsageError(`--kubernetes-minor must be a whole number such as 32, got "${values['kubernetes-minor']}"`);
  }
  let speed: number | undefined;
  if (values.speed !== undefined) {
    speed = Number(values.speed);
    if (!(speed > 0 && speed <= 1000)) throw new UsageError(`--speed must be a number above 0 and at most 1000, got "${values.speed}"`);
  }
  const users: PresetUser[] = [];
  for (const flag of values.user ?? []) {
    try {
      users.push(restrictedPresetUser(parseUserFlag(flag)));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
  }
  const duplicate = users.find((user, i) => users.findIndex((other) => other.name === user.name) !== i);
  if (duplicate) throw new UsageError(`--user ${duplicate.name} is given twice`);
  const size = parseClusterSize(values);
  const cluster = await startSimCluster({
    ...(size ? { seed: (store) => seedCluster(store, size), controllers: values.scenario !== undefined, scenario: 'minimal' } : {}),
    ...(users.length ? { users } : {}),
    ...(values.scenario ? { scenario: values.scenario } : {}),
    port,
    tls: !values.http,
    ...(values.http2 ? { http2: true } : {}),
    ...(values.token ? { token: values.token } : {}),
    ...(values['read-only-token'] ? { readOnlyToken: values['read-only-token'] } : {}),
    ...(minor !== undefined ? { kubernetesMinor: minor } : {}),
    ...(speed !== undefined ? { speed } : {}),
  });
  if (values['write-kubeconfig']) {
    const file = path.resolve(values['write-kubeconfig']);
    await writeFile(file, cluster.kubeconfigWithUsers(), { mode: 0o600 });
    console.log(`kubeconfig written to ${file}`);
    for (const { user } of cluster.users) console.log(`  context ${userContextName(DEFAULT_CONTEXT_NAME, user.name)}: ${describeUser(user)}`);
  }
  if (size) console.log(`seeded ${size.pods} pods on ${size.nodes} nodes in ${size.namespaces} namespaces`);
  console.log(`simcluster listening on ${cluster.server.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await cluster.stop();
  return 0;
}
