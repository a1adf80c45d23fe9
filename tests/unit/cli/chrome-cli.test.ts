import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../../support/fixtures';

// The built CLI (npm test builds first) on the Chrome trace fixture, plain and gzipped.
const CLI = resolve(__dirname, '../../../out/main/cli.js');
const FIXTURE = resolve(FIXTURES, 'chrome/torch_profiler_train_cpu.json');
const run = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

describe.skipIf(!existsSync(CLI))('trace-explorer on a Chrome trace', () => {
  it('summary --json: the README counts (1087 X events as spans, one process)', () => {
    const result = run('summary', '--json', FIXTURE);
    expect(result.status).toBe(0);
    const summary = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      format: 'chrome-trace',
      bytes: 117705,
      samples: 1,
      rows: 1,
      spans: 1087,
      events: 0,
      links: 0,
      sources: ['CPU functions'],
      notices: [],
    });
    // README: ts/dur from 875 to 83896 microseconds
    expect(summary.globalStartSec).toBeCloseTo(875e-6, 12);
    expect(summary.durationSec).toBeCloseTo((83896 - 875) * 1e-6, 12);
  });

  it('summary has no rollout block: a Chrome trace holds no rollout (capabilities.samples)', () => {
    const summary = JSON.parse(run('summary', '--json', FIXTURE).stdout) as Record<string, unknown>;
    expect(Object.keys(summary)).not.toContain('rollout');
    const text = run('summary', FIXTURE).stdout;
    expect(text).not.toMatch(/^(window|resumed|tail) /m);
    // a slime dump, whose rows are a rollout's samples, keeps it
    const dump = run('summary', '--json', resolve(FIXTURES, 'slime/rollout_small.pt'));
    expect(Object.keys(JSON.parse(dump.stdout) as object)).toContain('rollout');
  });

  it('summary in text names the format and the span count', () => {
    const text = run('summary', FIXTURE).stdout;
    expect(text).toContain('format    Chrome trace (Trace Event JSON)');
    expect(text).toContain('spans     1087   events 0   links 0');
  });

  it('rows: one row of 1087 spans, rollout steps at depth 0 on the thread tid 1', () => {
    const result = run('rows', FIXTURE);
    expect(result.status).toBe(0);
    const cache = JSON.parse(result.stdout) as {
      sample_count: number;
      rows: { source: string; items: { name: string; depth: number; lane_label: string }[] }[];
    };
    expect(cache.sample_count).toBe(1);
    expect(cache.rows).toHaveLength(1);
    expect(cache.rows[0].source).toBe('CPU functions');
    expect(cache.rows[0].items).toHaveLength(1087);
    const steps = cache.rows[0].items.filter((i) => i.name.startsWith('rollout_step_'));
    expect(steps.map((s) => [s.name, s.depth, s.lane_label])).toEqual([
      ['rollout_step_0', 0, 'tid 1'],
      ['rollout_step_1', 0, 'tid 1'],
      ['rollout_step_2', 0, 'tid 1'],
    ]);
  });

  it('a gzipped copy gives the same counts; one cut short a one-line coded error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'chrome-cli-'));
    const gz = join(dir, 'trace.json.gz');
    const compressed = gzipSync(readFileSync(FIXTURE));
    writeFileSync(gz, compressed);
    const summary = JSON.parse(run('summary', '--json', gz).stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({
      format: 'chrome-trace',
      spans: 1087,
      bytes: compressed.length,
    });
    const broken = join(dir, 'broken.json.gz');
    writeFileSync(broken, compressed.subarray(0, 100));
    const result = run('summary', broken);
    expect(result.status).not.toBe(0);
    // one line, naming the file once (the path), then what is wrong with it
    expect(result.stderr).toMatch(
      /^trace-explorer: \/\S+\/broken\.json\.gz: a gzip file cut short: its stream ends at byte 100, .* \[gzip\/truncated\]\n$/,
    );
    expect(result.stderr.split('broken.json.gz')).toHaveLength(2);
  });
});
