import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesSource } from '../../../src-main/core/bytes/byte-source';
import { FormatError } from '../../../src-main/core/bytes/format-error';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import { FORMATS, type FormatList } from '../../../src-main/core/formats/registry';
import { skeletonFormat } from '../../../src-main/core/formats/skeleton/descriptor';
import { FIXTURES, OTLP, SLIME } from '../../support/fixtures';
import { HOSTILE_CASES } from './corpus';
import { RUN_EXTRA } from '../../support/run-extra-expected';
import { prng } from '../../support/prng';

/**
 * The fuzz run over every reader the whole open pipeline reaches (sniff, read, rows, store,
 * perf), not only the pickle reader (tests/unit/fuzz): each mutated input opens or fails with
 * a coded FormatError, within a time and memory bound per case.
 *
 * To fuzz a new reader, add a target with its fixtures as seeds; nothing else changes.
 */
interface FuzzTarget {
  reader: string;
  /** file name given to the open (sniffing is by content; names route undetected bytes) */
  name: string;
  seeds: Uint8Array[];
  /** the formats to open with, when the reader's format is not registered (the skeleton) */
  formats?: FormatList;
}

const SKELETON = resolve(FIXTURES, 'skeleton');
const TRAIN = resolve(FIXTURES, 'run_extra/train');
const read = (dir: string, name: string) => new Uint8Array(readFileSync(resolve(dir, name)));
const METRICS_LOG = 'sglang-request-metrics-20260825_09.log';
const firstLines = (bytes: Uint8Array, n: number) => {
  let end = 0;
  for (let k = 0; k < n; k++) end = bytes.indexOf(0x0a, end) + 1;
  return bytes.subarray(0, end);
};
const small = (id: string) => HOSTILE_CASES.find((c) => c.id === id)!.make();

const TARGETS: FuzzTarget[] = [
  {
    reader: 'OTLP scanner and JSON fallback',
    name: 'fuzz.jsonl',
    seeds: [
      read(OTLP, 'sglang_otel_trace.json'),
      read(OTLP, 'roll_traces.1.jsonl'),
      read(OTLP, 'otlp_mixed_garbage.jsonl'),
      small('otlp-zero-timestamp'),
    ],
  },
  {
    reader: 'torch zip + pickle + slime rows',
    name: 'fuzz.pt',
    seeds: [read(SLIME, 'rollout_small.pt'), read(SLIME, 'rollout_pd_legacy.pt')],
  },
  {
    reader: 'Chrome trace events (chunked scan)',
    name: 'fuzz.json',
    seeds: [read(resolve(FIXTURES, 'chrome'), 'torch_profiler_train_cpu.json'), chromeSynthetic()],
  },
  {
    // a Kineto trace opens as a GPU profile: ranks, streams, kernel kinds, HTA's figures
    reader: 'GPU profile (Kineto ranks, streams, HTA figures)',
    name: 'rank-0.pt.trace.json',
    seeds: [
      read(resolve(FIXTURES, 'gpu_shapes'), 'ns-rank-2.pt.trace.json'),
      read(resolve(FIXTURES, 'kineto_variants/trainer'), 'node-3_4021.1712000000123.pt.trace.json'),
    ],
  },
  {
    reader: "slime's trainer communication timeline",
    name: 'slime-trainer-0.jsonl',
    seeds: [
      read(resolve(FIXTURES, 'run/comm_timeline'), 'slime-trainer-0.jsonl'),
      read(resolve(FIXTURES, 'run/comm_timeline_v1'), 'slime-trainer-1.jsonl'),
    ],
  },
  {
    reader: "SGLang's request-metrics log (byte scan over the shared line walk)",
    name: 'sglang-request-metrics-20260825_09.log',
    // its first 12 records (~100 KB): the scan of request_parameters and the lists past it
    seeds: [
      firstLines(read(resolve(RUN_EXTRA, 'sglang_request_metrics'), METRICS_LOG), 12),
      // CRLF, Python's NaN and -Infinity, a request_parameters that is not JSON
      read(resolve(FIXTURES, 'metrics_variants/crlf'), 'sglang-request-metrics-20261207_01.log'),
    ],
  },
  {
    reader: 'JSON lines (the skeleton format over the shared reader)',
    name: 'fuzz.jsonl',
    seeds: [read(SKELETON, 'spans.jsonl'), read(SKELETON, 'long_first_line.jsonl')],
    formats: [...FORMATS, skeletonFormat],
  },
  {
    // each sample's tensors read into reused buffers as typed arrays for its figures
    reader: "slime's train-side dump (torch zip, pickle, per-sample tensor figures)",
    name: 'fuzz.pt',
    seeds: [
      read(TRAIN, 'train_0.pt'),
      read(TRAIN, 'train_1.pt'),
      // bf16 tensors; the unversioned per-rank layout
      read(resolve(FIXTURES, 'train_variants'), 'train_bf16.pt'),
      read(resolve(FIXTURES, 'train_variants'), 'train_4_1.pt'),
    ],
  },
  {
    reader: 'torch legacy layout + pickle (hand-made)',
    name: 'fuzz.pt',
    seeds: [small('slime-dict-ids'), small('legacy-negative-numel'), small('pickle-cycle')],
  },
];

/** Every event kind the Chrome reader knows, in the object form (the fixture is bare X events). */
function chromeSynthetic(): Uint8Array {
  const events = [
    { ph: 'M', name: 'process_name', pid: 'p1', tid: 0, args: { name: 'trainer' } },
    { ph: 'M', name: 'thread_name', pid: 'p1', tid: 7, args: { name: 'main' } },
    { ph: 'B', name: 'step', pid: 'p1', tid: 7, ts: 10 },
    { ph: 'X', name: 'forward', pid: 'p1', tid: 7, ts: 12, dur: 30.5, args: { n: 1 } },
    { ph: 's', name: 'flow', cat: 'f', id: 1, pid: 'p1', tid: 7, ts: 20 },
    { ph: 'E', pid: 'p1', tid: 7, ts: 60 },
    { ph: 'i', name: 'mark', s: 'p', pid: 'p1', tid: 7, ts: 15 },
    { ph: 'b', name: 'req', cat: 'a', id: '0x2', pid: 'p1', tid: 8, ts: 11 },
    { ph: 'e', name: 'req', cat: 'a', id: '0x2', pid: 'p1', tid: 8, ts: 40 },
    { ph: 'f', name: 'flow', cat: 'f', id: 1, bp: 'e', pid: 'p1', tid: 8, ts: 39 },
    { ph: 'C', name: 'mem', pid: 'p1', ts: 30, args: { bytes: 1024 } },
  ];
  return new TextEncoder().encode(JSON.stringify({ traceEvents: events, displayTimeUnit: 'ns' }));
}

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 200);
const TIME_BOUND_MS = 3000;
// per case: a small constant times the input plus a floor (the README's bound)
const memoryBound = (bytes: number) => 16 * bytes + 256 * 1024 * 1024;

function mutate(seeds: Uint8Array[], random: () => number): Uint8Array {
  const base = seeds[Math.floor(random() * seeds.length)];
  const at = Math.floor(random() * base.length);
  switch (Math.floor(random() * 5)) {
    case 0:
      return base.slice(0, at); // cut off
    case 1: {
      const out = base.slice(); // flipped bytes
      for (let i = 0; i < 1 + random() * 8; i++)
        out[Math.floor(random() * out.length)] = Math.floor(random() * 256);
      return out;
    }
    case 2: {
      const out = base.slice(); // a run overwritten (often a digit run: huge numbers)
      out.fill(Math.floor(random() * 256), at, Math.min(out.length, at + 1 + random() * 64));
      return out;
    }
    case 3: {
      // a slice repeated (duplicated keys, ids, lines)
      const len = Math.floor(random() * 256);
      const piece = base.subarray(at, at + len);
      const out = new Uint8Array(base.length + piece.length);
      out.set(base.subarray(0, at));
      out.set(piece, at);
      out.set(base.subarray(at), at + piece.length);
      return out;
    }
    default: {
      // a JSON-ish structural byte inserted
      const out = new Uint8Array(base.length + 1);
      out.set(base.subarray(0, at));
      out[at] = '{}[]",:0'.charCodeAt(Math.floor(random() * 8));
      out.set(base.subarray(at), at + 1);
      return out;
    }
  }
}

describe('fuzz: every reader opens mutated input or fails with a coded error, in bounds', () => {
  TARGETS.forEach((target, t) => {
    it(`${target.reader}: ${ITERATIONS} cases`, () => {
      const random = prng(20261124 + t);
      let opened = 0;
      let failed = 0;
      for (let i = 0; i < ITERATIONS; i++) {
        const bytes = mutate(target.seeds, random);
        const rssBefore = process.memoryUsage().rss;
        const started = performance.now();
        try {
          openTraceFile([bytesSource(target.name, bytes)], { formats: target.formats });
          opened++;
        } catch (error) {
          if (!(error instanceof FormatError))
            throw new Error(
              `${target.reader} case ${i}: uncoded ${(error as Error).constructor.name}: ${(error as Error).message}`,
            );
          failed++;
        }
        const elapsed = performance.now() - started;
        expect(elapsed, `${target.reader} case ${i} time`).toBeLessThan(TIME_BOUND_MS);
        expect(process.memoryUsage().rss - rssBefore).toBeLessThan(memoryBound(bytes.length));
      }
      expect(opened + failed).toBe(ITERATIONS);
      expect(opened).toBeGreaterThan(0);
    }, 120_000);
  });
});
