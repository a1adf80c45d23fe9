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
const RUNS = 3;

function dumpPath(): string {
  const data = join(__dirname, '.data');
  mkdirSync(data, { recursive: true });
  const path = join(data, `rows_${SAMPLES}_v3.pt`);
  if (!existsSync(path)) writeSlimeDump(path, Infinity, 420, SAMPLES);
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

function bestMs(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

it('per-sample cost of reading a dump, on one thread', () => {
  const path = dumpPath();
  let walked = 0;
  const walk = bestMs(() => {
    walked = 0;
    // every sample after the first batch walked past (the first is read to find the list)
    readSamples(path, { skipSample: () => (walked++, true) });
  });
  let count = 0;
  const values = bestMs(() => {
    count = readSamples(path, {});
  });
  const open = bestMs(() => {
    count = openTraceFile([openFileSource(path)]).summary.samples;
  });
  if (count !== SAMPLES) throw new Error(`read ${count} samples of ${SAMPLES}`);
  const us = (ms: number) => (ms * 1000) / count;
  const mb = statSync(path).size / 1e6;
  console.log(
    `${count} samples (${mb.toFixed(0)} MB), one thread, best of ${RUNS}:\n` +
      `  walk   ${us(walk).toFixed(1)} us a sample (${walked} of them walked past): the baseline\n` +
      `  values ${us(values).toFixed(1)} us a sample = ${(values / walk).toFixed(2)}x the walk\n` +
      `  open   ${us(open).toFixed(1)} us a sample = ${(open / walk).toFixed(2)}x the walk; ` +
      `at 100k samples ${((us(open) * 100_000) / 1e6).toFixed(1)} s on one core ` +
      `(issue 18's goal: every row within 8 s, the app's own texts and previews besides)`,
  );
});
