/** One response token of a train sample, as the per-token strip shows it. */
export interface StripToken {
  index: number;
  /** log_probs - rollout_log_probs (the trainer's minus SGLang's) */
  delta: number;
  trainer: number;
  server: number;
  advantage: number | null;
  entropy: number | null;
  /** false: the loss mask left it out of the figures */
  masked: boolean;
}

/** The strip's tokens from a train sample's per-token values (missing ones null). */
export function stripTokens(values: {
  log_probs: number[];
  rollout_log_probs: number[];
  advantages: number[] | null;
  entropy: number[] | null;
  loss_masks: number[] | null;
}): StripToken[] {
  const n = Math.min(values.log_probs.length, values.rollout_log_probs.length);
  return Array.from({ length: n }, (_, index) => ({
    index,
    delta: values.log_probs[index] - values.rollout_log_probs[index],
    trainer: values.log_probs[index],
    server: values.rollout_log_probs[index],
    advantage: values.advantages?.[index] ?? null,
    entropy: values.entropy?.[index] ?? null,
    masked: values.loss_masks === null || values.loss_masks[index] !== 0,
  }));
}

/**
 * A Δ's colour: red where the trainer finds the token likelier than SGLang did, blue where less,
 * stronger with |Δ| (saturated at |Δ| = 1, a ratio of e); grey for tokens outside the loss mask.
 */
export function deltaColour(token: StripToken): string {
  if (!token.masked) return 'rgba(128,128,128,0.35)';
  const strength = Math.min(1, Math.abs(token.delta));
  const alpha = (0.15 + 0.85 * strength).toFixed(3);
  return token.delta >= 0 ? `rgba(220,38,38,${alpha})` : `rgba(37,99,235,${alpha})`;
}

/** The token under a pointer at `xCssPx` of a strip `widthCssPx` wide. */
export function tokenAt(xCssPx: number, widthCssPx: number, count: number): number | null {
  if (count === 0 || widthCssPx <= 0 || xCssPx < 0 || xCssPx >= widthCssPx) return null;
  return Math.min(count - 1, Math.floor((xCssPx / widthCssPx) * count));
}
