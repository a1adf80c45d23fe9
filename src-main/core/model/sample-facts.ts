import type { ByteSource } from '../bytes/byte-source';
import type { PyValue } from './py-value';

/**
 * What the explorer keeps in memory of each sample once its row is built: what figures, run
 * joins and compare read of every sample at once. The rest of a sample (prompt, response,
 * token lists, metadata) is read from the file again when a user opens it (TraceSamples.read):
 * kept, 100k samples' dicts were the largest part of an open dump's memory.
 */
export interface SampleFacts {
  /** the sample's group (GRPO's prompt group) as the sample says it, or null */
  groupIndex: number | string | null;
  /** the reward as one number (model/reward-value.ts), or null */
  reward: number | null;
  /** the response length as a finite number, or null */
  responseLength: number | null;
  /** the sample's status as it says it ('completed', 'truncated', 'aborted'), or null */
  status: string | null;
  /** the policy weight versions that generated it, as strings, nulls left out */
  weightVersions: readonly string[];
  /** partial rollout: the rollout where the sample started, or null when it does not say */
  startRolloutId: number | null;
  /** a 64-bit hash of the prompt's text (16 hex digits, model/text-hash.ts), or null */
  promptHash: string | null;
}

/** Opens the file's bytes for `use` only (a details request), and closes them after. */
export type WithBytes = <T>(use: (bytes: ByteSource) => T) => T;

/** A file's samples (capabilities.samples): their facts in memory, the whole ones on demand. */
export interface TraceSamples {
  /** samples read (what labels.samples counts), traced or not */
  readonly count: number;
  /** facts by row_id (= the sample's index); null where the entry is not a sample dict */
  readonly facts: readonly (SampleFacts | null)[];
  /**
   * The whole sample at `rowId` as the file holds it (its trace left out; heavy lists as byte
   * ranges), read again through `withBytes` when it was not kept; undefined past the end.
   */
  read(rowId: number, withBytes: WithBytes): PyValue | undefined;
}

/** A format without samples (OTLP, Chrome, timelines). */
export const NO_SAMPLES: TraceSamples = {
  count: 0,
  facts: [],
  read: () => undefined,
};
