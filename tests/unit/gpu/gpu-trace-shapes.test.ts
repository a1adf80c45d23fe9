import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { getRowViews } from '../../../src-main/core/store/row-views';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * The shapes real torch.profiler traces come in beyond gpu/'s (tests/fixtures/gpu_shapes/
 * README.md): ns timestamps, AMD ROCm, no ProfilerStep, no distributedInfo. Every figure below is
 * worked out by hand from the events the fixture's maker writes (make-gpu-shapes.mjs).
 */
const open = (name: string) => {
  const opened = openTraceFile([fixtureSource(resolve(FIXTURES, 'gpu_shapes', name))]);
  const profile = opened.summary.gpuProfile!;
  expect(profile.ranks).toHaveLength(1);
  return {
    opened,
    rank: profile.ranks[0],
    notes: profile.notes,
    row: getRowViews(opened.store, [0])[0],
  };
};
const item = (row: ReturnType<typeof open>['row'], name: string) =>
  row.items.find((i) => i.name === name)!;

describe('ns resolution: fractional us, displayTimeUnit "ns", baseTimeNanoseconds', () => {
  const { opened, rank, notes, row } = open('ns-rank-2.pt.trace.json');
  it('names the rank from distributedInfo and puts it on the epoch clock', () => {
    expect([rank.label, rank.rank, rank.clock]).toEqual(['rank 2', 2, 'epoch']);
    expect(opened.summary.globalStartSec).toBe(1_700_000_000);
  });
  it('reads ts as microseconds whatever displayTimeUnit says (Chrome trace rule)', () => {
    expect(opened.summary.notices).toContain(
      'rank 2: displayTimeUnit ns: ts read as microseconds, as the format defines',
    );
    const gemm = item(row, 'sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64');
    // epoch seconds as doubles hold a quarter microsecond at 1.7e9 s
    expect(gemm.startSec).toBeCloseTo(20.5e-6, 6);
    expect(gemm.endSec - gemm.startSec).toBeCloseTo(30.25e-6, 6);
  });
  it('rounds kernels inward to whole us as HTA does: gemm [21, 50], NCCL [46, 85], memcpy [91, 92]', () => {
    // the last step's kernel (launched at 101 us, after ProfilerStep#2 began) is left out
    expect(rank.kernelCount).toBe(3);
    expect(notes).toEqual([expect.stringContaining('1 GPU event of the last profiler step')]);
    expect(rank.temporalBreakdown).toMatchObject({
      kernelUs: 71,
      idleUs: 6,
      computeUs: 29,
      nonComputeUs: 36,
    });
    // 4 of the NCCL kernel's 39 us beside the gemm
    expect(rank.commCompOverlapPct).toBeCloseTo((4 / 39) * 100, 2);
    expect(rank.streams).toEqual([7, 13]);
  });
  it('ProfilerSteps are spans; the kernel links to its launch once (correlation and ac2g)', () => {
    expect(row.items.filter((i) => /^ProfilerStep#/.test(i.name)).map((i) => i.kind)).toEqual([
      'span',
      'span',
    ]);
    const gemm = item(row, 'sm90_xmma_gemm_f16f16_f16f32_f32_tn_n_tilesize128x128x64');
    expect(gemm.category).toBe('computation');
    expect(gemm.links!.map((i) => row.items[i].name)).toEqual(['cudaLaunchKernel']);
    expect(row.items[gemm.links![0]].startSec).toBeCloseTo(2.25e-6, 6);
    expect(item(row, 'Memcpy HtoD (Pageable -> Device)').category).toBe('memory');
  });
});

describe('AMD ROCm: hip launches, Tensile and RCCL kernels, GPU user annotations', () => {
  const { rank, notes, row } = open('rank-3.rocm.json.gz');
  it('takes the rank from the file name (no distributedInfo) and stays on its own clock', () => {
    expect([rank.label, rank.rank, rank.clock]).toEqual(['rank 3', 3, 'own']);
    expect(notes).toEqual([]);
  });
  it("kinds by ROCm's names; a GPU user annotation is a span on its stream, not GPU work", () => {
    const kinds = row.items.filter((i) => i.category).map((i) => [i.name.slice(0, 14), i.category]);
    expect(kinds).toEqual(
      expect.arrayContaining([
        ['Cijk_Ailk_Bljk', 'computation'],
        ['ncclDevKernel_', 'communication'],
        ['CopyDeviceToHo', 'memory'],
      ]),
    );
    expect(kinds).toHaveLength(3);
    const annotation = item(row, 'forward');
    expect(annotation.kind).toBe('span');
    expect(annotation.category).toBeUndefined();
    expect(annotation.laneLabel).toMatch(/^GPU 4 stream 1\b/);
    expect(rank.kernelCount).toBe(3);
  });
  it('streams are lanes named by device and stream; hip launches link to their kernels', () => {
    const lanes = new Set(row.items.map((i) => i.laneLabel));
    // a stream's label says its number once
    expect(lanes).toEqual(new Set(['python (tid 200)', 'GPU 4 stream 1', 'GPU 4 stream 2']));
    const tensile = row.items.find((i) => i.name.startsWith('Cijk_'))!;
    expect(row.items[tensile.links![0]].name).toBe('hipExtModuleLaunchKernel');
    const rccl = row.items.find((i) => i.name.startsWith('ncclDevKernel_'))!;
    expect(row.items[rccl.links![0]].name).toBe('hipLaunchKernel');
  });
  it('figures: Tensile [1030, 1130], RCCL [1100, 1160], copy [1190, 1200]', () => {
    expect(rank.temporalBreakdown).toMatchObject({
      kernelUs: 170,
      idleUs: 30,
      computeUs: 100,
      nonComputeUs: 40,
    });
    expect(rank.commCompOverlapPct).toBe(50);
    expect(rank.streams).toEqual([1, 2]);
  });
});

describe("SGLang's profiler file: no ProfilerStep, no distributedInfo", () => {
  const { rank, notes } = open('1712000000-TP-1-DP-0-EP-1-prefill.trace.json.gz');
  it("names the rank by the file name's parts; every kernel counts (no step to leave out)", () => {
    expect([rank.label, rank.rank, rank.clock]).toEqual(['TP-1 DP-0 EP-1 prefill', null, 'own']);
    expect(notes).toEqual([]);
    expect(rank.kernelCount).toBe(2);
    // flash [5020, 5070] computes, the custom all-reduce [5100, 5120] communicates
    expect(rank.temporalBreakdown).toMatchObject({
      kernelUs: 100,
      idleUs: 30,
      computeUs: 50,
      nonComputeUs: 20,
    });
    expect(rank.kindTotals).toEqual({ computation: 50, communication: 20, memory: 0 });
  });
});
