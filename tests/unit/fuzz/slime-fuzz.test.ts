import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { SLIME } from '../../support/fixtures';
import { prng } from '../../support/prng';

// `npm run fuzz` raises the count (FUZZ_ITERATIONS); `npm test` runs a few thousand.
const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 2500);
const TIME_BOUND_MS = 2000;
const SEEDS = [
  'rollout_small.pt',
  'legacy_format.pt',
  'sample_objects.pt',
  'rollout_tensors.pt',
  'edge_cases.pt',
].map((name) => new Uint8Array(readFileSync(resolve(SLIME, name))));

function mutate(random: () => number): Uint8Array {
  const base = SEEDS[Math.floor(random() * SEEDS.length)];
  const kind = Math.floor(random() * 4);
  if (kind === 0) return base.slice(0, Math.floor(random() * base.length)); // truncated
  if (kind === 1) {
    const out = base.slice(); // flipped bytes, often inside data.pkl
    const flips = 1 + Math.floor(random() * 8);
    for (let i = 0; i < flips; i++)
      out[Math.floor(random() * out.length)] = Math.floor(random() * 256);
    return out;
  }
  if (kind === 2) {
    const other = SEEDS[Math.floor(random() * SEEDS.length)]; // spliced from two files
    const cut = Math.floor(random() * Math.min(base.length, other.length));
    const out = new Uint8Array(other.length);
    out.set(base.subarray(0, cut));
    out.set(other.subarray(cut), cut);
    return out;
  }
  const out = base.slice(); // a run of bytes overwritten at a random place
  const at = Math.floor(random() * out.length);
  const value = Math.floor(random() * 256);
  out.fill(value, at, Math.min(out.length, at + 1 + Math.floor(random() * 64)));
  return out;
}

describe('fuzz: mutated, truncated and spliced dumps either read or fail with a FormatError', () => {
  it(`${ITERATIONS} cases`, () => {
    const random = prng(20261122);
    let read = 0;
    let failed = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const bytes = mutate(random);
      const started = performance.now();
      try {
        readSlimeDump(bytesSource(`case-${i}.pt`, bytes));
        read++;
      } catch (error) {
        if (!(error instanceof FormatError)) {
          throw new Error(
            `case ${i}: ${(error as Error).constructor.name}: ${(error as Error).message}`,
          );
        }
        failed++;
      }
      const elapsed = performance.now() - started;
      if (elapsed > TIME_BOUND_MS) throw new Error(`case ${i} took ${elapsed.toFixed(0)} ms`);
    }
    expect(read + failed).toBe(ITERATIONS);
    expect(failed).toBeGreaterThan(0);
  }, 120_000);
});
