import { join, resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { it } from 'vitest';
import { openFileSource } from '../../src-main/core/bytes/file-source';
import { openTraceFile } from '../../src-main/core/open/open-trace-file';
import { buildPerfDigest, perfBinRows } from '../../src-main/core/open/perf-digest';
import { binEdges, binIndexOf } from '../../src-main/core/open/value-bins';
import { encodeAnswer } from '../../src-main/core/api/typed-json';
import { rowFactsOf } from '../../src-main/core/store/row-views';
import { queryRows, STORE_SORT_KEYS } from '../../src-main/core/store/query-rows';
import { ascendingIndexes, identityOrder } from '../../src-main/core/store/radix-order';
import {
  SearchTextColumn,
  searchTextReady,
  searchTextsOf,
  searchTrigramsReady,
} from '../../src-main/core/store/search-text';
import { sampleDurations } from '../../src-main/core/store/sample-duration';
import { warmIndexes } from '../../src-main/core/store/warm-indexes';
import type { TraceStore } from '../../src-main/core/store/build-store';

// Issue 50's interactions in one process, on the real-shaped dump (`npm run bench interactions`
// writes it): each call's own work, ours beside what it did before, timed in the same run (the
// least of 15: over HTTP on a shared 2-core machine a call's time is mostly other processes').
// BENCH_ROWS picks the dump (100,000 by default).
const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const PATH = resolve(__dirname, `.data/rows_${ROWS}_real_v1.pt`);

/** the least time of `reps` runs of `run`, in ms */
function least(run: () => unknown, reps = 15): number {
  let best = Infinity;
  for (let k = 0; k < reps; k++) {
    const t = performance.now();
    run();
    best = Math.min(best, performance.now() - t);
  }
  return best;
}

function line(label: string, ours: number, before: number) {
  console.log(
    `  ${label}: ${ours.toFixed(2)} ms, before ${before.toFixed(2)} ms (${(ours / before).toFixed(3)}x the time)`,
  );
}

/** the encoder before: a replacer on every value */
function replacerJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'bigint'
      ? { $bigint: item.toString() }
      : ArrayBuffer.isView(item) && !(item instanceof DataView)
        ? { $typed: item.constructor.name, at: 0, length: (item as Int32Array).length }
        : item,
  );
}

/** a bin click before: every value placed again, rows kept in a Set */
function binRowsBySet(values: Float64Array, rowIds: Int32Array, b: number): number[] {
  const edges = binEdges(values, 20);
  const rows = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v) && binIndexOf(v, edges) === b) rows.add(rowIds[i]);
  }
  return [...rows];
}

function sortValues(store: TraceStore, key: (typeof STORE_SORT_KEYS)[number]): Float64Array {
  const durations = sampleDurations(store);
  const of: Record<string, (r: number) => number> = {
    row_id: (r) => store.rowId[r],
    start: (r) => store.rowStart[r],
    duration: (r) => durations[r],
    group_duration: (r) => store.rowEnd[r] - store.rowStart[r],
    reward: (r) => store.rowReward[r],
    lane_count: (r) => store.rowLaneCount[r],
    ongoing: (r) => store.rowOpenCount[r],
    sample_index: (r) => store.rowSampleIndex[r],
    group: (r) => store.rowGroup[r],
  };
  return Float64Array.from({ length: store.rowCount }, (_, r) => of[key](r));
}

it(`issue 50's interactions on ${ROWS} real-shaped samples, in one process`, () => {
  if (!existsSync(PATH)) {
    console.log(`  ${PATH} is not there: \`npm run bench interactions\` writes it`);
    return;
  }
  let t = performance.now();
  const trace = openTraceFile([openFileSource(PATH)]);
  const store = trace.store;
  console.log(
    `  opened ${join('.data', PATH.split('/').pop()!)} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  // the warm-up as the worker runs it, after what it makes before saying the file is open (the
  // perf digest, the rows' durations): a call waits for at most the step in progress
  const digest = buildPerfDigest(trace.perf);
  sampleDurations(store);
  // the longest step of each phase (a phase named by what is not made yet when its step ends)
  const longest = new Map<string, { ms: number; steps: number }>();
  const warm = warmIndexes(store);
  let total = 0;
  let phase = 'orders and indexes';
  for (;;) {
    t = performance.now();
    const done = warm.next().done;
    const ms = performance.now() - t;
    total += ms;
    const was = longest.get(phase) ?? { ms: 0, steps: 0 };
    longest.set(phase, { ms: Math.max(was.ms, ms), steps: was.steps + 1 });
    if (done) break;
    if (!searchTextReady(store)) phase = 'search texts';
    else if (!searchTrigramsReady(store)) phase = 'runs of three bytes';
    else if (phase !== 'orders and indexes') phase = 'every order';
  }
  console.log(
    `  warm-up: ${total.toFixed(0)} ms in all; the longest step of each phase: ${[...longest]
      .map(([name, { ms, steps }]) => `${name} ${ms.toFixed(1)} ms (of ${steps})`)
      .join(', ')}`,
  );

  // sorts: each key's order, with the shortcuts and by radix passes alone
  const ties = identityOrder(store.rowCount);
  for (const key of STORE_SORT_KEYS) {
    const values = sortValues(store, key);
    line(
      `order by ${key}`,
      least(() => ascendingIndexes(values, ties)),
      least(() => ascendingIndexes(values, ties, false)),
    );
  }

  // text search: the store's texts with their runs of three bytes, and the same texts without
  const texts = searchTextsOf(store);
  const plain = new SearchTextColumn();
  for (const row of store.rows) plain.add(row);
  for (const needle of ['python', 'gsm8k', 'sglang', 'zzqx']) {
    const a = new Uint8Array(store.rowCount);
    const b = new Uint8Array(store.rowCount);
    const ours = least(() => texts.matchInto(needle, a.fill(0), null));
    const before = least(() => plain.matchInto(needle, b.fill(0), null));
    if (a.some((m, r) => m !== b[r])) throw new Error(`"${needle}": other matches`);
    line(`text "${needle}" (${a.reduce((s, m) => s + m, 0)} rows match)`, ours, before);
  }

  // filter status, through the query as the worker answers it
  const status = least(() =>
    queryRows(store, { sort: 'row_id', filter: { statuses: ['completed'] } }),
  );
  console.log(`  filter status: ${status.toFixed(2)} ms`);

  // a bin click: the fullest bin of the first series, worked out and encoded as serve mode sends it
  const series = digest.series[0];
  const view = trace.perf.series.find((s) => s.key === series.key)!;
  const fullest = series.bins.reduce(
    (best, bin, i, all) => (bin.count > all[best].count ? i : best),
    0,
  );
  const rows = perfBinRows(trace.perf, series.key, fullest)!;
  if (
    JSON.stringify(rows) !==
    JSON.stringify(binRowsBySet(view.values as Float64Array, view.rowIds, fullest))
  )
    throw new Error('bin rows: another answer');
  line(
    `bin rows (${series.key}, ${rows.length} samples), worked out`,
    least(() => perfBinRows(trace.perf, series.key, fullest)),
    least(() => binRowsBySet(view.values as Float64Array, view.rowIds, fullest)),
  );
  line(
    'bin rows, encoded',
    least(() => encodeAnswer({ result: rows })),
    least(() => replacerJson({ result: rows })),
  );
  const facts = rowFactsOf(store);
  line(
    'row facts, encoded',
    least(() => encodeAnswer({ result: facts })),
    least(() => replacerJson({ result: facts })),
  );
  line(
    'perf digest, encoded',
    least(() => encodeAnswer({ result: digest })),
    least(() => replacerJson({ result: digest })),
  );
  console.log(
    `  baseline of this run: JSON.stringify of the bin's rows alone ${least(() => JSON.stringify(rows)).toFixed(2)} ms`,
  );
});
