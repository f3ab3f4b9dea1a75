/**
 * The Kubernetes release the simulated API server claims to be. kubectl's dispatcher picks its
 * client build by the minor version /version reports, and OpenAPI documents carry it in
 * `info.version`, so both must come from here.
 */
export const SIM_KUBERNETES_VERSION = 'v1.32.4';
