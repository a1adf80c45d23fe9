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
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';

// The built CLI on the gpu fixture folder (two ranks of HTA's Kineto traces).
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const GPU = resolve(FIXTURES, 'gpu');
const run = (...args: string[]) => runWith({}, ...args);
const runWith = (env: Record<string, string>, ...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, ...env },
  });

interface Expected {
  temporal_breakdown: { rank: number; 'idle_time(us)': number; idle_time_pctg: number }[];
  comm_comp_overlap: { rank: number; comp_comm_overlap_pctg: number }[];
}

describe.skipIf(!existsSync(CLI))('trace-explorer on a folder of rank traces', () => {
  it('summary DIR --json: one GPU profile, per rank HTA’s breakdown, overlap, kernel types', () => {
    const result = run('summary', '--json', GPU);
    expect(result.status).toBe(0);
    const out = JSON.parse(result.stdout) as {
      files: {
        format: string;
        rows: number;
        gpuProfile: {
          ranks: {
            rank: number;
            temporalBreakdown: Record<string, number>;
            commCompOverlapPct: number;
            kernelTypes: { kernelType: string; us: number; pct: number }[];
          }[];
        };
      }[];
      skipped: { path: string }[];
    };
    expect(out.files).toHaveLength(1);
    expect(out.files[0]).toMatchObject({ format: 'gpu-profile', rows: 2 });
    expect(out.skipped.map((s) => s.path.replace(/^.*\//, ''))).toEqual([
      'README.md',
      'hta.expected.json',
    ]);
    const expected = JSON.parse(readFileSync(join(GPU, 'hta.expected.json'), 'utf8')) as Expected;
    for (const want of expected.temporal_breakdown) {
      const rank = out.files[0].gpuProfile.ranks.find((r) => r.rank === want.rank)!;
      expect(Object.keys(rank.temporalBreakdown).sort()).toEqual(
        [
          'computePct',
          'computeUs',
          'idlePct',
          'idleUs',
          'kernelUs',
          'nonComputePct',
          'nonComputeUs',
        ].sort(),
      );
      expect(rank.temporalBreakdown.idleUs).toBe(want['idle_time(us)']);
      expect(rank.temporalBreakdown.idlePct).toBe(want.idle_time_pctg);
      const overlap = expected.comm_comp_overlap.find((o) => o.rank === want.rank)!;
      expect(rank.commCompOverlapPct).toBe(overlap.comp_comm_overlap_pctg);
      expect(rank.kernelTypes.length).toBeGreaterThan(0);
    }
  });

  it('ranks read on helper threads give the same summary and rows as one thread', () => {
    // inflated: a helper reads its rank again by path, which a .gz's inflated bytes have not
    const dir = mkdtempSync(join(tmpdir(), 'gpu-threads-'));
    for (const rank of [0, 1]) {
      const inflated = gunzipSync(readFileSync(join(GPU, `rank-${rank}.json.gz`)));
      writeFileSync(join(dir, `rank-${rank}.json`), inflated);
    }
    // 0 s: every profile past its first rank read in parallel, whatever its size
    const threads = { TRACE_EXPLORER_THREADS: '4', TRACE_EXPLORER_SPLIT_MIN_SECONDS: '0' };
    const one = { TRACE_EXPLORER_THREADS: '1' };
    const summary = runWith(threads, 'summary', '--json', '--timings', dir);
    expect(summary.status).toBe(0);
    // the second rank was read by a helper thread (--timings says how much of the bytes)
    expect(summary.stderr).toMatch(/by two threads \(the second read 49% of it\)/);
    expect(summary.stdout).toBe(runWith(one, 'summary', '--json', dir).stdout);
    expect(summary.stdout).toContain('"label": "rank 1"');
    const rows = (env: Record<string, string>) =>
      runWith(env, 'rows', dir).stdout.replace(/"generated_at":[\d.]+/, '');
    expect(rows(threads)).toBe(rows(one));
  });

  it('compare A B on two GPU profiles: the answer first, then kinds and kernels by |Δ|', () => {
    const dir = mkdtempSync(join(tmpdir(), 'gpu-compare-'));
    for (const [side, rank] of [
      ['a', 0],
      ['b', 1],
    ] as const) {
      mkdirSync(join(dir, side));
      copyFileSync(join(GPU, `rank-${rank}.json.gz`), join(dir, side, `rank-${rank}.json.gz`));
    }
    const result = run('compare', join(dir, 'a'), join(dir, 'b'));
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[3]).toMatch(/^B's kernels ran [\d.]+ ms longer in total than A's/);
    expect(result.stdout).toContain('by kind (biggest |Δ| first)');
    expect(result.stdout).toMatch(/\ncommunication +195\.3 ms +168\.0 ms +−27\.3 ms +5 +5 /);
    // a GPU profile against a Chrome trace: refused with what each is
    const mixed = run(
      'compare',
      join(dir, 'a'),
      resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json'),
    );
    expect(mixed.status).not.toBe(0);
    expect(mixed.stderr).toContain('cannot compare a GPU profile with a Chrome trace');
  });
});
