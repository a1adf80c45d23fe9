import { isDict, type PyValue } from '../../model/py-value';
import { rewardValue } from '../../model/reward-value';
import type { SampleFacts } from '../../model/sample-facts';
import { stableText, textHash } from '../../model/text-hash';

/**
 * What the explorer keeps of one slime sample (a dict of slime's Sample fields) once its row is
 * built: every rule that figures, run joins and compare apply to a sample's fields, in one
 * place. null for anything but a plain dict (no row is built from it either).
 */
export function slimeSampleFacts(sample: PyValue): SampleFacts | null {
  if (!isDict(sample)) return null;
  const group = sample.group_index;
  const length = sample.response_length;
  const versions = sample.weight_versions;
  const prompt = sample.prompt;
  return {
    // trend figures group by String(group): 3 and '3' are one group there
    groupIndex: typeof group === 'number' || typeof group === 'string' ? group : null,
    reward: rewardValue(sample.reward),
    responseLength: finiteNumber(length),
    status: typeof sample.status === 'string' ? sample.status : null,
    weightVersions: weightVersionsOf(versions),
    startRolloutId: startRolloutIdOf(sample.metadata),
    // a 64-bit hash of the text, not the text: compare only asks whether two prompts are equal
    promptHash: prompt === undefined || prompt === null ? null : textHash(stableText(prompt)),
  };
}

/** One empty list for every sample without versions: 100k of their own were 1.6 MB. */
const NO_VERSIONS: readonly string[] = Object.freeze([]);

/** The versions as strings, nulls left out (run joins compare them as numbers later). */
function weightVersionsOf(versions: PyValue | undefined): readonly string[] {
  if (!Array.isArray(versions)) return NO_VERSIONS;
  const kept = versions.filter((v) => v !== null && v !== undefined).map((v) => String(v));
  return kept.length === 0 ? NO_VERSIONS : kept;
}

/** A finite number, or a pickled int too big for a small int (bigint) as a number; else null. */
function finiteNumber(value: PyValue | undefined): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'bigint') return Number(value);
  return null;
}

/** Partial rollout: `metadata.start_rollout_id`, the rollout where the sample started. */
function startRolloutIdOf(metadata: PyValue | undefined): number | null {
  if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) return null;
  const id = (metadata as Record<string, PyValue>).start_rollout_id;
  if (typeof id === 'number' && Number.isInteger(id)) return id;
  if (typeof id === 'bigint') return Number(id);
  return null;
}
