import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { openFileSource } from '../../src-main/core/bytes/file-source';
import {
  readSlimeDump,
  type ReadDumpOptions,
} from '../../src-main/core/formats/slime/read-slime-dump';
import { openTraceFile } from '../../src-main/core/open/open-trace-file';
import { writeSlimeDump } from './slime-dump-writer.mjs';

/**
 * Where one thread's time goes per sample of a dump shaped like issue 18's (420 tokens and
 * about 25 trace events a sample), on one thread, the best of a few runs each:
 * - walk: the pickle's opcodes walked past without building anything (skip-item.ts: what the
 *   helper does before its part), the least any reading of these bytes costs here;
 * - values: the samples built as Python values (dicts, strings, numbers), then let go;
 * - open: the whole open (values, each sample's row packed, perf values, facts, store, perf view).
 * Each beside the walk of the same run: what building values and rows adds to reading the
 * bytes is what a reader that packed rows straight from the pickle could save.
 */
const SAMPLES = Number(process.env.BENCH_PER_SAMPLE_ROWS ?? 20_000);
const RUNS = Number(process.env.BENCH_PER_SAMPLE_RUNS ?? 3);
// BENCH_PER_SAMPLE_REAL=1: the real-shaped dump (issue 50: a fixture's samples written again)
const REAL = process.env.BENCH_PER_SAMPLE_REAL === '1';

function dumpPath(): string {
  const data = join(__dirname, '.data');
  mkdirSync(data, { recursive: true });
  const path = join(data, REAL ? `rows_${SAMPLES}_real_v1.pt` : `rows_${SAMPLES}_v3.pt`);
  if (existsSync(path)) return path;
  if (REAL) {
    const fixture = join(__dirname, '../fixtures/slime/rollout_small.pt');
    writeSlimeDump(path, Infinity, 0, SAMPLES, { realSamples: [fixture] });
  } else writeSlimeDump(path, Infinity, 420, SAMPLES);
  return path;
}

/** the samples list emptied as it grows (each sample let go once read), then `extra` */
function readSamples(path: string, extra: ReadDumpOptions): number {
  let samples = 0;
  readSlimeDump(openFileSource(path), {
    onSamples: (list) => {
      samples = Math.max(samples, list.length);
      list.fill(null);
    },
    onSample: () => null,
    ...extra,
  });
  return samples;
}

/** CPU milliseconds of the process (the collector's threads too): less moved by other load */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** The three steps, timed once each. */
function steps(path: string): { walk: number; values: number; open: number } {
  let count = 0;
  const walk = cpuMs(() => {
    // every sample after the first batch walked past (the first is read to find the list)
    readSamples(path, { skipSample: () => true });
  });
  const values = cpuMs(() => {
    count = readSamples(path, {});
  });
  const open = cpuMs(() => {
    if (openTraceFile([openFileSource(path)]).summary.samples !== count) count = -1;
  });
  if (count !== SAMPLES) throw new Error(`read ${count} samples of ${SAMPLES}`);
  return { walk, values, open };
}

type Steps = ReturnType<typeof steps>;
const best = (runs: Steps[]): Steps => ({
  walk: Math.min(...runs.map((r) => r.walk)),
  values: Math.min(...runs.map((r) => r.values)),
  open: Math.min(...runs.map((r) => r.open)),
});

// An older tree's readers imported into this process ran slower than the same code imported
// first (a copy of this tree measured 0.70x itself): a before/after is two processes, as
// `npm run bench real` runs two builds' `summary` turn about.
it('per-sample cost of reading a dump, on one thread', () => {
  const path = dumpPath();
  const runs: Steps[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(steps(path));
  const { walk, values, open } = best(runs);
  const us = (ms: number) => (ms * 1000) / SAMPLES;
  const mb = statSync(path).size / 1e6;
  console.log(
    `${SAMPLES} samples (${mb.toFixed(0)} MB${REAL ? ', real-shaped' : ''}), one thread, CPU time, best of ${RUNS}:\n` +
      `  walk   ${us(walk).toFixed(1)} us a sample (all but the first batch walked past): the baseline\n` +
      `  values ${us(values).toFixed(1)} us a sample = ${(values / walk).toFixed(2)}x the walk\n` +
      `  open   ${us(open).toFixed(1)} us a sample = ${(open / walk).toFixed(2)}x the walk; ` +
      `at 100k samples ${((us(open) * 100_000) / 1e6).toFixed(1)} s on one core`,
  );
});
