import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { PickleReplay } from '../../../src-main/core/formats/pickle/pickle-replay';
import { readPickleItem } from '../../../src-main/core/formats/pickle/read-pickle-item';
import { readSlimeDump } from '../../../src-main/core/formats/slime/read-slime-dump';
import { readReplaying } from '../../support/read-replaying';
// the bench's writer: a dump past its first batch of 1000, so that samples are read alone
import { writeSlimeDump, type SlimeDumpShape } from '../../bench/slime-dump-writer.mjs';
import { readZipDirectory } from '../../../src-main/core/formats/zip/read-zip-directory';
import { prng } from '../../support/prng';

// Mutated dumps read with a replay: each sample said to lie somewhere reads back alone either
// equal to what a whole read of the same bytes gives, or fails with a FormatError; never
// another error, never a hang.
// `npm test` runs 30 (each reads a 1,100-sample dump twice); `npm run fuzz` scales with its count
const ITERATIONS = Math.ceil((30 * Number(process.env.FUZZ_ITERATIONS ?? 2500)) / 2500);

/**
 * A 1,100-sample dump of `shape` (Sample objects, tensors), and the share of it its samples'
 * pickle takes (the tensors' storages follow it: flips there are flips of bytes never read)
 */
function seed(shape: SlimeDumpShape): { base: Uint8Array; pickleShare: number } {
  const dir = mkdtempSync(join(tmpdir(), 'replay-fuzz-'));
  try {
    const path = join(dir, 'seed.pt');
    writeSlimeDump(path, Infinity, 8, 1100, { resumedGroups: 2, rolloutId: 1, ...shape });
    const base = new Uint8Array(readFileSync(path));
    const entries = readZipDirectory(bytesSource('seed.pt', base));
    const pickleEnd = Math.min(
      base.length,
      ...entries.filter((e) => e.name.includes('/data/')).map((e) => e.localHeaderOffset),
    );
    return { base, pickleShare: pickleEnd / base.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const formatErrorOr = <T>(read: () => T): T | FormatError => {
  try {
    return read();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
};

/** `base` with 1 to 4 random bytes changed, each in [from, from + width) of its length */
function flipped(base: Uint8Array, random: () => number, from: number, width: number) {
  const bytes = base.slice();
  const flips = 1 + Math.floor(random() * 4);
  for (let k = 0; k < flips; k++)
    bytes[Math.floor(bytes.length * (from + random() * width))] = Math.floor(random() * 256);
  return bytes;
}

describe.each([
  ['dicts', {}],
  ['Sample objects', { sampleObjects: true }],
  ['holding tensors', { tensors: true }],
])('fuzz: samples (%s) read alone from mutated dumps', (_, shape: SlimeDumpShape) => {
  it(`${ITERATIONS} cases: equal to a whole read, or a FormatError`, () => {
    const { base, pickleShare } = seed(shape);
    const random = prng(20261124);
    let compared = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      // flips in the samples' part of the pickle: past the first batch, most of the time
      const bytes = flipped(base, random, 0.5 * pickleShare, 0.45 * pickleShare);
      const source = bytesSource(`case-${i}.pt`, bytes);
      const whole = formatErrorOr(() => readSlimeDump(source).samples);
      const replay = new PickleReplay();
      const replayed = formatErrorOr(() => readReplaying(source, replay, false));
      if (replayed instanceof FormatError) continue;
      for (const [index, at] of replayed.at) {
        if (at === null) continue;
        const again = formatErrorOr(() => readPickleItem(source, at, replay));
        if (again instanceof FormatError || whole instanceof FormatError) continue;
        expect(again, `case ${i}, sample ${index}`).toEqual(whole[index]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(0);
  }, 120_000);

  it(`${ITERATIONS} cases walked past up to sample 1050, as a helper does: the samples after it equal to a whole read, or a FormatError`, () => {
    const { base, pickleShare } = seed(shape);
    const random = prng(20261128);
    let compared = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      // flips in the samples walked past (from the first batch's end on), most of the time
      const bytes = flipped(base, random, 0.9 * pickleShare, 0.06 * pickleShare);
      const source = bytesSource(`case-${i}.pt`, bytes);
      const whole = formatErrorOr(() => readSlimeDump(source).samples);
      let readAgain = false;
      const walked = formatErrorOr(
        () =>
          readSlimeDump(source, {
            onSamples: () => {},
            onSample: (_samples, _index, sample) => sample,
            skipSample: (index) => index < 1050,
            // a later sample read back a container of one walked past: a helper gives up
            onReadAgain: () => {
              readAgain = true;
              throw new FormatError('test/read-again', 'read again', 0);
            },
          }).samples,
      );
      if (walked instanceof FormatError || whole instanceof FormatError || readAgain) continue;
      expect(walked.slice(1000, 1050).every((s) => s === null)).toBe(true);
      expect(walked.slice(1050), `case ${i}`).toEqual(whole.slice(1050));
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  }, 120_000);
});
