/** Types of slime-dump-writer.mjs (see its comments) for the TypeScript tests that use it. */
export interface SlimeDumpShape {
  rolloutId?: number;
  seed?: number;
  slowdown?: number;
  rewardScale?: number;
  /** leading groups (8 samples each) resumed from an earlier rollout (slime's partial rollout) */
  resumedGroups?: number;
  /** how many rollouts back they started (default 1) */
  resumedFrom?: number;
  /** give every sample metadata.start_rollout_id */
  markStartRolloutId?: boolean;
  /** samples per APPENDS (default 1000, as CPython's pickler) */
  batchSize?: number;
  /** each sample a pickled slime `Sample` object (NEWOBJ, BUILD) instead of a dict */
  sampleObjects?: boolean;
  /** two tensors a sample (routed experts int32, teacher log probs float32), stored in the archive */
  tensors?: boolean;
  /** paths of fixture dumps whose samples are written again (new ids, times, token ids) */
  realSamples?: string[];
}

export function writeSlimeDump(
  path: string,
  targetBytes: number,
  tokensPerSample?: number,
  maxSamples?: number,
  shape?: SlimeDumpShape,
): number;

/** xorshift32 in [0, 1) from a seed */
export function random(seed: number): () => number;
