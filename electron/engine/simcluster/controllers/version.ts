/** The Kubernetes version the simulated control plane impersonates, for version-specific texts. */

/** What the controllers assume when not told (a current kubectl/kube-apiserver pairing). */
export const DEFAULT_KUBERNETES_VERSION = 'v1.32.2';

/** The minor number of `v1.31.4`-style versions (32 for anything unparseable). */
export function minorOf(version: string): number {
  const m = /^v?1\.(\d+)/.exec(version);
  return m ? Number(m[1]) : 32;
}
