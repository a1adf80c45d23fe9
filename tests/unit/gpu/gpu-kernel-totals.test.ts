import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTraceEvents } from '../../../src-main/core/formats/chrome/import-trace-events';
import {
  kernelTotals,
  mergeKernelTotals,
  rankEvents,
  withoutLastStep,
} from '../../../src-main/core/formats/chrome/gpu/rank-figures';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { gunzipIfGzip } from '../../../src-main/core/bytes/gunzip-source';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * A GPU profile's kernel totals are merged from each rank's (a rank keeps totals, not a record
 * per kernel): they must be what totals of every rank's kernels together give.
 */
const files = ['gpu/rank-0.json.gz', 'gpu/rank-1.json.gz'];

describe("a GPU profile's kernel totals", () => {
  it("are every rank's kept kernels totalled together (tests/fixtures/gpu)", () => {
    const kept = files.flatMap((file) => {
      const trace = importTraceEvents(gunzipIfGzip(fixtureSource(resolve(FIXTURES, file))));
      return withoutLastStep(rankEvents(trace)).kept;
    });
    const together = kernelTotals(kept);
    const profile = openTraceFile(files.map((f) => fixtureSource(resolve(FIXTURES, f)))).summary
      .gpuProfile!;
    expect(profile.kernels.length).toBeGreaterThan(10);
    expect(profile.kernels).toEqual(together);
  });

  it('keep the kind a name had first, sum counts and times, and redo the means', () => {
    const merged = mergeKernelTotals([
      [
        { name: 'k', kind: 'memory', totalUs: 10, count: 2, meanUs: 5 },
        { name: 'a', kind: 'computation', totalUs: 4, count: 1, meanUs: 4 },
      ],
      [
        { name: 'k', kind: 'computation', totalUs: 2, count: 2, meanUs: 1 },
        { name: 'b', kind: 'communication', totalUs: 4, count: 4, meanUs: 1 },
      ],
    ]);
    expect(merged).toEqual([
      { name: 'k', kind: 'memory', totalUs: 12, count: 4, meanUs: 3 },
      { name: 'a', kind: 'computation', totalUs: 4, count: 1, meanUs: 4 },
      { name: 'b', kind: 'communication', totalUs: 4, count: 4, meanUs: 1 },
    ]);
  });
});
