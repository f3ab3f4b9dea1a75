/** A frame stream on a manual clock, recording what it emits, for the stream tests. */
import { ObjectCache } from '../../../../electron/engine/stream/cache.ts';
import { createFrameStream, type FrameStream, type FrameStreamOptions } from '../../../../electron/engine/stream/batcher.ts';
import { ManualClock } from '../../../../electron/engine/simcluster/controllers/runtime.ts';
import type { ClusterFrame } from '../../../../shared/cluster.ts';

export type DeltaFrame = Extract<ClusterFrame, { type: 'delta' }>;

export interface Harness {
  cache: ObjectCache;
  clock: ManualClock;
  stream: FrameStream;
  frames: ClusterFrame[];
  deltas(): DeltaFrame[];
  /** Exact JSON bytes of each frame emitted so far. */
  sizes(): number[];
}

export function harness(options: Partial<Omit<FrameStreamOptions, 'cache' | 'emit' | 'clock'>> = {}): Harness {
  const cache = new ObjectCache();
  const clock = new ManualClock(0);
  const frames: ClusterFrame[] = [];
  const stream = createFrameStream({ epoch: 'e1', context: 'test', ...options, cache, clock, emit: (frame) => frames.push(frame) });
  return {
    cache,
    clock,
    stream,
    frames,
    deltas: () => frames.filter((frame): frame is DeltaFrame => frame.type === 'delta'),
    sizes: () => frames.map((frame) => Buffer.byteLength(JSON.stringify(frame))),
  };
}
