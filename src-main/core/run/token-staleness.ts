import type { RunFileDigest, RunVersionSync } from '../model/run';
import type { RunSampleFigures, RunSampleRequestFigures } from '../model/run-extra';
import { versionInForce } from './version-in-force';

/**
 * The trainer's weight version when it trained this rollout: the version in force at its first
 * training record (the trainer timeline's train_forward_backward with this rollout_id); without
 * a timeline, the newest version among the rollout's samples (what today's stale count uses).
 */
export function trainerVersionOf(
  files: RunFileDigest[],
  rollout: RunFileDigest,
  syncs: RunVersionSync[],
): number | null {
  const starts = files
    .flatMap((f) => f.trainer?.trainingStarts ?? [])
    .filter((s) => String(s.rolloutId) === String(rollout.rolloutId))
    .map((s) => s.startSec);
  if (starts.length > 0) {
    const version = versionInForce(syncs, Math.min(...starts));
    if (version !== null) return version;
  }
  const versions = rollout.samples
    .flatMap((s) => s.weightVersions.map(Number))
    .filter((v) => Number.isFinite(v));
  return versions.length > 0 ? Math.max(...versions) : null;
}

/**
 * verl's token staleness of one sample (verl/utils/metric/behavior_age.py): each generate
 * call's tokens aged by the trainer's version minus the call's weight_version. A call's tokens
 * are its record's completion_tokens when request metrics joined (scaled to the sample's
 * `tokens`: loss-masked ones when the train dump joined); else the sample's tokens are shared
 * equally among its weight_versions (one call: all of them).
 */
export function sampleStaleness(
  trainerVersion: number | null,
  weightVersions: readonly string[],
  requests: RunSampleRequestFigures[],
  tokens: number | null,
): RunSampleFigures['staleness'] {
  if (trainerVersion === null || tokens === null || tokens <= 0) return null;
  let calls: { version: number; weight: number }[] = requests
    .filter((r) => r.weightVersion !== null && (r.completionTokens ?? 0) > 0)
    .map((r) => ({ version: Number(r.weightVersion), weight: r.completionTokens! }))
    .filter((c) => Number.isFinite(c.version));
  if (calls.length === 0)
    calls = weightVersions
      .map(Number)
      .filter((v) => Number.isFinite(v))
      .map((version) => ({ version, weight: 1 }));
  if (calls.length === 0) return null;
  const total = calls.reduce((n, c) => n + c.weight, 0);
  let sum = 0;
  let staleTokens = 0;
  let max = -Infinity;
  let min = Infinity;
  for (const call of calls) {
    const age = trainerVersion - call.version;
    const share = (tokens * call.weight) / total;
    sum += age * share;
    if (age > 0) staleTokens += share;
    max = Math.max(max, age);
    min = Math.min(min, age);
  }
  return { tokens, mean: sum / tokens, max, min, staleTokens };
}
