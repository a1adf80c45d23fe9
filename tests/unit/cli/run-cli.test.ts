import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectedTimelineOperations } from '../../support/run-expected';

// `summary RUN --json` and `export RUN --format perfetto` on the run fixture, through the built
// CLI. Pinned values: tests/fixtures/run/README.md and expected_counts.json.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const RUN = resolve(__dirname, '../../fixtures/run');
const cli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

// per rank, schema 2 (both ranks count alike)
const V2_BY_OPERATION = expectedTimelineOperations('comm_timeline/slime-trainer-0.jsonl');

/** the run with one timeline schema, as slime lays it out; `cut` cuts rank 1's last line */
function runFolder(timeline: 'comm_timeline' | 'comm_timeline_v1', cut = false): string {
  const dir = mkdtempSync(join(tmpdir(), 'te-run-'));
  for (const name of ['rollout_0.pt', 'rollout_1.pt', 'sglang_otel_trace.json', 'README.md']) {
    copyFileSync(join(RUN, name), join(dir, name));
  }
  mkdirSync(join(dir, 'timeline'));
  copyFileSync(
    join(RUN, timeline, 'slime-trainer-0.jsonl'),
    join(dir, 'timeline', 'slime-trainer-0.jsonl'),
  );
  const rank1 = readFileSync(join(RUN, timeline, 'slime-trainer-1.jsonl'), 'utf8');
  // slime's name without {rank} in the template: .rank-N before the suffix
  writeFileSync(join(dir, 'timeline', 'comm.rank-1.jsonl'), cut ? rank1.slice(0, -200) : rank1);
  return dir;
}

interface RunSummary {
  files: { path: string; format: string; samples: number; spans: number }[];
  skipped: { path: string; reason: string }[];
  joins: Record<string, number>;
  trainer: {
    files: number;
    records: number;
    skippedLines: number;
    byOperation: Record<string, number>;
  };
  unjoined: {
    serverRequestsWithoutSample: {
      rid: string;
      likelyClient: { rolloutId: number; sampleIndex: number } | null;
    }[];
    samplesWithoutServerRequest: unknown[];
  };
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
});

describe('trace-explorer on a run', () => {
  it('summary RUN --json: files, joins and trainer with exactly their keys (schema 2)', () => {
    const dir = runFolder('comm_timeline');
    const result = cli('summary', '--json', dir);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as RunSummary;
    expect(summary.files.map((f) => [f.path, f.format, f.samples])).toEqual([
      [join(dir, 'rollout_0.pt'), 'slime', 32],
      [join(dir, 'rollout_1.pt'), 'slime', 32],
      [join(dir, 'sglang_otel_trace.json'), 'otlp', 65],
      [join(dir, 'timeline', 'comm.rank-1.jsonl'), 'slime-comm-timeline', 123],
      [join(dir, 'timeline', 'slime-trainer-0.jsonl'), 'slime-comm-timeline', 123],
    ]);
    // SGLang: 5511 spans
    expect(summary.files[2].spans).toBe(5511);
    expect(summary.skipped).toEqual([
      { path: join(dir, 'README.md'), reason: 'not a trace this app reads' },
    ]);
    expect(summary.joins).toStrictEqual({
      samples: 64,
      samplesWithServerRequests: 64,
      samplesWithoutServerRequest: 0,
      serverRequests: 65,
      serverRequestsWithoutSample: 1,
      staleSamples: 0,
    });
    expect(summary.trainer).toStrictEqual({
      files: 2,
      records: 246,
      skippedLines: 0,
      byOperation: Object.fromEntries(Object.entries(V2_BY_OPERATION).map(([k, n]) => [k, 2 * n])),
    });
    expect(summary.unjoined.serverRequestsWithoutSample).toMatchObject([
      { rid: '03b17c26e4095a197023885edbb54011', likelyClient: { rolloutId: 0, sampleIndex: 5 } },
    ]);
  });

  it('schema 1 with a cut-off last line: 105 + 104 records, 1 line skipped', () => {
    const result = cli('summary', '--json', runFolder('comm_timeline_v1', true));
    expect(result.status, result.stderr).toBe(0);
    const { trainer, joins } = JSON.parse(result.stdout) as RunSummary;
    expect(trainer.files).toBe(2);
    expect(trainer.records).toBe(105 + 104);
    expect(trainer.skippedLines).toBe(1);
    expect(trainer.byOperation.weight_bucket_reusable).toBeUndefined();
    expect(trainer.byOperation.weight_bucket_send).toBe(36);
    expect(joins.samplesWithServerRequests).toBe(64);
  });

  it('export RUN --format perfetto: one trace on one clock, a flow from each joined sample to its request', () => {
    const dir = runFolder('comm_timeline');
    const out = join(dir, 'run.perfetto.json');
    const result = cli('export', dir, '--format', 'perfetto', '-o', out);
    expect(result.status, result.stderr).toBe(0);
    const trace = JSON.parse(readFileSync(out, 'utf8')) as {
      traceEvents: {
        ph: string;
        pid: number;
        tid: number;
        ts?: number;
        dur?: number;
        id?: string;
        name: string;
        args?: { name?: string };
      }[];
    };
    const processes = new Map(
      trace.traceEvents
        .filter((e) => e.ph === 'M' && e.name === 'process_name')
        .map((e) => [e.pid, e.args!.name]),
    );
    expect([...processes.values()]).toEqual([
      'rollout_0.pt',
      'rollout_1.pt',
      'sglang_otel_trace.json',
      'comm.rank-1.jsonl',
      'slime-trainer-0.jsonl',
    ]);
    const starts = trace.traceEvents.filter((e) => e.ph === 's');
    const ends = trace.traceEvents.filter((e) => e.ph === 'f');
    expect(starts).toHaveLength(64);
    expect(ends).toHaveLength(64);
    expect(new Set(starts.map((e) => processes.get(e.pid)))).toEqual(
      new Set(['rollout_0.pt', 'rollout_1.pt']),
    );
    expect(new Set(ends.map((e) => processes.get(e.pid)))).toEqual(
      new Set(['sglang_otel_trace.json']),
    );
    for (const start of starts) {
      const end = ends.find((e) => e.id === start.id)!;
      // the server request starts 0.405..1.179 ms after its client span (README, clock relations)
      expect(end.ts! - start.ts!).toBeGreaterThan(400);
      expect(end.ts! - start.ts!).toBeLessThan(1200);
      // the flow leaves a generate slice on the sample's thread
      const slice = trace.traceEvents.find(
        (e) =>
          e.ph === 'X' &&
          e.pid === start.pid &&
          e.tid === start.tid &&
          e.ts === start.ts &&
          e.name === 'sglang_generate',
      );
      expect(slice).toBeDefined();
    }
    // one clock: the first trainer record (rank 0, 1787648402.126566 s) is the run's origin
    const trainerPid = [...processes].find(([, name]) => name === 'slime-trainer-0.jsonl')![0];
    const firstTrainer = Math.min(
      ...trace.traceEvents
        .filter((e) => e.pid === trainerPid && e.ts !== undefined)
        .map((e) => e.ts!),
    );
    expect(firstTrainer).toBe(0);
  });

  it('a folder of rollout dumps alone is still not a run (trends keep it)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-run-'));
    for (const name of ['rollout_0.pt', 'rollout_1.pt'])
      copyFileSync(join(RUN, name), join(dir, name));
    const summary = JSON.parse(cli('summary', '--json', dir).stdout) as Record<string, unknown>;
    expect(summary.joins).toBeUndefined();
    expect((summary.files as unknown[]).length).toBe(2);
  });
});
