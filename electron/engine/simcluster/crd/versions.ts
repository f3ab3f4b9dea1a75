/**
 * Kubernetes' version priority (apimachinery `version.CompareKubeAwareVersionStrings`): GA before
 * beta before alpha, higher majors first, then higher beta/alpha numbers; names that do not look
 * like `v1`, `v2beta1`, `v1alpha3` come last, in alphabetical order. Discovery lists a group's
 * versions in this order and its first served version is the preferred one.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const STABILITY: Record<string, number> = { '': 3, beta: 2, alpha: 1 };

interface Parsed {
  major: number;
  stability: number;
  minor: number;
}

function parse(version: string): Parsed | undefined {
  const match = KUBE_VERSION.exec(version);
  if (!match) return undefined;
  return { major: Number(match[1]), stability: STABILITY[match[2] ?? ''] ?? 0, minor: Number(match[3] ?? 0) };
}

/** Negative when `a` has the higher priority (sorts first), positive when `b` does. */
export function compareVersionPriority(a: string, b: string): number {
  const pa = parse(a);
  const pb = parse(b);
  if (pa && !pb) return -1;
  if (!pa && pb) return 1;
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  if (pa.stability === 3 && pb.stability === 3) return pb.major - pa.major;
  if (pa.stability !== pb.stability) return pb.stability - pa.stability;
  if (pa.major !== pb.major) return pb.major - pa.major;
  return pb.minor - pa.minor;
}

/** The versions in priority order (a new array). */
export function sortByVersionPriority(versions: readonly string[]): string[] {
  return [...versions].sort(compareVersionPriority);
}
