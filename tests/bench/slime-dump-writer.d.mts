// Types of slime-dump-writer.mjs for the TypeScript tests that generate dumps with it.
export function writeSlimeDump(
  path: string,
  targetBytes: number,
  tokensPerSample?: number,
  maxSamples?: number,
  shape?: { rolloutId?: number; seed?: number; slowdown?: number; rewardScale?: number },
): number;
