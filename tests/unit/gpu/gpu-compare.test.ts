import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareGpuProfiles } from '../../../src-main/core/compare/compare-gpu-profiles';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

const profileOf = (file: string) =>
  openTraceFile([fixtureSource(resolve(FIXTURES, file))]).summary.gpuProfile!;

/** rank 0 as A, rank 1 as B: the same job's step on two GPUs (tests/fixtures/gpu). */
describe("two GPU profiles compared kernel by kernel, as HTA's trace diff does", () => {
  const a = profileOf('gpu/rank-0.json.gz');
  const b = profileOf('gpu/rank-1.json.gz');
  const result = compareGpuProfiles(a, b);

  it('per kind: totals from each side, deltas summing to the whole change, by |Δ|', () => {
    expect(result.kinds.map((k) => k.name)).toEqual(['computation', 'communication', 'memory']);
    const comm = result.kinds.find((k) => k.name === 'communication')!;
    expect(comm.a.totalUs).toBe(a.ranks[0].kindTotals.communication);
    expect(comm.b.totalUs).toBe(b.ranks[0].kindTotals.communication);
    expect(comm.deltaUs).toBe(comm.b.totalUs - comm.a.totalUs);
    const deltas = result.kinds.map((k) => Math.abs(k.deltaUs));
    expect(deltas).toEqual([...deltas].sort((x, y) => y - x));
  });

  it('per kernel: every name of either side once, count and mean, the NCCL send/recv first', () => {
    const names = new Set([...a.kernels, ...b.kernels].map((k) => k.name));
    expect(result.kernels).toHaveLength(names.size);
    const first = result.kernels[0];
    expect(first.name).toMatch(/^ncclKernel_SendRecv/);
    expect(first.a.count).toBe(5);
    expect(first.a.meanUs).toBeCloseTo(first.a.totalUs / 5, 9);
    const onlyA = result.kernels.find((k) => k.b.count === 0)!;
    expect(onlyA.deltaUs).toBe(-onlyA.a.totalUs);
  });

  it('answers first: the total change, by kind, the kernels behind it, idle before and after', () => {
    expect(result.answer[0]).toMatch(/^B's kernels ran \d+\.\d ms (longer|shorter) in total/);
    expect(result.answer[1]).toMatch(/^Most of it: ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t −/);
    expect(result.answer[2]).toBe('GPU idle 53.56% → 54.72% of kernel time (mean over ranks).');
  });
});
