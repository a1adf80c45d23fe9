/** A reward as one number: the number itself, or a dict's `score` (slime's convention). */
export function rewardValue(reward: unknown): number | null {
  if (typeof reward === 'number' && Number.isFinite(reward)) return reward;
  if (typeof reward === 'boolean') return reward ? 1 : 0;
  if (reward && typeof reward === 'object' && !Array.isArray(reward)) {
    const score = (reward as Record<string, unknown>).score;
    if (typeof score === 'number') return score;
  }
  return null;
}
