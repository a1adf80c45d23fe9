import { describe, expect, it } from 'vitest';
import { kernelKind } from '../../../src-main/core/formats/chrome/gpu/kernel-kind';
import { rankName } from '../../../src-main/core/formats/chrome/gpu/rank-name';
import { sniffKineto } from '../../../src-main/core/formats/chrome/gpu/sniff-kineto';
import {
  commCompOverlapPct,
  kernelTypeTimes,
  mergeIntervals,
  temporalBreakdown,
  utilisation,
  type KernelSpan,
} from '../../../src-main/core/formats/chrome/gpu/hta-breakdown';

const head = (text: string) => new TextEncoder().encode(text);

describe('a GPU profile is sniffed by what only a GPU run writes', () => {
  it('Kineto keys or GPU categories: yes; a CPU-only torch.profiler trace: no', () => {
    expect(sniffKineto(head('{"distributedInfo": {"rank": 3}, "traceEvents": ['))).toBe(true);
    expect(sniffKineto(head('{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k"'))).toBe(
      true,
    );
    expect(
      sniffKineto(head('[{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel"')),
    ).toBe(true);
    expect(
      sniffKineto(head('{"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm"')),
    ).toBe(false);
    // a GPU word that is not a trace at all
    expect(sniffKineto(head('{"deviceProperties": []}'))).toBe(false);
  });
});

describe("kernel kinds, as HTA's get_kernel_type and beyond", () => {
  it('NCCL (old and new names), RCCL and custom all-reduce communicate', () => {
    expect(kernelKind('ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)', 'kernel')).toBe(
      'communication',
    );
    expect(
      kernelKind('ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 'kernel'),
    ).toBe('communication');
    expect(kernelKind('void vllm::cross_device_reduce_1stage<half, 8>(...)', 'kernel')).toBe(
      'communication',
    );
  });
  it('memcpy and memset by category or name (CUDA and ROCm); the rest computes', () => {
    expect(kernelKind('Memcpy HtoD (Pageable -> Device)', 'gpu_memcpy')).toBe('memory');
    expect(kernelKind('Memset (Device)', null)).toBe('memory');
    expect(kernelKind('CopyDeviceToHost', 'kernel')).toBe('memory');
    expect(kernelKind('void at::native::reduce_kernel<512, 1>(...)', 'kernel')).toBe('computation');
    expect(kernelKind('void at::native::CatArrayBatchedCopy<float>(...)', 'kernel')).toBe(
      'computation',
    );
  });
});

describe('a rank is named from distributedInfo, then the file name', () => {
  it('distributedInfo.rank wins, with SGLang parts kept beside it', () => {
    expect(rankName(3, 'x.json.gz')).toEqual({ rank: 3, label: 'rank 3' });
    expect(rankName(5, '1712-TP-1-DP-2-decode.trace.json.gz')).toEqual({
      rank: 5,
      label: 'rank 5 (TP-1 DP-2 decode)',
    });
  });
  it("SGLang's TP/DP/PP/EP and prefill/decode, rank-N, else the file's stem", () => {
    expect(rankName(undefined, '1712-TP-3.trace.json.gz')).toEqual({ rank: 3, label: 'TP-3' });
    expect(rankName(undefined, '/p/1712-TP-0-DP-1-PP-0-EP-2-prefill.trace.json.gz')).toEqual({
      rank: null,
      label: 'TP-0 DP-1 PP-0 EP-2 prefill',
    });
    expect(rankName(undefined, 'rank-7.json.gz')).toEqual({ rank: 7, label: 'rank 7' });
    expect(rankName(undefined, 'worker_rank_12.pt.trace.json')).toEqual({
      rank: 12,
      label: 'rank 12',
    });
    expect(rankName(undefined, 'host_123.1712.pt.trace.json.gz')).toEqual({
      rank: null,
      label: 'host_123.1712',
    });
  });
});

const k = (startUs: number, endUs: number, kind: KernelSpan['kind']): KernelSpan => ({
  startUs,
  endUs,
  kind,
});

describe("HTA's definitions on hand-made kernels", () => {
  // comp 0-10 and 20-30; comm 5-25 (overlaps comp 5-10 and 20-25); memory 40-50
  const kernels = [
    k(0, 10, 'computation'),
    k(20, 30, 'computation'),
    k(5, 25, 'communication'),
    k(40, 50, 'memory'),
  ];

  it('merges touching and overlapping intervals', () => {
    expect(
      Array.from(
        mergeIntervals([
          k(0, 5, 'memory'),
          k(5, 8, 'memory'),
          k(3, 4, 'memory'),
          k(9, 10, 'memory'),
        ]),
      ),
    ).toEqual([0, 8, 9, 10]);
  });
  it('temporal breakdown: 50 us kernel time, 10 idle, 20 compute, 20 non-compute', () => {
    expect(temporalBreakdown(kernels)).toEqual({
      kernelUs: 50,
      idleUs: 10,
      computeUs: 20,
      nonComputeUs: 20,
      idlePct: 20,
      computePct: 40,
      nonComputePct: 40,
    });
  });
  it('overlap: 10 of 20 us of communication run beside computation', () => {
    expect(commCompOverlapPct(kernels)).toBe(50);
    expect(commCompOverlapPct([k(0, 1, 'computation')])).toBeNull();
  });
  it('kernel types: each set of kinds running together (ties by label)', () => {
    expect(kernelTypeTimes(kernels).map((t) => [t.label, t.us, t.pct])).toEqual([
      ['COMMUNICATION', 10, 25],
      ['COMPUTATION', 10, 25],
      ['COMPUTATION overlapping COMMUNICATION', 10, 25],
      ['MEMORY', 10, 25],
    ]);
  });
  it('utilisation: the busy share of each bin', () => {
    const u = utilisation(mergeIntervals(kernels), 5, 0);
    expect(u.busy).toEqual([1, 1, 1, 0, 1]);
    expect(u.binSec).toBeCloseTo(10e-6, 12);
  });
});
