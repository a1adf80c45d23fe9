import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { openFileSource } from '../../src-main/core/bytes/file-source';
import { readSlimeDump } from '../../src-main/core/formats/slime/read-slime-dump';
import { sampleRow } from '../../src-main/core/formats/slime/open/incremental-rows';
import { buildRow } from '../../src-main/core/rows/build-rows';
import { TRACE_EVENT_RECORDS } from '../../src-main/core/rows/trace-event-record';
import { isDict, type PyDict, type PyValue } from '../../src-main/core/model/py-value';
import { writeSlimeDump } from './slime-dump-writer.mjs';

/**
 * The CPU of building a slime sample's row (issue 50), on the real-shaped dump's samples held
 * in memory: the walk and slime's row (buildRow), then with the PD view (sampleRow, what an
 * open does), each beside reading the same samples' values from the file in the same run
 * (what a row is built from). Best of RUNS each.
 */
const SAMPLES = Number(process.env.BENCH_ROW_SAMPLES ?? 10_000);
const RUNS = Number(process.env.BENCH_ROW_RUNS ?? 6);
/** row building (with the PD view) at most this share of reading the samples' values */
const GOAL = 0.3;

function dumpPath(): string {
  const data = join(__dirname, '.data');
  mkdirSync(data, { recursive: true });
  const path = join(data, `rows_${SAMPLES}_real_v1.pt`);
  if (!existsSync(path))
    writeSlimeDump(path, Infinity, 0, SAMPLES, {
      realSamples: [join(__dirname, '../fixtures/slime/rollout_small.pt')],
    });
  return path;
}

/** CPU milliseconds of the process (the collector's threads too): less moved by other load */
function cpuMs(run: () => void): number {
  const before = process.cpuUsage();
  run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/** the samples read as values, as an open reads them (trace events as records) */
function readSamples(path: string, keep: boolean): PyValue[] {
  let samples: PyValue[] = [];
  readSlimeDump(openFileSource(path), {
    records: TRACE_EVENT_RECORDS,
    onSamples: (list) => {
      samples = list;
    },
    onSample: (_list, _index, sample) => (keep ? sample : null),
  });
  return samples;
}

it('CPU of building rows, beside reading the samples', () => {
  const path = dumpPath();
  const dicts = readSamples(path, true).filter(isDict) as PyDict[];
  if (dicts.length !== SAMPLES) throw new Error(`read ${dicts.length} samples of ${SAMPLES}`);
  const tally = { skippedEvents: 0 };
  const read: number[] = [];
  const slime: number[] = [];
  const view: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    read.push(cpuMs(() => readSamples(path, false)));
    slime.push(cpuMs(() => dicts.forEach((s, i) => buildRow(s, i, tally))));
    view.push(cpuMs(() => dicts.forEach((s, i) => sampleRow(s, i, tally))));
  }
  const best = (ms: number[]) => Math.min(...ms);
  const us = (ms: number) => ((ms * 1000) / SAMPLES).toFixed(1);
  const ratio = best(view) / best(read);
  console.log(
    `${SAMPLES} real-shaped samples, one thread, CPU, best of ${RUNS}:\n` +
      `  read the samples' values ${us(best(read))} us a sample: the baseline\n` +
      `  slime's row (buildRow)    ${us(best(slime))} us a sample = ${(best(slime) / best(read)).toFixed(2)}x the read\n` +
      `  row + PD view (sampleRow) ${us(best(view))} us a sample = ${ratio.toFixed(2)}x the read ` +
      `(goal ${GOAL}x: ${ratio <= GOAL ? 'ok' : 'MISSED'})`,
  );
});
