import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  FIXTURES,
  OTLP,
  SLIME,
  readJson,
  readManifest,
  slimeFixturesWithExpected,
} from '../../support/fixtures';
// the bench's writer: dumps shaped like slime's (CPython's memo use, batches of 1000)
import { writeSlimeDump } from '../../bench/slime-dump-writer.mjs';

// The headless commands as a user runs them: the built CLI (npm test builds first).
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/**
 * `args` print the same read in parts (a helper thread; `threads`: the machine's thread count
 * as TRACE_EXPLORER_THREADS says it, else this machine's) as on one thread.
 */
function expectSameOnOneThread(args: string[], threads?: string) {
  const runWith = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, env });
  const split = runWith(
    threads
      ? { ...process.env, TRACE_EXPLORER_THREADS: threads, TRACE_EXPLORER_SPLIT_MIN_SECONDS: '0' }
      : process.env,
  );
  const single = runWith({ ...process.env, TRACE_EXPLORER_THREADS: '1' });
  expect(split.status, split.stderr).toBe(0);
  expect(split.stdout.length).toBeGreaterThan(500);
  expect(split.stdout === single.stdout, args[0]).toBe(true);
}

/** `summary --timings` of `path` on a machine of 4 threads where any split pays: its timings */
function readByTwo(path: string): string {
  const timed = spawnSync(process.execPath, [CLI, 'summary', '--timings', path], {
    encoding: 'utf8',
    env: { ...process.env, TRACE_EXPLORER_THREADS: '4', TRACE_EXPLORER_SPLIT_MIN_SECONDS: '0' },
  });
  expect(timed.status, timed.stderr).toBe(0);
  return timed.stderr;
}

describe('trace-explorer CLI', () => {
  it('--help lists the commands, and each command has its own --help', () => {
    const help = run('--help');
    expect(help.status).toBe(0);
    for (const command of ['serve', 'summary', 'rows', 'perf', 'export']) {
      expect(help.stdout).toContain(command);
      expect(run(command, '--help').stdout).toContain(`trace-explorer ${command}`);
    }
  });

  it('rows prints slime’s cache for every fixture', () => {
    for (const fixture of slimeFixturesWithExpected()) {
      const result = run('rows', fixture.path);
      expect(result.status, fixture.name).toBe(0);
      const actual = JSON.parse(result.stdout) as {
        rows: { duration: number; items: unknown[] }[];
        sample_count: number;
        global_end: number | null;
      };
      const expected = readJson<typeof actual>(fixture.expectedPath);
      expect(actual.sample_count).toBe(expected.sample_count);
      // slime rounds with Python's round(x, 6); our CLI must print that very double
      expect(actual.global_end).toBe(expected.global_end);
      expect(actual.rows.map((r) => r.items.length)).toEqual(
        expected.rows.map((r) => r.items.length),
      );
    }
  });

  it('perf prints slime’s perf keys', () => {
    const result = run('perf', resolve(SLIME, 'rollout_pd_legacy.pt'));
    const perf = JSON.parse(result.stdout) as Record<string, number>;
    const expected = readJson<Record<string, number>>(
      resolve(SLIME, 'rollout_pd_legacy.pt.perf.expected.json'),
    );
    for (const [key, value] of Object.entries(expected)) expect(perf[key]).toBeCloseTo(value, 12);
  });

  it('summary --json on every manifest input: its counts, or a one-line error naming the file', () => {
    const inputs = readManifest().inputs;
    for (const input of inputs.filter((i) => i.opens !== undefined)) {
      const file = resolve(FIXTURES, input.file);
      const result = run('summary', '--json', file);
      expect(result.status, `${file}: ${result.stderr}`).toBe(0);
      const summary = JSON.parse(result.stdout) as Record<string, unknown>;
      expect(Object.keys(summary), file).toEqual(
        expect.arrayContaining([
          'format',
          'samples',
          'untracedSamples',
          'rows',
          'spans',
          'events',
          'links',
          'skippedLines',
        ]),
      );
      expect(summary, file).toMatchObject(input.opens!);
    }
    for (const input of inputs.filter((i) => i.error !== undefined)) {
      const file = resolve(FIXTURES, input.file);
      const result = run('summary', '--json', file);
      expect(result.status, file).toBe(1);
      expect(result.stderr.trim().split('\n'), file).toHaveLength(1);
      expect(result.stderr, file).toContain(input.file.split('/').pop());
    }
    const sglang = JSON.parse(
      run('summary', '--json', resolve(OTLP, 'sglang_otel_trace.json')).stdout,
    ) as Record<string, number>;
    expect(sglang).toMatchObject({ format: 'otlp', spans: 1396, rows: 20, skippedLines: 0 });
    const noTrace = JSON.parse(
      run('summary', '--json', resolve(SLIME, 'no_trace.pt')).stdout,
    ) as Record<string, number>;
    expect(noTrace).toMatchObject({ format: 'slime', samples: 8, untracedSamples: 8, rows: 0 });
  });

  it('summary prints a human-readable perf table', () => {
    const text = run('summary', resolve(SLIME, 'rollout_small.pt')).stdout;
    expect(text).toMatch(/samples\s+16 \(16 traced, 0 without trace\)/);
    expect(text).toContain('perf/request/e2e_latency');
  });

  it('export writes a gzipped Perfetto trace, and CSV to stdout', () => {
    const dir = mkdtempSync(join(tmpdir(), 'te-export-'));
    const out = join(dir, 'trace.json.gz');
    expect(
      run('export', resolve(OTLP, 'roll_traces.1.jsonl'), '--format', 'perfetto', '-o', out).status,
    ).toBe(0);
    const trace = JSON.parse(gunzipSync(readFileSync(out)).toString('utf8')) as {
      traceEvents: { ph: string }[];
    };
    expect(trace.traceEvents.filter((e) => e.ph === 'X' || e.ph === 'b').length).toBe(801);
    const csv = run('export', resolve(SLIME, 'rollout_small.pt'), '--format', 'csv', '-o', '-')
      .stdout.trim()
      .split('\n');
    expect(csv[0]).toMatch(/^row_id,sample_index/);
    expect(csv).toHaveLength(17);
  });

  it('summary --timings names each step of opening and the reading speed on stderr', () => {
    for (const file of [
      resolve(OTLP, 'roll_traces.jsonl'),
      resolve(SLIME, 'rollout_pd_legacy.pt'),
    ]) {
      const result = run('summary', '--json', '--timings', file);
      expect(result.status).toBe(0);
      expect(JSON.parse(result.stdout)).toHaveProperty('rows');
      expect(result.stderr).toMatch(
        /^timings: read [\d.]+ s, rows [\d.]+ s, store [\d.]+ s, perf [\d.]+ s; reading \d+ MB\/s by one thread, open [\d.]+ s \(\d+ MB\/s\)\n$/,
      );
    }
  });

  it('a large OTLP file is read by two threads with the one-thread result', () => {
    // above the 32 MB split size: the file's second half is read by a helper worker
    const dir = mkdtempSync(join(tmpdir(), 'te-split-'));
    const path = join(dir, 'large.jsonl');
    const lines = readFileSync(resolve(OTLP, 'roll_traces.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const out: string[] = [];
    for (let copy = 0, bytes = 0; bytes < 40e6; copy++) {
      for (const line of lines) {
        // fresh trace ids per copy, so traces do not merge across copies
        const next = line.replace(
          /"traceId":"([0-9a-f]{24})[0-9a-f]{8}"/g,
          (_m, head: string) => `"traceId":"${head}${copy.toString(16).padStart(8, '0')}"`,
        );
        out.push(next);
        bytes += next.length + 1;
      }
      // a bad line now and then, to check line numbers past the split
      if (copy % 3 === 1) out.push('not json');
    }
    writeFileSync(path, `${out.join('\n')}\n`);
    // every span, event and attribute is in the Perfetto export
    expectSameOnOneThread(['summary', '--json', path]);
    expectSameOnOneThread(['export', path, '--format', 'perfetto']);
    const summary = JSON.parse(run('summary', '--json', path).stdout) as {
      spans: number;
      skippedLines: number;
      skippedLineExamples: { line: number }[];
    };
    expect(summary.spans).toBeGreaterThan(100_000);
    expect(summary.skippedLines).toBeGreaterThan(8);
    // the last example lies in the second half, numbered as in the file
    const last = summary.skippedLineExamples[7].line;
    expect(last).toBeGreaterThan(out.length / 2);
    expect(out[last - 1]).toBe('not json');
    // split at a line's start near the middle
    expect(readByTwo(path)).toMatch(/by two threads \(the second read (49|50|51)% of it\)/);
  }, 60_000);

  it('a large slime dump is read by two threads with the one-thread result', () => {
    // above the 64 MB split size, with a core to spare (TRACE_EXPLORER_THREADS stands for the
    // machine's) and however soon it is read (it pays from 2 s left): a helper worker walks
    // past the first part's samples and builds the rest's
    const dir = mkdtempSync(join(tmpdir(), 'te-split-dump-'));
    const path = join(dir, 'rollout_split.pt');
    writeSlimeDump(path, 70e6, 400, Infinity, { resumedGroups: 2, rolloutId: 3 });
    expectSameOnOneThread(['summary', '--json', path], '4');
    expectSameOnOneThread(['perf', path], '4');
    // and it was read by two (a helper that failed or stalled would leave it to one thread):
    // from 0.45 of what was left once the split was decided (MAIN_PART): the helper reads more
    expect(readByTwo(path)).toMatch(/by two threads \(the second read 5\d% of it\)/);
    rmSync(dir, { recursive: true, force: true });
  }, 120_000);
});
