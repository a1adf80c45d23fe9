import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import type { GpuRank } from '../../../src-main/core/model/gpu-profile';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * tests/fixtures/gpu: two ranks of HTA's own test traces and hta.expected.json, what HTA itself
 * computes for them. Every figure must agree to 0.01 percentage points and 1 us.
 */
interface Expected {
  temporal_breakdown: {
    rank: number;
    'idle_time(us)': number;
    'compute_time(us)': number;
    'non_compute_time(us)': number;
    'kernel_time(us)': number;
    idle_time_pctg: number;
    compute_time_pctg: number;
    non_compute_time_pctg: number;
  }[];
  comm_comp_overlap: { rank: number; comp_comm_overlap_pctg: number }[];
  kernel_type_breakdown: { kernel_type: string; sum: number; percentage: number }[];
}

const expected = JSON.parse(
  readFileSync(resolve(FIXTURES, 'gpu/hta.expected.json'), 'utf8'),
) as Expected;
const profile = openTraceFile([
  fixtureSource(resolve(FIXTURES, 'gpu/rank-0.json.gz')),
  fixtureSource(resolve(FIXTURES, 'gpu/rank-1.json.gz')),
]).summary.gpuProfile!;
const rankOf = (rank: number): GpuRank => profile.ranks.find((r) => r.rank === rank)!;

describe("HTA's figures for the gpu fixture's two ranks", () => {
  it('names both ranks from distributedInfo.rank', () => {
    expect(profile.ranks.map((r) => r.label)).toEqual(['rank 0', 'rank 1']);
  });

  for (const row of expected.temporal_breakdown) {
    it(`rank ${row.rank}: the temporal breakdown (idle / compute / non-compute)`, () => {
      const t = rankOf(row.rank).temporalBreakdown;
      expect(Math.abs(t.idleUs - row['idle_time(us)'])).toBeLessThanOrEqual(1);
      expect(Math.abs(t.computeUs - row['compute_time(us)'])).toBeLessThanOrEqual(1);
      expect(Math.abs(t.nonComputeUs - row['non_compute_time(us)'])).toBeLessThanOrEqual(1);
      expect(Math.abs(t.kernelUs - row['kernel_time(us)'])).toBeLessThanOrEqual(1);
      expect(Math.abs(t.idlePct - row.idle_time_pctg)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(t.computePct - row.compute_time_pctg)).toBeLessThanOrEqual(0.01);
      expect(Math.abs(t.nonComputePct - row.non_compute_time_pctg)).toBeLessThanOrEqual(0.01);
    });
  }

  for (const row of expected.comm_comp_overlap) {
    it(`rank ${row.rank}: the communication-computation overlap`, () => {
      const pct = rankOf(row.rank).commCompOverlapPct!;
      expect(Math.abs(pct - row.comp_comm_overlap_pctg)).toBeLessThanOrEqual(0.01);
    });
  }

  it('the kernel-type breakdown across ranks: every kind and overlap, in HTA order', () => {
    expect(profile.kernelTypes.map((t) => t.label)).toEqual(
      expected.kernel_type_breakdown.map((t) => t.kernel_type),
    );
    for (const want of expected.kernel_type_breakdown) {
      const got = profile.kernelTypes.find((t) => t.label === want.kernel_type)!;
      expect(Math.abs(got.us - want.sum)).toBeLessThanOrEqual(1);
      expect(Math.abs(got.pct - want.percentage)).toBeLessThanOrEqual(0.01);
    }
  });

  it("each rank's kernel types add up to its busy time (kernel time less idle)", () => {
    for (const rank of profile.ranks) {
      const sum = rank.kernelTypes.reduce((s, t) => s + t.us, 0);
      const busy = rank.temporalBreakdown.kernelUs - rank.temporalBreakdown.idleUs;
      expect(Math.abs(sum - busy)).toBeLessThanOrEqual(rank.kernelTypes.length);
    }
  });

  it("HTA's last-step rule: half of each rank's kernels (those of ProfilerStep#552) are left out", () => {
    // gpu/README.md: rank 0 has 1154 kernels + 40 memcpy + 10 memset; HTA counts 602 of them
    expect(rankOf(0).kernelCount).toBe(602);
    expect(rankOf(1).kernelCount).toBe(577);
    expect(profile.notes.join('\n')).toMatch(/rank 0: 602 GPU events of the last profiler step/);
  });
});

describe('the largest idle gaps and what the CPU did before them', () => {
  it("rank 0's largest: 56614 us before an FP8 kernel launched 387 us into it, from its op", () => {
    const gap = rankOf(0).idleGaps[0];
    expect(gap.us).toBe(56614);
    expect(gap.launch?.name).toBe('cudaLaunchKernel');
    expect(gap.op?.name).toBe('fbgemm::FP8RowwiseQuantizedToFloat');
    expect(Math.round((gap.launch!.startSec - gap.startSec) * 1e6)).toBe(387);
    expect(gap.cause).toBe('other');
    expect(gap.kernel.kind).toBe('computation');
  });

  it('gaps are the largest first, never longer than the idle time, and sum within it', () => {
    for (const rank of profile.ranks) {
      const us = rank.idleGaps.map((g) => g.us);
      expect(us).toEqual([...us].sort((a, b) => b - a));
      expect(us.reduce((s, u) => s + u, 0)).toBeLessThanOrEqual(rank.temporalBreakdown.idleUs + 1);
      for (const gap of rank.idleGaps) expect(gap.endSec).toBeGreaterThan(gap.startSec);
    }
  });

  it("utilisation's bins average to the busy share of kernel time", () => {
    for (const rank of profile.ranks) {
      const { busy } = rank.utilisation;
      const mean = busy.reduce((s, b) => s + b, 0) / busy.length;
      const t = rank.temporalBreakdown;
      expect(mean).toBeCloseTo(1 - t.idleUs / t.kernelUs, 6);
    }
  });
});
