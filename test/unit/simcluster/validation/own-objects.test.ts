/**
 * Everything the simulator itself stores (defaulted manifests, controller-made ReplicaSets,
 * pods, events, statuses) must pass strict decoding, or kubectl's patches of those objects
 * would be refused for fields the user never wrote.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import { applyDefaults, validate } from '../../../../electron/engine/simcluster/defaults/index.ts';
import { RESOURCE_TYPES } from '../../../../electron/engine/simcluster/resources.ts';
import { loadScenario } from '../../../../electron/engine/simcluster/scenarios/load.ts';
import { runScenario } from '../../../../electron/engine/simcluster/scenarios/runner.ts';
import { scaleOf } from '../../../../electron/engine/simcluster/server/scale.ts';
import { storageType, toWire } from '../../../../electron/engine/simcluster/server/wire.ts';
import { ObjectStore } from '../../../../electron/engine/simcluster/store.ts';
import { modelFor } from '../../../../electron/engine/simcluster/validation/models.ts';
import { decodeTyped } from '../../../../electron/engine/simcluster/validation/strict.ts';

describe('objects the simulator stores', () => {
  it('decode strictly into their client-node models after a stretch of the demo scenario', () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12, 0, 0));
    const store = new ObjectStore({ now: () => clock.now() });
    const run = runScenario({ scenario: loadScenario('demo'), store, clock, applyDefaults, validate: (type, object, old) => validate(type, object, old) });
    for (let s = 0; s < 240; s += 1) {
      clock.advance(1_000);
      run.manager?.drain();
    }
    run.stop();

    const problems: string[] = [];
    const seen = new Set<string>();
    for (const type of RESOURCE_TYPES) {
      for (const stored of store.all(storageType(type))) {
        const objects = type.subresources.includes('scale') ? [toWire(type, stored), scaleOf(stored)] : [toWire(type, stored)];
        for (const object of objects) {
          const model = modelFor(object.apiVersion, object.kind);
          if (!model) throw new Error(`no model for ${object.apiVersion} ${object.kind}`);
          seen.add(model);
          const decoded = decodeTyped(model, object);
          for (const path of decoded.unknownFields) problems.push(`${object.kind} ${object.metadata.name}: unknown ${path}`);
          if (decoded.typeError) problems.push(`${object.kind} ${object.metadata.name}: ${decoded.typeError.path} is a ${decoded.typeError.value}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect([...seen].sort()).toEqual(
      ['CoreV1Event', 'EventsV1Event', 'V1ConfigMap', 'V1ControllerRevision', 'V1CronJob', 'V1CustomResourceDefinition', 'V1DaemonSet', 'V1Deployment', 'V1Endpoints', 'V1Job', 'V1Namespace', 'V1Node', 'V1Pod', 'V1ReplicaSet', 'V1Scale', 'V1Secret', 'V1Service', 'V1StatefulSet', 'V2HorizontalPodAutoscaler'].sort(),
    );
  });
});
