import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { writeJsonStreaming } from '../../../src-main/cli/write-json';
import { progressLine, terminalProgress } from '../../../src-main/cli/terminal-progress';
import { spanNamePattern } from '../../../src-main/core/model/span-name-pattern';
import { OTLP, SLIME, readJson } from '../../support/fixtures';

// The command line as a new user hit it (issue 14): each case runs the built CLI.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

function folderWith(files: Record<string, string | null>): string {
  const dir = mkdtempSync(join(tmpdir(), 'te-cli-'));
  for (const [name, from] of Object.entries(files)) {
    if (from === null) mkdirSync(join(dir, name));
    else if (existsSync(from)) copyFileSync(from, join(dir, name));
    else writeFileSync(join(dir, name), from);
  }
  return dir;
}

beforeAll(() => {
  if (!existsSync(CLI)) throw new Error(`${CLI} is not built: run npm run build (npm test does)`);
});

describe('trace-explorer command line', () => {
  it('an unknown command is an error listing the commands, not a server', () => {
    const result = run('sumary', resolve(SLIME, 'rollout_small.pt'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown command 'sumary'");
    expect(result.stderr).toContain('serve, summary, rows, perf, export');
    expect(result.stderr).toContain("Did you mean 'summary'?");
    expect(result.stdout).toBe('');
  });

  it('an unknown option is a usage error', () => {
    const result = run('summary', '--jsn', resolve(SLIME, 'rollout_small.pt'));
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("Unknown option '--jsn'");
  });

  it('--compare with one file or three is an error', () => {
    const small = resolve(SLIME, 'rollout_small.pt');
    for (const files of [[small], [small, small, small]]) {
      const result = run('serve', '--compare', '--port', '0', ...files);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(`--compare takes two files, A and B (${files.length} given)`);
    }
  });

  it('rows on a missing file gives the same coded error as summary', () => {
    const rows = run('rows', '/missing.pt');
    const summary = run('summary', '/missing.pt');
    expect(rows.status).toBe(1);
    expect(rows.stderr).toBe('trace-explorer: /missing.pt: no such file [io/not-found]\n');
    expect(summary.stderr).toBe(rows.stderr);
  });

  it('a folder of dumps opens them all and says what else it holds', () => {
    const dir = folderWith({
      'rollout_small.pt': resolve(SLIME, 'rollout_small.pt'),
      'eval_0.pt': resolve(SLIME, 'eval_0.pt'),
      'notes.md': '# not a trace\n',
      nested: null,
    });
    const result = run('summary', '--json', dir);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      files: { name: string; samples: number }[];
      skipped: { path: string; reason: string }[];
    };
    // counts from tests/fixtures/slime/README.md: eval_0 is 3 x 4, rollout_small 4 x 4
    expect(summary.files.map((f) => [f.name, f.samples])).toEqual([
      ['eval_0.pt', 12],
      ['rollout_small.pt', 16],
    ]);
    expect(summary.skipped).toEqual([
      { path: join(dir, 'nested'), reason: 'a folder (folders inside a folder are not opened)' },
      { path: join(dir, 'notes.md'), reason: 'not a trace this app reads' },
    ]);
    const rows = run('rows', dir);
    expect(rows.status).toBe(2);
    expect(rows.stderr).toContain(
      'holds 2 traces (eval_0.pt, rollout_small.pt): name one of them for rows',
    );
  });

  it('an empty folder says so', () => {
    const dir = folderWith({ 'README.md': 'hello\n' });
    const result = run('summary', dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `trace-explorer: ${dir}: the folder holds no trace file; it holds README.md (not a trace this app reads) [io/empty-folder]\n`,
    );
  });

  it('a folder of OpenTelemetry files chooses by content, not name, and keeps rotated sets together', () => {
    const dir = folderWith({
      // SGLang's collector file under a name no name rule knows
      'server_side_capture.json': resolve(OTLP, 'sglang_otel_trace.json'),
      'traces.jsonl': resolve(OTLP, 'roll_traces.jsonl'),
      'traces.1.jsonl': resolve(OTLP, 'roll_traces.1.jsonl'),
      'counts.json': '{"resourceSpans": 115}\n',
    });
    const result = run('summary', '--json', dir);
    expect(result.status, result.stderr).toBe(0);
    const summary = JSON.parse(result.stdout) as {
      files: { name: string; samples: number; spans: number }[];
      skipped: { path: string; reason: string }[];
    };
    // spans from tests/fixtures/otlp/README.md: 1396 (SGLang); 2348 + 801 (ROLL's rotated set)
    expect(summary.files.map((f) => [f.name, f.spans])).toEqual([
      ['server_side_capture.json', 1396],
      ['traces.jsonl (+1)', 2348 + 801],
    ]);
    expect(summary.skipped.map((s) => s.path)).toEqual([join(dir, 'counts.json')]);
  });

  it('rows on an OpenTelemetry file prints its rows; perf its span-name figures', () => {
    const path = resolve(OTLP, 'sglang_otel_trace.json');
    const rows = run('rows', path);
    expect(rows.status, rows.stderr).toBe(0);
    const cache = JSON.parse(rows.stdout) as { sample_count: number; rows: { items: unknown[] }[] };
    // 20 traces, 1396 spans + 640 events (tests/fixtures/otlp/README.md; events: summary)
    expect(cache.sample_count).toBe(20);
    expect(cache.rows).toHaveLength(20);
    const summary = JSON.parse(run('summary', '--json', path).stdout) as {
      spans: number;
      events: number;
    };
    expect(cache.rows.reduce((n, row) => n + row.items.length, 0)).toBe(
      summary.spans + summary.events,
    );
    const perf = JSON.parse(run('perf', path).stdout) as Record<string, number>;
    // one decode root and one prefill root per request, 20 requests (README)
    expect(perf['span/decode Req */count']).toBe(20);
    expect(perf['span/prefill Req */count']).toBe(20);
    expect(perf['span/decode Req */max']).toBeGreaterThanOrEqual(perf['span/decode Req */median']);
  });

  it('says "1 line skipped", once', () => {
    const result = run('summary', resolve(OTLP, 'otlp_truncated.jsonl'));
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('skipped   1 line: line 7 cut off');
    expect(result.stdout.match(/line 7/g)).toHaveLength(1);
    expect(result.stdout).not.toContain('1 lines');
  });
});

describe('rows as streamed JSON', () => {
  /** A stream that says "wait" after every write, as a slow pipe does. */
  function slowSink() {
    const chunks: string[] = [];
    let waits = 0;
    const sink = new Writable({
      highWaterMark: 1,
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk.toString());
        setImmediate(done);
      },
    });
    sink.on('drain', () => waits++);
    return { sink, text: () => chunks.join(''), waits: () => waits };
  }

  it('writes exactly what JSON.stringify would, a fixture at a time, waiting for the pipe', async () => {
    for (const name of ['rollout_small.pt', 'edge_cases.pt', 'empty_samples.pt']) {
      const cache = readJson<Record<string, unknown>>(resolve(SLIME, `${name}.expected.json`));
      const { sink, text, waits } = slowSink();
      await writeJsonStreaming(sink, cache);
      expect(text(), name).toBe(`${JSON.stringify(cache)}\n`);
      // the slow pipe fills at once, even with the small cache: the writer must wait for it
      expect(waits(), name).toBeGreaterThan(0);
    }
  });

  it('leaves out what JSON.stringify leaves out, and writes null for holes', async () => {
    const value = { a: undefined, b: [1, undefined, 'x'], c: null, d: { e: undefined } };
    const { sink, text } = slowSink();
    await writeJsonStreaming(sink, value);
    expect(text()).toBe(`${JSON.stringify(value)}\n`);
  });
});

describe('progress on a terminal', () => {
  afterEach(() => vi.useRealTimers());

  function fakeStream(isTTY: boolean) {
    const writes: string[] = [];
    const stream = {
      isTTY,
      write: (text: string) => writes.push(text),
    } as unknown as NodeJS.WriteStream;
    return { stream, writes };
  }

  it('stays quiet for 2 s, then redraws one line, and erases it when done', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const { stream, writes } = fakeStream(true);
    const progress = terminalProgress('big.pt', 600e6, stream);
    progress.onProgress({ bytesRead: 100e6, samplesRead: 1000, phase: 'reading' });
    expect(writes).toEqual([]);
    vi.setSystemTime(2100);
    progress.onProgress({
      bytesRead: 300e6,
      samplesRead: 5000,
      phase: 'reading',
      counted: 'samples',
    });
    expect(writes).toEqual(['\r\x1b[Kbig.pt: reading 50% (300 MB of 600 MB), 5000 samples read']);
    vi.setSystemTime(2150); // within one redraw interval: not drawn again
    progress.onProgress({ bytesRead: 310e6, samplesRead: 5100, phase: 'reading' });
    expect(writes).toHaveLength(1);
    progress.done();
    expect(writes[1]).toBe('\r\x1b[K');
  });

  it('prints nothing when stderr is not a terminal', () => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
    const { stream, writes } = fakeStream(false);
    const progress = terminalProgress('big.pt', 600e6, stream);
    vi.setSystemTime(10_000);
    progress.onProgress({ bytesRead: 300e6, samplesRead: 5000, phase: 'reading' });
    progress.done();
    expect(writes).toEqual([]);
  });

  it('says when rows are being built', () => {
    expect(
      progressLine('a.pt', 10, {
        bytesRead: 10,
        samplesRead: 42,
        phase: 'building',
        counted: 'samples',
      }),
    ).toBe('a.pt: building rows of 42 samples…');
  });
});

describe('span name patterns', () => {
  it('replaces request ids, keeps words and small numbers', () => {
    expect(spanNamePattern('decode Req 1a2b3c4d')).toBe('decode Req *');
    expect(spanNamePattern('prefill Req 03b17c26')).toBe('prefill Req *');
    expect(spanNamePattern('Decode Scheduler [TP 1]  [DP 0]')).toBe(
      'Decode Scheduler [TP 1]  [DP 0]',
    );
    expect(spanNamePattern('decode_forward')).toBe('decode_forward');
    expect(spanNamePattern('worker.compute_rewards')).toBe('worker.compute_rewards');
    expect(spanNamePattern('step 12345')).toBe('step *');
    expect(spanNamePattern('step 7')).toBe('step 7');
    // a word of hex letters only is a word, not an id
    expect(spanNamePattern('facade added')).toBe('facade added');
  });
});
