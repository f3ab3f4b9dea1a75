/**
 * Diffing as a user who may read only some namespaces (the demo's developer: view in shop and
 * payments): an object in a namespace the user cannot read gets its own Error row with the
 * server's 403 message, and the objects in the readable namespaces still diff.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDiff } from '../../../../electron/engine/diff/run.ts';
import { rowsOf, summaryOf } from '../../../../electron/engine/diff/summary.ts';
import { startDemoWithDeveloper } from '../../../../electron/engine/simcluster/demo-users.ts';
import type { SimCluster } from '../../../../electron/engine/simcluster/index.ts';
import { withTempDir } from '../../../helpers/tmp.ts';

let cluster: SimCluster;
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  cluster = await startDemoWithDeveloper({ controllers: false, onError: () => {} });
  ({ dir, cleanup } = await withTempDir('kubedrift-diff-restricted-'));
});
afterAll(async () => {
  await cleanup?.();
  await cluster?.stop();
});

const configMap = (namespace: string, name: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${namespace}\ndata:\n  greeting: hello\n`;

describe('diffing as a user who may read only some namespaces', () => {
  it("gives an object in a forbidden namespace an Error row with the server's 403 message; the readable namespace still diffs", async () => {
    await writeFile(path.join(dir, 'shop.yaml'), configMap('shop', 'greeting'));
    await writeFile(path.join(dir, 'platform.yaml'), configMap('platform', 'greeting'));
    const run = await runDiff({ paths: [dir], config: cluster.userKubeconfigObject('dev', 'kubedrift-demo-dev'), context: 'kubedrift-demo-dev', kubectl: null });
    const rows = rowsOf(run, []);
    const platform = rows.find((row) => row.namespace === 'platform');
    const shop = rows.find((row) => row.namespace === 'shop');
    expect(platform).toMatchObject({ kind: 'ConfigMap', name: 'greeting', status: 'Error' });
    expect(platform?.reason).toBe('not allowed to read configmaps "greeting" in namespace "platform": configmaps "greeting" is forbidden: User "dev" cannot get resource "configmaps" in API group "" in the namespace "platform"');
    // dev may read shop but not write there: the missing object is predicted client-side, flagged approximate.
    expect(shop).toMatchObject({ kind: 'ConfigMap', name: 'greeting', status: 'Missing' });
    expect(summaryOf(run, rows).counts).toEqual({ InSync: 0, OutOfSync: 0, Missing: 1, Error: 1 });
  });
});
