import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { rankName } from '../../../src-main/core/formats/chrome/gpu/rank-name';
import { kernelKind } from '../../../src-main/core/formats/chrome/gpu/kernel-kind';
import { sniffKineto } from '../../../src-main/core/formats/chrome/gpu/sniff-kineto';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { getRowViews } from '../../../src-main/core/store/row-views';
import { FIXTURES, fixtureSource } from '../../support/fixtures';

/**
 * Kineto traces as libkineto prints them, in the shapes real ones come in (tests/fixtures/
 * kineto_variants/README.md): a real torch.profiler trace, CPU-only Kineto, ROCm through
 * rocprofiler-sdk and through roctracer, SGLang's decode worker with ns display and trailing
 * distributedInfo, a PyTorch 2.0 trainer on absolute epoch microseconds, a folder of ranks with
 * other JSON beside. Every figure is worked out by hand in the README from the maker's events.
 */
const DIR = join(FIXTURES, 'kineto_variants');
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const open = (path: string) => openTraceFile([fixtureSource(join(DIR, path))]);
const onlyRank = (path: string) => {
  const opened = open(path);
  expect(opened.summary.format).toBe('gpu-profile');
  const ranks = opened.summary.gpuProfile!.ranks;
  expect(ranks).toHaveLength(1);
  // the rank's own row (Kineto's global "Record Window End" instant has a row of its own)
  const row = getRowViews(opened.store, [...Array(opened.summary.rows).keys()]).find(
    (r) => r.items.length > 1,
  )!;
  return { opened, rank: ranks[0], notes: opened.summary.gpuProfile!.notes, row };
};
type Row = ReturnType<typeof onlyRank>['row'];
const itemNamed = (row: Row, name: string) => row.items.find((i) => i.name === name)!;
const launchOf = (row: Row, name: string) => row.items[itemNamed(row, name).links![0]].name;

describe('a real torch.profiler trace (torch 1.13 without Kineto), plain and gzipped', () => {
  const events = JSON.parse(
    readFileSync(join(DIR, 'torch_cpu/cpu-steps.pt.trace.json'), 'utf8'),
  ) as { name: string; ph: string }[];
  it('stays a Chrome trace (no GPU, no Kineto key): every X event a span, ProfilerSteps among them', () => {
    const plain = open('torch_cpu/cpu-steps.pt.trace.json').summary;
    expect(plain).toMatchObject({ format: 'chrome-trace', rows: 1, sources: ['CPU functions'] });
    expect(plain.spans).toBe(events.filter((e) => e.ph === 'X').length);
    const steps = events.filter((e) => e.name.startsWith('ProfilerStep#')).map((e) => e.name);
    expect(steps).toEqual(['ProfilerStep#0', 'ProfilerStep#1']);
  });
  it('the gzipped copy opens to the same summary', () => {
    const plain = open('torch_cpu/cpu-steps.pt.trace.json').summary;
    const gz = open('torch_cpu/cpu-steps.pt.trace.json.gz').summary;
    for (const key of [
      'format',
      'rows',
      'spans',
      'globalStartSec',
      'globalEndSec',
      'sources',
    ] as const)
      expect(gz[key], key).toEqual(plain[key]);
  });
});

describe('CPU-only Kineto: deviceProperties [] and distributedInfo, no GPU event', () => {
  it('opens as a one-rank GPU profile with no kernels and empty figures', () => {
    const { opened, rank } = onlyRank('cpu_only/rank-1.pt.trace.json');
    expect([rank.label, rank.rank, rank.clock, rank.kernelCount]).toEqual([
      'rank 1',
      1,
      'epoch',
      0,
    ]);
    expect(rank.temporalBreakdown).toMatchObject({ kernelUs: 0, idleUs: 0, computeUs: 0 });
    expect(rank.commCompOverlapPct).toBeNull();
    // ProfilerStep#3, #4, forward, two aten::mm and Kineto's "Trace" span
    expect(opened.summary.spans).toBe(6);
    expect(opened.summary.globalStartSec).toBe(1_765_000_000);
  });
});

/** ROCm's events (both shapes): Tensile [20, 120] s1, RCCL [60, 160] s2, copy [170, 180], set [200, 205] */
const ROCM_BREAKDOWN = { kernelUs: 185, idleUs: 30, computeUs: 100, nonComputeUs: 55 };

describe('AMD ROCm through rocprofiler-sdk: hip runtime in cuda_runtime, queues as streams', () => {
  const { rank, row } = onlyRank('rocm/rank-0.Dec_07_01_00_00.4242.pt.trace.json.gz');
  it('names the rank from distributedInfo; HTA figures by hand', () => {
    expect([rank.label, rank.rank, rank.clock, rank.kernelCount]).toEqual([
      'rank 0',
      0,
      'epoch',
      4,
    ]);
    expect(rank.streams).toEqual([1, 2]);
    expect(rank.temporalBreakdown).toMatchObject(ROCM_BREAKDOWN);
    // RCCL's 100 us, 60 of them beside the Tensile GEMM
    expect(rank.commCompOverlapPct).toBe(60);
    expect(rank.kernelTypes.map((t) => [t.kinds, t.us, t.pct])).toEqual([
      [['computation', 'communication'], 60, 38.7],
      [['communication'], 40, 25.8],
      [['computation'], 40, 25.8],
      [['memory'], 15, 9.7],
    ]);
  });
  it("kinds by ROCm's names, lanes by device and queue, each hip call linked to its GPU work", () => {
    expect(itemNamed(row, 'Memcpy DtoH (Device -> Host)').category).toBe('memory');
    expect(itemNamed(row, 'Memset (<unknown>)').category).toBe('memory');
    expect(
      itemNamed(row, 'ncclDevKernel_Generic_4(ncclDevKernelArgsStorage<4096ul>)').category,
    ).toBe('communication');
    const lanes = new Set(row.items.map((i) => i.laneLabel?.replace(/ \(tid \d+\)$/, '')));
    // Kineto's global "Record Window End" instant sits on the rank's own process lane
    expect(lanes).toEqual(new Set(['process', 'python', 'GPU 2 stream 1', 'GPU 2 stream 2']));
    expect(launchOf(row, 'Cijk_Ailk_Bljk_BBS_BH_MT128x128x64_MI32x32x8x1_SN_GRVW8')).toBe(
      'hipExtModuleLaunchKernel',
    );
    expect(launchOf(row, 'Memcpy DtoH (Device -> Host)')).toBe('hipMemcpyAsync');
    expect(launchOf(row, 'Memset (<unknown>)')).toBe('hipMemsetAsync');
  });
});

describe('AMD ROCm through the older roctracer: GPU events without stream or correlation args', () => {
  // roctracer's Kineto wrote no stream on GPU events (GpuActivity::metadataJson returned ""):
  // the kernels (cat kernel / gpu_memcpy / gpu_memset, pid = device, tid = queue) are GPU work
  // by their category, their stream their tid
  it('counts the four GPU events by category, stream from tid: the same figures as rocprof', () => {
    const { rank, row } = onlyRank('rocm_roctracer/rank-0.pt.trace.json.gz');
    expect(rank.kernelCount).toBe(4);
    expect(rank.streams).toEqual([1, 2]);
    expect(rank.temporalBreakdown).toMatchObject(ROCM_BREAKDOWN);
    expect(itemNamed(row, 'Memset (<unknown>)').category).toBe('memory');
  });
});

describe("SGLang's decode worker: ns display, distributedInfo after the events, no ProfilerStep", () => {
  const { rank, opened, row } = onlyRank(
    'sglang_decode/1765000000.4213986-TP-0-DP-1-PP-0-EP-1-decode.trace.json.gz',
  );
  it('names the rank by distributedInfo (written last) and the file name; epoch clock', () => {
    expect([rank.label, rank.rank, rank.clock]).toEqual([
      'rank 5 (TP-0 DP-1 PP-0 EP-1 decode)',
      5,
      'epoch',
    ]);
    expect(opened.summary.globalStartSec).toBeCloseTo(1_765_000_000.4213986 + 1.5e-6, 6);
  });
  it("DeepEP's combine communicates; kernels rounded inward: flash [11, 40], combine [31, 60], reduce [71, 80]", () => {
    expect(
      itemNamed(
        row,
        'void deep_ep::intranode::combine<__nv_bfloat16, 8, 768>(int4*, float*, int4 const*)',
      ).category,
    ).toBe('communication');
    expect(rank.temporalBreakdown).toMatchObject({
      kernelUs: 69,
      idleUs: 11,
      computeUs: 29,
      nonComputeUs: 29,
    });
    // 9 of the 38 us of communication beside the flash kernel
    expect(rank.commCompOverlapPct).toBeCloseTo((9 / 38) * 100, 2);
    expect(rank.kernelTypes.map((t) => [t.kinds, t.us, t.pct])).toEqual([
      [['communication'], 29, 50],
      [['computation'], 20, 34.5],
      [['computation', 'communication'], 9, 15.5],
    ]);
  });
});

describe('a PyTorch 2.0 trainer rank: absolute epoch us, no baseTimeNanoseconds, host_pid name', () => {
  const { rank, opened, notes } = onlyRank('trainer/node-3_4021.1712000000123.pt.trace.json');
  it("named by the file name; its epoch times shown as they are, on the trace's own clock", () => {
    expect([rank.label, rank.rank, rank.clock]).toEqual(['node-3_4021.1712000000123', null, 'own']);
    expect(opened.summary.globalStartSec).toBe(1_712_000_000);
  });
  it('leaves the last step out as HTA does: gemm [20, 60], NCCL [55, 95]', () => {
    expect(rank.kernelCount).toBe(2);
    expect(notes).toEqual([expect.stringContaining('1 GPU event of the last profiler step')]);
    expect(rank.temporalBreakdown).toMatchObject({
      kernelUs: 75,
      idleUs: 0,
      computeUs: 40,
      nonComputeUs: 35,
    });
    expect(rank.commCompOverlapPct).toBe(12.5);
  });
});

const summaryOf = (path: string) => {
  const result = spawnSync(process.execPath, [CLI, 'summary', '--json', path], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as {
    files: {
      format: string;
      samples: number;
      rows: number;
      sources: string[];
      gpuProfile: {
        ranks: { label: string; temporalBreakdown: object; commCompOverlapPct: number }[];
      };
    }[];
    skipped: { path: string }[];
  };
};

describe.skipIf(!existsSync(CLI))(
  'a folder of ranks beside other JSON (summary DIR --json)',
  () => {
    const folder = join(DIR, 'mixed');
    it('opens the two rank traces as one profile; the config and figures JSON are skipped', () => {
      const summary = summaryOf(folder);
      expect(summary.files).toHaveLength(1);
      const [profile] = summary.files;
      expect([profile.format, profile.samples]).toEqual(['gpu-profile', 2]);
      expect(summary.skipped.map((s) => s.path.split('/').pop()).sort()).toEqual([
        'config.json',
        'hta_summary.json',
      ]);
      // rank 0 by distributedInfo, rank 1 by its file name; gemm [10, 60], all-gather [80, 100]
      expect(
        profile.gpuProfile.ranks.map((r) => [r.label, r.temporalBreakdown, r.commCompOverlapPct]),
      ).toEqual(
        ['rank 0', 'rank 1'].map((label) => [
          label,
          {
            kernelUs: 90,
            idleUs: 20,
            computeUs: 50,
            nonComputeUs: 20,
            idlePct: 22.22,
            computePct: 55.56,
            nonComputePct: 22.22,
          },
          0,
        ]),
      );
    });
    // Each rank's Kineto "Record Window End" (ph i, s g, pid "") becomes a row named "global" of
    // its own, beside the ranks' rows (build-chrome-rows.ts, the Chrome reader's owner): a
    // profile of 8 ranks shows 8 such rows. A rank's global instants belong on its own row.
    it("a profile's rows are its ranks: Kineto's global instants stay on their rank's row", () => {
      const [profile] = summaryOf(folder).files;
      expect(profile.sources).toEqual(['rank 0', 'rank 1']);
      expect(profile.rows).toBe(2);
    });
  },
);

describe("a large job's header: traceEvents past the 64 KiB sniff head", () => {
  it("is still a GPU profile (Kineto's schemaVersion first, its distributedInfo key), with its figures", () => {
    const head = new Uint8Array(
      gunzipSync(readFileSync(join(DIR, 'big_header/rank-0.pt.trace.json.gz'))),
    ).subarray(0, 64 * 1024);
    expect(new TextDecoder().decode(head)).not.toContain('traceEvents');
    expect(sniffKineto(head)).toBe(true);
    const { rank } = onlyRank('big_header/rank-0.pt.trace.json.gz');
    expect([rank.label, rank.rank, rank.clock]).toEqual(['rank 0', 0, 'epoch']);
    expect(rank.temporalBreakdown).toMatchObject({ kernelUs: 90, idleUs: 20, computeUs: 50 });
  });
  it('a JSON document that only starts like Kineto, or has no Kineto key, is not', () => {
    const head = (text: string) => new TextEncoder().encode(text);
    expect(sniffKineto(head('{"schemaVersion": 1, "model": {"layers": 2}}'))).toBe(false);
    expect(sniffKineto(head('{"config": 1, "distributedInfo": {"rank": 0}}'))).toBe(false);
  });
});

describe('no header key and 400 CPU ops first: the first kernel past the sniff head', () => {
  // A limit, kept on purpose: with no Kineto header key and no GPU event in the head there is
  // nothing that only a GPU run writes; schemaVersion alone is also the start of the benches'
  // CPU-only Chrome trace (tests/bench/chrome-writer.mjs), which must stay a Chrome trace.
  it('opens as a plain Chrome trace: a row per process, every event a span', () => {
    const { summary } = open('late_kernels/rank-0.pt.trace.json');
    expect([summary.format, summary.spans]).toEqual(['chrome-trace', 404]);
    expect(summary.sources).toEqual(['global', 'pid 0', 'pid 3001']);
  });
});

describe('a top-level key that is not a JSON string', () => {
  // Found by fuzzing Kineto traces (a mutated header): the scanner JSON.parsed a top-level key
  // without a catch, so a raw control character in one threw an uncoded SyntaxError out of the
  // open. Such a key cannot be traceEvents: it is read past as a broken metadata value is.
  it('is read past: no uncoded error, the events after it open', () => {
    const kineto =
      '{"schemaVersion": 1, "deviceProperties": [], "bad\u0001key": 1, "traceEvents": [' +
      '{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1, "dur": 2, "args": {"stream": 7}}]}';
    expect(kineto).toContain('\u0001');
    const opened = openTraceFile([bytesSource('bad-key.json', new TextEncoder().encode(kineto))]);
    expect(opened.summary.spans).toBe(1);
    expect(opened.summary.gpuProfile?.ranks[0].kernelCount).toBe(1);
  });
});

describe('rank names and kernel kinds of other writers', () => {
  it.each([
    [
      '1765000000.4213986-TP-0-DP-1-PP-0-EP-1-decode.trace.json.gz',
      5,
      5,
      'rank 5 (TP-0 DP-1 PP-0 EP-1 decode)',
    ],
    ['1765000000.4213986-TP-3.trace.json.gz', undefined, 3, 'TP-3'],
    ['1765000000.4213986-TP-3-EP-3-prefill.trace.json.gz', undefined, 3, 'TP-3 EP-3 prefill'],
    // with data or pipeline parallelism the TP rank is not the process's rank
    ['1765000000.4213986-TP-1-DP-1.trace.json.gz', undefined, null, 'TP-1 DP-1'],
    ['1765000000.4213986-TP-1-PP-1.trace.json.gz', undefined, null, 'TP-1 PP-1'],
    // vLLM's worker names, HTA's, torch's tensorboard handler with a rank in the worker name
    ['dp0_pp0_tp0_dcp0_ep0_rank6.4021.1765000000123.pt.trace.json.gz', undefined, 6, 'rank 6'],
    ['rank-3.Dec_07_01_00_00.1234.pt.trace.json.gz', undefined, 3, 'rank 3'],
    ['actor_rank12.pt.trace.json', undefined, 12, 'rank 12'],
    ['trace_rank00003.json', undefined, 3, 'rank 3'],
    // a name with TP inside a word, and a plain host_pid worker name
    ['HTTP-2.trace.json', undefined, null, 'HTTP-2'],
    ['node-3_4021.1712000000123.pt.trace.json', undefined, null, 'node-3_4021.1712000000123'],
  ])('%s', (file, distributed, rank, label) => {
    expect(rankName(distributed, file)).toEqual({ rank, label });
  });

  it('expert-parallel dispatch and combine communicate; compute kernels with EP in the name do not', () => {
    expect(
      kernelKind('void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*)', 'kernel'),
    ).toBe('communication');
    expect(kernelKind('void deep_ep::internode_ll::combine<8, 3, 7168>(void*)', 'kernel')).toBe(
      'communication',
    );
    expect(kernelKind('nvshmemi_proxy_kernel', 'kernel')).toBe('communication');
    expect(kernelKind('void moe_align_block_size_kernel<int>(int*, int*)', 'kernel')).toBe(
      'computation',
    );
    expect(kernelKind('fused_moe_kernel', 'kernel')).toBe('computation');
  });
});
