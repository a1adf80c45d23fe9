import { describe, expect, it } from 'vitest';
import { packRows } from '../../../src-main/core/rows/packed-items';
import {
  compareDigest,
  compareTraces,
  sideStats,
  type CompareSide,
  type RowDigest,
  compareRollout,
  completeDigest,
} from '../../../src-main/core/compare/compare-traces';
import { rowDigestColumns, rowDigestsOf } from '../../../src-main/core/compare/row-digest-columns';
import type { CompareFigure, FileSummary, PerfView } from '../../../src-main/core/api/trace-api';
import type { Row } from '../../../src-main/core/model/row';
import type { PyValue } from '../../../src-main/core/model/py-value';
import { textHash } from '../../../src-main/core/model/text-hash';
import { slimeSampleFacts } from '../../../src-main/core/formats/slime/sample-facts';
import type { RolloutFigures } from '../../../src-main/core/model/rollout-figures';
import { figures } from './hand-figures';
import { byEffect, isSmallChange } from '../../../src-main/core/compare/figure-order';
import { point as pointItem, span as spanItem } from '../store/hand-rows';

/**
 * compare-traces.ts's figures on digests made by hand (issue 17): headline statistics, the rows
 * behind counting figures and wall-time categories, the order of figures, and the digest a
 * worker builds. Every expected number is worked out in a comment from the rows given.
 */
const row = (row_id: number, extra: Partial<RowDigest> = {}): RowDigest => ({
  row_id,
  sample_index: row_id,
  status: 'completed',
  reward: null,
  response_length: null,
  duration: 1,
  promptKey: null,
  ...extra,
});

const sideOf = (
  fileId: string,
  rows: RowDigest[],
  rollout: RolloutFigures = figures({ own: 10 }),
  counts = { samples: rows.length, rows: rows.length, untracedSamples: 0 },
): CompareSide => ({
  fileId,
  summary: { format: 'slime', formatLabels: { noun: 'slime dump' }, ...counts } as FileSummary,
  digest: completeDigest(counts, {
    perf: {},
    spanTotals: [],
    rows: rowDigestColumns(rows),
    rollout: compareRollout(rollout),
  }),
});

describe('one side’s headline figures', () => {
  it('reward mean and population std; response length mean, median (odd count), max', () => {
    const stats = sideStats(
      sideOf('a', [
        row(0, { reward: 1, response_length: 5 }),
        row(1, { reward: 0, response_length: 100 }),
        row(2, { reward: 0, response_length: 30 }),
        row(3, { reward: 1, response_length: null }),
      ]),
    );
    // rewards 1, 0, 0, 1: mean 0.5, every deviation 0.5, so std 0.5
    expect(stats['reward/mean']).toBe(0.5);
    expect(stats['reward/std']).toBe(0.5);
    // lengths 5, 100, 30 (row 3 has none): mean 135 / 3 = 45, median 30, max 100
    expect(stats['response_length/mean']).toBe(45);
    expect(stats['response_length/median']).toBe(30);
    expect(stats['response_length/max']).toBe(100);
  });

  it('an even count’s median is the mean of the middle two; std of unequal rewards', () => {
    const stats = sideStats(
      sideOf('a', [
        row(0, { reward: 2, response_length: 9 }),
        row(1, { reward: 4, response_length: 100 }),
        row(2, { reward: 0, response_length: 40 }),
        row(3, { reward: 6, response_length: 20 }),
      ]),
    );
    // rewards 2, 4, 0, 6: mean 3, squared deviations 1, 1, 9, 9: variance 5
    expect(stats['reward/mean']).toBe(3);
    expect(stats['reward/std']).toBeCloseTo(Math.sqrt(5), 12);
    // sorted 9, 20, 40, 100: median (20 + 40) / 2 = 30, max 100, mean 169 / 4
    expect(stats['response_length/median']).toBe(30);
    expect(stats['response_length/max']).toBe(100);
    expect(stats['response_length/mean']).toBe(42.25);
  });

  it('no rewards, no lengths, no rows: those figures are absent, counts from the summary', () => {
    const stats = sideStats(
      sideOf('a', [], figures({ own: 10 }), { samples: 5, rows: 4, untracedSamples: 1 }),
    );
    expect(
      Object.keys(stats).filter((k) => /^(reward|response_length|row_duration)\//.test(k)),
    ).toEqual([]);
    expect([
      stats['rollout/samples'],
      stats['rollout/rows'],
      stats['rollout/untraced_samples'],
    ]).toEqual([5, 4, 1]);
  });

  it('rollout figures: own and whole window, idle, resumed, groups, stragglers’ tail', () => {
    const rollout = figures({
      whole: 90,
      own: 40,
      resumed: [
        [0, 6],
        [1, 6],
      ],
      whole_seconds: { 'idle between attempts': 35 },
      groups: [{ zeroVariance: true }, { zeroVariance: false }, { zeroVariance: true }],
      stragglers: { tailSec: 7.5 },
    });
    const stats = sideStats(sideOf('a', [row(0), row(1, { status: 'aborted' }), row(2)], rollout));
    expect(stats).toMatchObject({
      'rollout/wall_time_sec': 40,
      'rollout/viewer_span_sec': 90,
      'rollout/idle_between_attempts_sec': 35,
      'rollout/resumed_samples': 2,
      'groups/count': 3,
      'groups/zero_variance_groups': 2,
      'rollout/straggler_tail_sec': 7.5,
      'status/completed': 2,
      'status/aborted': 1,
      // durations 1, 1, 1
      'row_duration/mean_sec': 1,
    });
    expect('rollout/straggler_tail_sec' in sideStats(sideOf('b', []))).toBe(false);
  });
});

describe('the rows behind figures', () => {
  const rolloutA = figures({
    own: 40,
    whole: 90,
    resumed: [
      [4, 6],
      [2, 6],
    ],
    whole_seconds: { 'idle between attempts': 35, 'earlier attempts': 5 },
    bounding: [3, 1],
    groups: [
      { rowIds: [0, 1], zeroVariance: true },
      { rowIds: [2, 3], zeroVariance: false },
      { rowIds: [4, 5], zeroVariance: true },
    ],
    stragglers: { rowIds: [5, 3], tailSec: 2 },
  });
  const rowsA = [0, 1, 2, 3, 4, 5].map((id) =>
    row(id, { status: id === 1 ? 'aborted' : id === 2 ? null : 'completed', reward: id % 2 }),
  );
  // B: nothing resumed, no zero-variance group, no stragglers, no bounding sample
  const rolloutB = figures({ own: 30, groups: [{ rowIds: [0, 1], zeroVariance: false }] });
  const rowsB = [row(0, { reward: 0 }), row(1, { reward: 1 })];
  const compare = () => compareTraces(sideOf('a', rowsA, rolloutA), sideOf('b', rowsB, rolloutB));
  const figure = (stats: CompareFigure[], key: string) => {
    const found = stats.find((s) => s.key === key);
    if (!found) throw new Error(`no figure ${key}`);
    return found;
  };

  it('counting figures carry their rows; a side with none has no list', () => {
    const stats = compare().stats;
    expect(figure(stats, 'status/aborted')).toMatchObject({
      a: 1,
      b: null,
      aRowIds: Int32Array.from([1]),
    });
    expect(figure(stats, 'status/none').aRowIds).toEqual(Int32Array.from([2]));
    expect(figure(stats, 'status/completed')).toMatchObject({
      aRowIds: Int32Array.from([0, 3, 4, 5]),
      bRowIds: Int32Array.from([0, 1]),
    });
    expect(figure(stats, 'rollout/resumed_samples').aRowIds).toEqual(Int32Array.from([4, 2]));
    expect(figure(stats, 'rollout/idle_between_attempts_sec').aRowIds).toEqual(
      Int32Array.from([4, 2]),
    );
    expect(figure(stats, 'groups/zero_variance_groups').aRowIds).toEqual(
      Int32Array.from([0, 1, 4, 5]),
    );
    expect(figure(stats, 'rollout/straggler_tail_sec').aRowIds).toEqual(Int32Array.from([5, 3]));
    for (const key of [
      'status/aborted',
      'rollout/resumed_samples',
      'rollout/idle_between_attempts_sec',
      'groups/zero_variance_groups',
      'rollout/straggler_tail_sec',
    ]) {
      expect('bRowIds' in figure(stats, key), key).toBe(false);
    }
    // figures that do not count samples have no rows
    for (const key of ['reward/mean', 'rollout/wall_time_sec', 'groups/count', 'rollout/rows']) {
      const f = figure(stats, key);
      expect(['aRowIds' in f, 'bRowIds' in f], key).toEqual([false, false]);
    }
  });

  it('wall-time categories: resumed rows before the own window, the bounding sample inside it', () => {
    const wallTime = compare().wallTime;
    const byCategory = Object.fromEntries(wallTime.map((w) => [w.category, w]));
    expect(byCategory['idle between attempts']).toMatchObject({
      aRowIds: [4, 2],
      bRowIds: [],
      aWholeSec: 35,
      bWholeSec: 0,
    });
    expect(byCategory['earlier attempts']).toMatchObject({ aRowIds: [4, 2], aWholeSec: 5 });
    for (const category of ['queueing', 'decode', 'gaps in sample'])
      expect([byCategory[category].aRowIds, byCategory[category].bRowIds], category).toEqual([
        [3],
        [],
      ]);
  });

  it('each side’s window labels', () => {
    const a = figures({ own: 1, labels: { own: 'A own', whole: 'A whole' } });
    const b = figures({ own: 2, labels: { own: 'B own', whole: 'B whole' } });
    expect(compareTraces(sideOf('a', [], a), sideOf('b', [], b)).windows).toEqual({
      a: { own: 'A own', whole: 'A whole' },
      b: { own: 'B own', whole: 'B whole' },
    });
  });
});

describe('the order of figures (figure-order.ts)', () => {
  const f = (key: string, a: number | null, b: number | null, verdict: CompareFigure['verdict']) =>
    ({ key, a, b, unit: 'count', relative: null, verdict }) as CompareFigure;

  it('beyond noise first, then a side missing, then small changes; times by seconds moved, then the rest by relative size', () => {
    const sorted = [
      f('small/x', 1, 1.01, 'noise'),
      f('perf/request/queue_time/min', 0.000001, 0.000003, 'noise'),
      f('count/half', 2, 1, 'changed'),
      f('only/a', 5, null, 'none'),
      f('perf/request/e2e_latency/max', 10, 12, 'worse'),
      f('rollout/idle_between_attempts_sec', 0, 3549, 'worse'),
      f('count/tenth', 10, 9, 'changed'),
    ].sort(byEffect);
    expect(sorted.map((x) => x.key)).toEqual([
      // 3549 s moved before 2 s moved: the idle hour is first whatever its Δ%
      'rollout/idle_between_attempts_sec',
      'perf/request/e2e_latency/max',
      // 1 of 2 (50% of the larger side) before 1 of 10
      'count/half',
      'count/tenth',
      'only/a',
      // µs minima sit with the small changes, times first there too
      'perf/request/queue_time/min',
      'small/x',
    ]);
    expect(sorted.map(isSmallChange)).toEqual([false, false, false, false, false, true, true]);
  });

  it('swapping A and B keeps the order', () => {
    const figs = [
      f('count/half', 2, 1, 'changed'),
      f('count/third', 3, 2, 'changed'),
      f('perf/x_duration', 1, 3, 'worse'),
    ];
    const swapped = figs.map((x) => ({ ...x, a: x.b, b: x.a }));
    expect([...figs].sort(byEffect).map((x) => x.key)).toEqual(
      [...swapped].sort(byEffect).map((x) => x.key),
    );
  });
});

describe('perf figures', () => {
  it('perf figures carry their unit, Δ% and verdict', () => {
    const a = sideOf('a', []);
    const b = sideOf('b', []);
    a.digest.perf = { 'perf/decode/throughput/mean': 100, 'perf/request/e2e_latency/mean': 2 };
    b.digest.perf = { 'perf/decode/throughput/mean': 80, 'perf/request/e2e_latency/mean': 1 };
    // latency 2 -> 1: -50%, lower is better; throughput 100 -> 80: -20%, higher is better
    expect(compareTraces(a, b).perf).toEqual([
      {
        key: 'perf/request/e2e_latency/mean',
        a: 2,
        b: 1,
        unit: 's',
        relative: -0.5,
        verdict: 'better',
        shown: { unit: 's', a: '2.000', b: '1.000', delta: '−1.000' },
        rank: 0,
        small: false,
      },
      {
        key: 'perf/decode/throughput/mean',
        a: 100,
        b: 80,
        unit: 'tok/s',
        relative: -0.2,
        verdict: 'worse',
        shown: { unit: 'tok/s', a: '100', b: '80', delta: '−20' },
        rank: 1,
        small: false,
      },
    ]);
  });
});

describe('the digest a worker builds of one file', () => {
  const span = (name: string, start_ts: number, display_end_ts: number) =>
    spanItem({ name, start_ts, end_ts: display_end_ts, display_end_ts });
  const traceRow = (row_id: number, group_index: number, items: unknown[], reward: unknown) =>
    ({
      row_id,
      sample_index: row_id,
      group_index,
      status: 'completed',
      reward,
      duration: row_id + 0.5,
      items,
    }) as unknown as Row;

  it('span totals per name (spans only), rewards as numbers, lengths by row, prompt keys', () => {
    const rows = [
      traceRow(0, 3, [span('gen', 1, 4), pointItem({ name: 'gen', ts: 2 })], 1),
      traceRow(1, 3, [span('gen', 0, 0.5), span('reward', 2, 2.25)], { score: 0.5 }),
      traceRow(2, 4, [], 'none'),
      traceRow(3, 4, [], true),
      traceRow(4, 5, [], 0),
      traceRow(5, 5, [], null),
      traceRow(6, 6, [], null),
    ];
    // a prompt JSON cannot write (it refers to itself) is keyed by its String()
    const circular: Record<string, unknown> = { role: 'user' };
    circular.self = circular;
    const samples: PyValue[] = [
      { prompt: 'what is 2+2' },
      { prompt: [{ role: 'user', content: 'hi', id: 12n }] as unknown as PyValue },
      { prompt: null },
      7 as PyValue,
      undefined as unknown as PyValue,
      {},
      { prompt: circular as unknown as PyValue },
    ];
    const perf = {
      perf: { 'perf/x': 1 },
      rollout: { ...figures({ own: 10 }), responseLengths: [10, null, 30] },
    };
    const digest = compareDigest({
      summary: { samples: 7, rows: 7, untracedSamples: 0 },
      rows: packRows(rows),
      // the facts a dump's samples give when it is opened
      samples: { facts: samples.map(slimeSampleFacts) },
      perf: perf as unknown as PerfView,
    });
    // gen: 3 s + 0.5 s over two spans (the event is not a span); reward: 0.25 s
    expect(digest.spanTotals).toEqual([
      ['gen', 3.5, 2],
      ['reward', 0.25, 1],
    ]);
    expect(digest.perf).toEqual({ 'perf/x': 1 });
    const rowsOut = rowDigestsOf(digest.rows);
    expect(rowsOut.map((r) => r.reward)).toEqual([1, 0.5, null, 1, 0, null, null]);
    expect(rowsOut.map((r) => r.response_length)).toEqual([10, null, 30, null, null, null, null]);
    // a sample index comes back as its key's text
    expect(rowsOut.map((r) => [r.row_id, r.sample_index, r.status, r.duration])).toEqual([
      [0, '0', 'completed', 0.5],
      [1, '1', 'completed', 1.5],
      [2, '2', 'completed', 2.5],
      [3, '3', 'completed', 3.5],
      [4, '4', 'completed', 4.5],
      [5, '5', 'completed', 5.5],
      [6, '6', 'completed', 6.5],
    ]);
    // group, a NUL, a hash of the prompt text (a list of messages as JSON, a bigint as its
    // digits); no key for a null prompt, a sample that is not a dict, no sample, or no prompt
    expect(rowsOut.map((r) => r.promptKey)).toEqual([
      `3\u0000${textHash('what is 2+2')}`,
      `3\u0000${textHash('[{"role":"user","content":"hi","id":"12"}]')}`,
      null,
      null,
      null,
      null,
      `6\u0000${textHash('[object Object]')}`,
    ]);
    expect(digest.rollout).toMatchObject({
      groupCount: 0,
      zeroVarianceGroupCount: 0,
      zeroVarianceRowIds: new Int32Array(),
    });
    expect('groups' in digest.rollout || 'responseLengths' in digest.rollout).toBe(false);
    // the side's figures are made with the digest: rewards 1, 0.5, 1, 0 (mean 0.625), lengths
    // 10 and 30, seven completed rows
    expect(digest.stats).toMatchObject({
      'reward/mean': 0.625,
      'response_length/mean': 20,
      'status/completed': 7,
      'rollout/samples': 7,
    });
    expect(digest.rowsByStatus).toEqual({
      'status/completed': Int32Array.from([0, 1, 2, 3, 4, 5, 6]),
    });
  });

  it('prompt texts are keyed by a 64-bit hash: FNV-1a, then a second multiplicative hash', () => {
    // FNV-1a 32-bit test vectors (Fowler, Noll, Vo): "a" 0xe40c292c, "foobar" 0xbf9cf968
    expect(textHash('a').slice(0, 8)).toBe('e40c292c');
    expect(textHash('foobar').slice(0, 8)).toBe('bf9cf968');
    expect(textHash('')).toMatch(/^811c9dc5[0-9a-f]{8}$/);
    // equal texts, equal keys; texts differing in one unit or only in length, other keys
    expect(textHash('what is 2+2')).toBe(textHash(['what is ', '2+2'].join('')));
    const keys = new Set(['ab', 'ba', 'abc', 'ab\u0000', 'aé', 'ae'].map(textHash));
    expect(keys.size).toBe(6);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{16}$/);
  });
});
