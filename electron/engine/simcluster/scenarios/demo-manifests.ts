/**
 * The demo cluster's own manifests: a folder shipped with the app (beside the built-in scenarios,
 * copied to out/main/demo-manifests/ by the build) that the Diff screen offers on the demo
 * context, so one click shows what Diff does. Most files match what the demo scenario creates;
 * a few differ on purpose, each saying so in its header comment:
 *
 * - platform/auth.yaml: the Deployment's image tag and replica count (OutOfSync);
 * - platform/gateway-config.yaml: one key of a ConfigMap (OutOfSync);
 * - shop/orders-db.yaml: the storage of a custom resource, the database operator's Database (OutOfSync);
 * - shop/reviews.yaml: a Deployment the cluster does not have (Missing).
 *
 * payments/payments-api-tls.yaml, a cert-manager Certificate, matches (a custom resource InSync).
 * The demo's timeline never touches these objects except orders-db, whose version and replica
 * count it changes for a few minutes of each cycle (its storage difference stays).
 */
import { fileURLToPath } from 'node:url';

/** The folder, found beside this module (in the bundle: out/main/demo-manifests). */
export function demoManifestsDir(): string {
  return fileURLToPath(new URL('./demo-manifests', import.meta.url));
}
