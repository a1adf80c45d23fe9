import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openTraceFile } from '../../../src-main/core/open/open-trace-file';
import {
  compareDigest,
  compareRollout,
  compareTraces,
  completeDigest,
} from '../../../src-main/core/compare/compare-traces';
import { textHash } from '../../../src-main/core/model/text-hash';
import { buildRolloutFigures } from '../../../src-main/core/open/build-rollout-figures';
import {
  rowDigestColumns,
  rowDigestsOf,
  type RowDigest,
} from '../../../src-main/core/compare/row-digest-columns';
import {
  firstRowOf,
  sameText,
  textColumn,
  textColumnSteps,
  textsOf,
} from '../../../src-main/core/compare/text-column';
import { finishSteps } from '../../../src-main/core/store/kept-steps';
import { matchedPairList } from '../../../src-main/core/compare/matched-pair-list';
import { orderByChange } from '../../../src-main/core/compare/pair-order';
import { rewardValue } from '../../../src-main/core/model/reward-value';
import { overHttp } from '../../support/serve-call';
import type { FileSummary } from '../../../src-main/core/api/trace-api';
import { OTLP, SLIME, fixtureSource } from '../../support/fixtures';

/**
 * What crosses threads and HTTP when two files are compared (issue 18): the rows' digest as
 * columns, matched pairs and row-id lists as typed arrays. Each encoding against the per-row
 * objects it replaces, on the fixtures' real rows.
 */
const DUMPS = ['rollout_7.pt', 'rollout_8.pt', 'rollout_agentic.pt', 'rollout_small.pt'];

/** The digest's rows as objects, built here from the opened file as the old digest built them. */
function rowObjects(path: string): RowDigest[] {
  const source = fixtureSource(path);
  const trace = openTraceFile([source]);
  return trace.rows.map((row, i) => {
    const sample = trace.samples.read(row.row_id, (use) => use(source)) as
      { prompt?: unknown } | undefined;
    const prompt = sample?.prompt;
    return {
      row_id: row.row_id,
      sample_index: row.sample_index,
      status: row.status,
      reward: rewardValue(row.reward),
      response_length: trace.perf.rollout.responseLengths[i] ?? null,
      duration: row.duration,
      // a prompt as text: a string itself, a list of messages as JSON
      promptKey:
        prompt === undefined || prompt === null
          ? null
          : `${String(row.group_index)}\u0000${textHash(typeof prompt === 'string' ? prompt : JSON.stringify(prompt))}`,
    };
  });
}

function sideOf(path: string, fileId: string) {
  const trace = openTraceFile([fixtureSource(path)]);
  const summary = { ...trace.summary, fileId, path } as FileSummary;
  return { fileId, summary, digest: structuredClone(compareDigest(trace)) };
}

describe('a digest’s rows as columns', () => {
  it.each(DUMPS)('%s: the columns read back as the per-row objects', (name) => {
    const path = resolve(SLIME, name);
    const objects = rowObjects(path);
    const digest = compareDigest(openTraceFile([fixtureSource(path)]));
    expect(objects.length).toBeGreaterThan(0);
    // every slime sample has an integer index and a string prompt: the index comes back as text
    expect(rowDigestsOf(digest.rows)).toEqual(
      objects.map((row) => ({ ...row, sample_index: String(row.sample_index) })),
    );
    // and the columns again from those objects are the columns
    expect(rowDigestColumns(rowDigestsOf(digest.rows))).toEqual(digest.rows);
  });

  it('an OTLP file: null rewards, lengths and prompts stay null; statuses coded once each', () => {
    const path = resolve(OTLP, 'sglang_otel_trace.json');
    const digest = compareDigest(openTraceFile([fixtureSource(path)]));
    const rows = rowDigestsOf(digest.rows);
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.response_length))).toEqual(new Set([null]));
    expect(digest.rows.hasReward).toEqual(new Uint8Array(20));
    expect(digest.rows.promptKeys.nulls).toEqual(new Uint8Array(20).fill(1));
    expect(new Set(digest.rows.statusNames).size).toBe(digest.rows.statusNames.length);
  });

  it('a structured clone (the worker’s message) keeps every column and its type', () => {
    const digest = compareDigest(openTraceFile([fixtureSource(resolve(SLIME, 'rollout_8.pt'))]));
    const cloned = structuredClone(digest);
    expect(cloned).toEqual(digest);
    expect(cloned.rows.rowIds).toBeInstanceOf(Int32Array);
    expect(cloned.rows.durations).toBeInstanceOf(Float64Array);
    expect(cloned.rowsByStatus['status/completed']).toBeInstanceOf(Int32Array);
  });
});

describe('text columns', () => {
  const values = ['g0\u0000abc', null, '', 'é✓', null, 'g0\u0000abc', '12'];

  it('read back as the strings and nulls they hold, an empty string apart from null', () => {
    const column = textColumn(values);
    expect(textsOf(column)).toEqual(values);
    expect(column.text).toBe('g0\u0000abcé✓g0\u0000abc12');
    expect(Array.from(column.ends)).toEqual([6, 6, 6, 8, 8, 14, 16]);
    expect(Array.from(column.nulls)).toEqual([0, 1, 0, 0, 1, 0, 0]);
  });

  it('made in steps (a slice of values per step) it is the column made at once', () => {
    const steps = textColumnSteps(values, 2);
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    // 7 values in slices of 2: 3 yields while hashing (its text joined slice by slice), 3 while
    // looking up the table
    expect(yields).toBe(6);
    expect(step.value).toEqual(textColumn(values));
    expect(step.value.text).toBe('g0\u0000abcé✓g0\u0000abc12');
    // one slice of all, and slices of one
    expect(finishSteps(textColumnSteps(values, 7))).toEqual(textColumn(values));
    expect(finishSteps(textColumnSteps(values, 1))).toEqual(textColumn(values));
  });

  it('sameText: equal texts across columns, two nulls equal, null and empty not', () => {
    const a = textColumn(values);
    const b = textColumn([null, '12', 'g0\u0000abc', '', '1']);
    expect(sameText(a, 0, b, 2)).toBe(true);
    expect(sameText(a, 6, b, 1)).toBe(true);
    expect(sameText(a, 1, b, 0)).toBe(true);
    expect(sameText(a, 2, b, 3)).toBe(true);
    expect(sameText(a, 2, b, 0)).toBe(false);
    expect(sameText(a, 1, b, 3)).toBe(false);
    expect(sameText(a, 6, b, 4)).toBe(false);
    expect(sameText(a, 0, b, 1)).toBe(false);
  });

  it('two texts with one hash stay two values in the table, each found by its text', () => {
    // the first pair of 'k<i>' texts whose 30-bit hashes collide (found, not assumed)
    const seen = new Map<number, string>();
    let pair: [string, string] | null = null;
    for (let i = 0; pair === null; i++) {
      const text = `k${i}`;
      const hash = textColumn([text]).hashes[0];
      const earlier = seen.get(hash);
      if (earlier !== undefined) pair = [earlier, text];
      seen.set(hash, text);
    }
    const [x, y] = pair;
    const column = textColumn([x, y, x, null, y]);
    expect(column.hashes[0]).toBe(column.hashes[1]);
    // each row finds its value's first row; rows of one value are chained, x's apart from y's
    expect([0, 1, 2, 3, 4].map((row) => firstRowOf(column, column, row))).toEqual([0, 1, 0, -1, 1]);
    expect(Array.from(column.nextSame)).toEqual([2, 4, -1, -1, -1]);
    expect(Array.from(column.table).filter((row) => row >= 0)).toHaveLength(2);
    const other = textColumn([y, 'zz', x]);
    expect([0, 1, 2].map((row) => firstRowOf(column, other, row))).toEqual([1, -1, 0]);
    // matching pairs each with its own text, not with the other of its hash
    const rows = (keys: string[]) =>
      rowDigestColumns(
        keys.map((promptKey, row_id) => ({
          row_id,
          sample_index: null,
          status: null,
          reward: null,
          response_length: null,
          duration: 1,
          promptKey,
        })),
      );
    const a = rows([y, x]);
    const result = compareTraces(
      { fileId: 'a', summary: summaryOf(2), digest: digestOf(a) },
      { fileId: 'b', summary: summaryOf(2), digest: digestOf(rows([x, y])) },
    );
    expect(matchedPairList(result, a)).toEqual([
      { aRowId: 0, bRowId: 1, key: 'group and prompt' },
      { aRowId: 1, bRowId: 0, key: 'group and prompt' },
    ]);
  });
});

describe('the answer’s typed arrays', () => {
  it('rollout 8 against itself: pairs as columns, their order, the same over HTTP', () => {
    const path = resolve(SLIME, 'rollout_8.pt');
    const a = sideOf(path, 'a');
    const result = compareTraces(a, sideOf(path, 'b'));
    const ids = Int32Array.from({ length: 24 }, (_, i) => i);
    expect(result.matched.aRowIds).toEqual(ids);
    expect(result.matched.bRowIds).toEqual(ids);
    // a file against itself: no duration moved, so the table keeps A's order
    expect(result.matched.byDurationChange).toEqual(ids);
    const objects = rowObjects(path);
    expect(matchedPairList(result, a.digest.rows)).toEqual(
      objects.map((row) => ({
        aRowId: row.row_id,
        bRowId: row.row_id,
        key: `index ${String(row.sample_index)}`,
      })),
    );
    expect(overHttp(result)).toEqual(result);
  });

  it('rollout 7 against 8: only-A and only-B and the status rows survive JSON as Int32Arrays', () => {
    const result = compareTraces(
      sideOf(resolve(SLIME, 'rollout_7.pt'), 'a'),
      sideOf(resolve(SLIME, 'rollout_8.pt'), 'b'),
    );
    const all = Int32Array.from({ length: 24 }, (_, i) => i);
    expect([result.onlyA, result.onlyB]).toEqual([all, all]);
    const back = overHttp(result);
    expect(back).toEqual(result);
    expect(back.onlyA).toBeInstanceOf(Int32Array);
    const completed = back.stats.find((s) => s.key === 'status/completed')!;
    expect(completed.bRowIds).toBeInstanceOf(Int32Array);
    expect(completed.bRowIds).toEqual(
      result.stats.find((s) => s.key === 'status/completed')!.bRowIds,
    );
  });

  it('pairs are ordered by how much the duration moved, biggest first, ties in A’s order', () => {
    const rows = (durations: number[]) =>
      rowDigestColumns(
        durations.map((duration, row_id) => ({
          row_id,
          sample_index: row_id,
          status: 'completed',
          reward: null,
          response_length: null,
          duration,
          promptKey: 'p',
        })),
      );
    // moves: +1, -3, 0, +3, NaN (no change): 1 and 3 tie at 3, then 0, then 2 and 4 at 0
    const result = compareTraces(
      { fileId: 'a', summary: summaryOf(5), digest: digestOf(rows([1, 5, 2, 1, 1])) },
      { fileId: 'b', summary: summaryOf(5), digest: digestOf(rows([2, 2, 2, 4, NaN])) },
    );
    expect(Array.from(result.matched.byDurationChange)).toEqual([1, 3, 0, 2, 4]);
  });
});

describe('the pairs’ order', () => {
  it('biggest change first, equal changes in position order, as a comparator sort orders them', () => {
    expect(Array.from(orderByChange(Float64Array.from([0.5, 2, 0, 2, 0.5, 3])))).toEqual([
      5, 1, 3, 0, 4, 2,
    ]);
    expect(orderByChange(new Float64Array())).toEqual(new Int32Array());
    // 2000 changes with many ties (a fixed sequence, not random), against the stable sort
    const change = Float64Array.from({ length: 2000 }, (_, k) => ((k * 7919) % 97) / 8);
    const expected = Array.from({ length: 2000 }, (_, k) => k).sort(
      (x, y) => change[y] - change[x] || x - y,
    );
    expect(Array.from(orderByChange(change))).toEqual(expected);
  });
});

function summaryOf(rows: number): FileSummary {
  return {
    format: 'slime',
    formatLabels: { noun: 'slime dump' },
    samples: rows,
    rows,
    untracedSamples: 0,
  } as FileSummary;
}

function digestOf(rows: ReturnType<typeof rowDigestColumns>) {
  const n = rows.rowIds.length;
  return completeDigest(
    { samples: n, rows: n, untracedSamples: 0 },
    {
      perf: {},
      spanTotals: [],
      rows,
      rollout: compareRollout(buildRolloutFigures([], [], null)),
    },
  );
}
