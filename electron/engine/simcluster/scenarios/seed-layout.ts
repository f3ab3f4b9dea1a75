/**
 * How a cluster of a given size is laid out for the churn generator's seeding (churn.ts): N pods
 * in N namespaces on N nodes become namespaces x Deployments x pods per Deployment, and pods per
 * node. Shared by `kubedrift sim --pods N --nodes N --namespaces N` and the bench's scale
 * scenario, so both seed the same cluster for the same numbers.
 */

/** Sizes a user asks for. */
export interface ClusterSize {
  pods: number;
  nodes: number;
  namespaces: number;
}

/** The churn generator's seeding options for a ClusterSize (see ChurnOptions). */
export interface SeedLayout {
  namespaces: number;
  deploymentsPerNamespace: number;
  podsPerDeployment: number;
  podsPerNode: number;
}

/** Kubernetes' documented ceiling: 150,000 pods on 5,000 nodes (kubernetes.io "Considerations for large clusters"). */
export const MAX_PODS = 150_000;
export const MAX_NODES = 5_000;
/** Pods per Deployment at most: 50, as the bench's 50,000-pod cluster has. */
const MAX_PODS_PER_DEPLOYMENT = 50;
/** kubelet's default max-pods. */
const MAX_PODS_PER_NODE = 110;

function whole(name: string, value: number, min: number, max: number): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}, got ${value}`);
}

/** The layout of `size`; throws a message naming the flag when a number cannot be laid out. */
export function seedLayout(size: ClusterSize): SeedLayout {
  whole('pods', size.pods, 1, MAX_PODS);
  whole('nodes', size.nodes, 1, MAX_NODES);
  whole('namespaces', size.namespaces, 1, 10_000);
  if (size.pods % size.namespaces !== 0) throw new Error(`--pods (${size.pods}) must be a multiple of --namespaces (${size.namespaces}): each namespace gets the same number of pods`);
  const podsPerNode = Math.ceil(size.pods / size.nodes);
  if (podsPerNode > MAX_PODS_PER_NODE) throw new Error(`${size.pods} pods on ${size.nodes} nodes is ${podsPerNode} pods per node, above kubelet's ${MAX_PODS_PER_NODE}: give at least ${Math.ceil(size.pods / MAX_PODS_PER_NODE)} nodes`);
  if (Math.ceil(size.pods / podsPerNode) !== size.nodes) throw new Error(`${size.pods} pods cannot fill exactly ${size.nodes} nodes evenly; try --nodes ${Math.ceil(size.pods / podsPerNode)}`);
  const perNamespace = size.pods / size.namespaces;
  let podsPerDeployment = Math.min(MAX_PODS_PER_DEPLOYMENT, perNamespace);
  while (perNamespace % podsPerDeployment !== 0) podsPerDeployment -= 1;
  return { namespaces: size.namespaces, deploymentsPerNamespace: perNamespace / podsPerDeployment, podsPerDeployment, podsPerNode };
}
