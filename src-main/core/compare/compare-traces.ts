import type { CompareFigure, CompareResult, FileSummary, MatchedPairs } from '../api/trace-api';
import type { SampleFacts, TraceSamples } from '../model/sample-facts';
import type { PackedRow } from '../model/row';
import { PackedItemCursor } from '../rows/packed-items';
import { rewardValue } from '../model/reward-value';
import type { PerfView } from '../api/trace-api';
import type { RolloutFigures, WallTimeCategory } from '../model/rollout-figures';
import { WALL_TIME_CATEGORIES } from '../model/rollout-figures';
import { NOISE_RULE, changeVerdict, metricUnit, relativeChange } from './metric-change';
import { byEffect, isSmallChange } from './figure-order';
import { shownFigure } from './figure-units';
import { matchRows, type RowMatch } from './match-samples';
import { rowDigestColumnSteps, type RowDigest, type RowDigestColumns } from './row-digest-columns';
import { buildAnswer } from './compare-answer';
import { extraRows, extraSentences, extraStats, type CompareExtra } from './run-extra-figures';
import { KeptSteps, finishSteps } from '../store/kept-steps';
import { orderByChange } from './pair-order';

export type { RowDigest, RowDigestColumns };

/**
 * What comparing needs of one open file, computed where the file lives (its worker), so two
 * files compare without either's items crossing threads; what does cross is columns and counts,
 * not per-row or per-group objects.
 */
export interface CompareDigest {
  perf: Record<string, number>;
  spanTotals: [name: string, sec: number, count: number][];
  rows: RowDigestColumns;
  rollout: CompareRollout;
  /** this side's headline figures (sideStats), made where the file lives */
  stats: Record<string, number>;
  /** the rows behind each `status/...` figure, in row order */
  rowsByStatus: Record<string, Int32Array>;
}

/** A digest's per-row and per-rollout parts, from which its figures are made. */
export type DigestParts = Omit<CompareDigest, 'stats' | 'rowsByStatus'>;
type SummaryCounts = Pick<FileSummary, 'samples' | 'rows' | 'untracedSamples'>;

/** A digest with its side's figures, so that comparing two reads them instead of every row. */
export function completeDigest(summary: SummaryCounts, parts: DigestParts): CompareDigest {
  return finishSteps(completeDigestSteps(summary, parts));
}

/** completeDigest with a yield between the figures and the rows behind each status */
function* completeDigestSteps(
  summary: SummaryCounts,
  parts: DigestParts,
): Generator<void, CompareDigest, void> {
  const stats = sideStats({ summary, digest: parts });
  yield;
  return { ...parts, stats, rowsByStatus: rowsByStatus(parts.rows) };
}

function rowsByStatus(rows: RowDigestColumns): Record<string, Int32Array> {
  const keyOf = rows.statusNames.map((name) => `status/${name ?? 'none'}`);
  const lists = new Map<string, number[]>(keyOf.map((key) => [key, []]));
  rows.statusCodes.forEach((code, at) => lists.get(keyOf[code])!.push(rows.rowIds[at]));
  return Object.fromEntries([...lists].map(([key, ids]) => [key, Int32Array.from(ids)]));
}

/** A rollout's figures without its per-group and per-row lists: what compare reads of them. */
export type CompareRollout = Omit<RolloutFigures, 'groups' | 'responseLengths'> & {
  groupCount: number;
  zeroVarianceGroupCount: number;
  /** the rows of every zero-variance group, group by group */
  zeroVarianceRowIds: Int32Array;
};

export function compareRollout(figures: RolloutFigures): CompareRollout {
  const { groups, responseLengths, ...rest } = figures;
  void responseLengths;
  const zeroVariance = groups.filter((g) => g.zeroVariance);
  return {
    ...rest,
    groupCount: groups.length,
    zeroVarianceGroupCount: zeroVariance.length,
    zeroVarianceRowIds: Int32Array.from(zeroVariance.flatMap((g) => g.rowIds)),
  };
}

/** The compare digest of a trace, made at once (the CLI; a worker warms it in steps). */
export function compareDigest(trace: DigestedTrace): CompareDigest {
  return finishSteps(compareDigestSteps(trace, Infinity));
}

type DigestedTrace = {
  summary: SummaryCounts;
  rows: PackedRow[];
  /** what compare reads of each sample: its prompt's hash */
  samples: Pick<TraceSamples, 'facts'>;
  perf: PerfView;
};

/**
 * Rows per step of a digest made while a worker answers calls: 5-15 ms a step at 100k rows on a
 * 2-core machine (10k rows took 11-31 ms, and a text column at once 50-90 ms: a sort asked as
 * the file opened waited for them).
 */
const DIGEST_ROWS_PER_STEP = 4_000;

/**
 * The compare digest made `rowsPerStep` rows at a time (a yield between slices, the digest
 * returned at the end): at 100k samples it is 0.4 s of work, which a worker makes between calls.
 */
export function* compareDigestSteps(
  trace: DigestedTrace,
  rowsPerStep = DIGEST_ROWS_PER_STEP,
): Generator<void, CompareDigest, void> {
  const lengths = trace.perf.rollout.responseLengths;
  const totals = new Map<string, { sec: number; count: number }>();
  const rows: RowDigest[] = [];
  for (let i = 0; i < trace.rows.length; i++) {
    const row = trace.rows[i];
    addSpanTotals(totals, row);
    rows.push({
      row_id: row.row_id,
      sample_index: row.sample_index,
      status: row.status,
      reward: rewardValue(row.reward),
      response_length: lengths[i] ?? null,
      duration: row.duration,
      promptKey: promptKey(row, trace.samples.facts),
    });
    if ((i + 1) % rowsPerStep === 0) yield;
  }
  // the rest in steps too: made at once it was the warm-up's longest step (0.18 s at 100k
  // rows), which a perf view or first search asked meanwhile waited for
  yield;
  const columns = yield* rowDigestColumnSteps(rows, rowsPerStep);
  yield;
  const parts: DigestParts = {
    perf: trace.perf.perf,
    spanTotals: [...totals].map(([name, t]) => [name, t.sec, t.count]),
    rows: columns,
    rollout: compareRollout(trace.perf.rollout),
  };
  yield;
  return yield* completeDigestSteps(trace.summary, parts);
}

/** Per trace, its digest as far as it is made: the one a worker warms and its calls ask. */
const kept = new KeptSteps(compareDigestSteps);

/** The trace's digest, made once: whatever steps the warm-up has not taken are taken now. */
export function keptCompareDigest(trace: DigestedTrace): CompareDigest {
  return kept.value(trace);
}

/** Makes the trace's kept digest a step per `next()`, for a worker's idle turns. */
export function warmCompareDigest(
  trace: DigestedTrace,
  rowsPerStep = DIGEST_ROWS_PER_STEP,
): Generator<void, void, void> {
  return kept.warm(trace, rowsPerStep);
}

export interface CompareSide {
  fileId: string;
  summary: FileSummary;
  digest: CompareDigest;
  /** the run's figures of this rollout (train dump, request metrics), when it is in one */
  extra?: CompareExtra | null;
}

/**
 * Two rollouts side by side: the answer to "why is B slower (or faster)" first, then every
 * figure with its unit and whether it moved beyond noise, what kept each rollout open, time per
 * span name, and which samples correspond.
 */
export function compareTraces(a: CompareSide, b: CompareSide): CompareResult {
  assertComparable(a.summary, b.summary);
  const match = matchRows(a.digest.rows, b.digest.rows);
  const ra = a.digest.rollout;
  const rb = b.digest.rollout;
  const extraA = a.extra ?? null;
  const extraB = b.extra ?? null;
  const statsOf = (side: CompareSide, extra: CompareExtra | null) =>
    extra === null ? side.digest.stats : { ...side.digest.stats, ...extraStats(extra) };
  const ranked = rankFigures(
    figures(...withNotResumedMean(statsOf(a, extraA), statsOf(b, extraB))).map((figure) =>
      withNote(
        withRows(
          figure,
          statRows(a.digest, figure.key) ?? extraRows(extraA, figure.key),
          statRows(b.digest, figure.key) ?? extraRows(extraB, figure.key),
        ),
        ra,
        rb,
      ),
    ),
    figures(a.digest.perf, b.digest.perf),
  );
  return {
    a: a.fileId,
    b: b.fileId,
    answer: [...buildAnswer(ra, rb), ...extraSentences(extraA, extraB)],
    perf: ranked.perf,
    spanTotals: compareSpanTotals(a.digest.spanTotals, b.digest.spanTotals),
    wallTime: WALL_TIME_CATEGORIES.map((category) => ({
      category,
      aOwnSec: ra.breakdownOwn.seconds[category],
      bOwnSec: rb.breakdownOwn.seconds[category],
      aWholeSec: ra.breakdownWhole.seconds[category],
      bWholeSec: rb.breakdownWhole.seconds[category],
      aRowIds: categoryRows(ra, category),
      bRowIds: categoryRows(rb, category),
    })),
    windows: {
      a: { own: ra.own.label, whole: ra.whole.label },
      b: { own: rb.own.label, whole: rb.whole.label },
    },
    matched: matchedPairs(a.digest.rows, b.digest.rows, match),
    matchedBy: match.matchedBy,
    onlyA: match.onlyA,
    onlyB: match.onlyB,
    stats: ranked.stats,
    noiseRule: NOISE_RULE,
  };
}

/** The pairs by row id, and the order the matched-samples table shows them in. */
function matchedPairs(a: RowDigestColumns, b: RowDigestColumns, match: RowMatch): MatchedPairs {
  const n = match.aAt.length;
  const change = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    // a NaN change (a row without an end) sorts as no change
    change[k] = Math.abs(b.durations[match.bAt[k]] - a.durations[match.aAt[k]]) || 0;
  }
  return {
    aRowIds: match.aAt.map((at) => a.rowIds[at]),
    bRowIds: match.bAt.map((at) => b.rowIds[at]),
    byDurationChange: orderByChange(change),
  };
}

/** Before the own window the time is the resumed samples'; inside it, the bounding sample's. */
function categoryRows(rollout: CompareRollout, category: WallTimeCategory): number[] {
  if (category === 'idle between attempts' || category === 'earlier attempts') {
    return rollout.resumed.map((r) => r.rowId);
  }
  const bounding = rollout.breakdownOwn.boundingRowId;
  return bounding === null ? [] : [bounding];
}

/** The rows a counting figure counts, so the table can show them. */
function statRows(digest: CompareDigest, key: string): Int32Array | undefined {
  const { rollout } = digest;
  if (key.startsWith('status/')) return digest.rowsByStatus[key];
  if (key === 'rollout/resumed_samples' || key === 'rollout/idle_between_attempts_sec') {
    return Int32Array.from(rollout.resumed, (r) => r.rowId);
  }
  if (key === 'groups/zero_variance_groups') return rollout.zeroVarianceRowIds;
  if (key === 'rollout/straggler_tail_sec' && rollout.stragglers) {
    return Int32Array.from(rollout.stragglers.rowIds);
  }
  return undefined;
}

function withRows(
  figure: CompareFigure,
  aRowIds: Int32Array | undefined,
  bRowIds: Int32Array | undefined,
): CompareFigure {
  return {
    ...figure,
    ...(aRowIds && aRowIds.length > 0 ? { aRowIds } : {}),
    ...(bRowIds && bRowIds.length > 0 ? { bRowIds } : {}),
  };
}

/** Only files of one format compare: a dump's samples and a trace's rows mean different things. */
export function assertComparable(a: FileSummary, b: FileSummary): void {
  if (a.format !== b.format) {
    throw new Error(`cannot compare a ${a.formatLabels.noun} with a ${b.formatLabels.noun}`);
  }
}

/**
 * Ranks stats and perf together in the table's order (figure-order.ts); each list comes back
 * in that order.
 */
function rankFigures(
  stats: CompareFigure[],
  perf: CompareFigure[],
): { stats: CompareFigure[]; perf: CompareFigure[] } {
  const all = [...stats, ...perf].sort(byEffect);
  all.forEach((figure, i) => (figure.rank = i));
  return { stats: stats.sort(byEffect), perf: perf.sort(byEffect) };
}

/** A side without resumed rows has the same mean either way: both sides get the figure. */
function withNotResumedMean(
  a: Record<string, number>,
  b: Record<string, number>,
): [Record<string, number>, Record<string, number>] {
  const key = 'row_duration/mean_sec_not_resumed';
  if (!(key in a) && !(key in b)) return [a, b];
  const fill = (s: Record<string, number>) =>
    key in s || !('row_duration/mean_sec' in s) ? s : { ...s, [key]: s['row_duration/mean_sec'] };
  return [fill(a), fill(b)];
}

/** What a figure reflects when resumed samples' rows (spanning the idle hour) drive it. */
function withNote(figure: CompareFigure, ra: CompareRollout, rb: CompareRollout): CompareFigure {
  const resumed = (r: CompareRollout, side: string) =>
    r.resumed.length > 0 ? [`${side}'s ${r.resumed.length} resumed rows`] : [];
  const sides = [...resumed(ra, 'A'), ...resumed(rb, 'B')];
  if (sides.length === 0) return figure;
  if (figure.key === 'row_duration/mean_sec') {
    return {
      ...figure,
      note: `includes ${sides.join(' and ')}, each spanning the idle time between its attempts: see row_duration/mean_sec_not_resumed`,
    };
  }
  if (
    figure.key === 'rollout/idle_between_attempts_sec' ||
    figure.key === 'rollout/viewer_span_sec'
  ) {
    return { ...figure, note: `only the resumed rows' time: ${sides.join(' and ')}` };
  }
  return figure;
}

/** Every key of either side, in the table's order (figure-order.ts). */
function figures(a: Record<string, number>, b: Record<string, number>): CompareFigure[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  return keys
    .map((key) => {
      const va = a[key] ?? null;
      const vb = b[key] ?? null;
      const unit = metricUnit(key);
      const verdict = changeVerdict(key, va, vb);
      const figure: CompareFigure = {
        key,
        a: va,
        b: vb,
        unit,
        relative: relativeChange(va, vb),
        verdict,
        shown: shownFigure({ a: va, b: vb, unit }),
        rank: 0,
        small: false,
      };
      figure.small = isSmallChange(figure);
      return figure;
    })
    .sort(byEffect);
}

/** Adds a row's spans to the time per span name: where the time went, and where it moved. */
function addSpanTotals(totals: Map<string, { sec: number; count: number }>, row: PackedRow): void {
  const item = new PackedItemCursor().reset(row.packed);
  while (item.next()) {
    if (item.state !== 'closed_span' && item.state !== 'open_span') continue;
    const entry = totals.get(item.name) ?? { sec: 0, count: 0 };
    entry.sec += item.displayEnd - item.start;
    entry.count += 1;
    totals.set(item.name, entry);
  }
}

function compareSpanTotals(
  totalsA: CompareDigest['spanTotals'],
  totalsB: CompareDigest['spanTotals'],
) {
  const asMap = (totals: CompareDigest['spanTotals']) =>
    new Map(totals.map(([name, sec, count]) => [name, { sec, count }]));
  const a = asMap(totalsA);
  const b = asMap(totalsB);
  const names = [...new Set([...a.keys(), ...b.keys()])];
  return names
    .map((name) => ({
      name,
      aSec: a.get(name)?.sec ?? 0,
      bSec: b.get(name)?.sec ?? 0,
      aCount: a.get(name)?.count ?? 0,
      bCount: b.get(name)?.count ?? 0,
    }))
    .sort(
      (x, y) =>
        Math.abs(y.bSec - y.aSec) - Math.abs(x.bSec - x.aSec) || x.name.localeCompare(y.name),
    );
}

/** Headline figures of one side; response lengths from the samples, wall time from its own window. */
export function sideStats(side: {
  summary: SummaryCounts;
  digest: DigestParts;
}): Record<string, number> {
  const { summary, digest } = side;
  const rows = digest.rows;
  const rollout = digest.rollout;
  const stats: Record<string, number> = {
    'rollout/wall_time_sec': rollout.own.durationSec,
    'rollout/viewer_span_sec': rollout.whole.durationSec,
    'rollout/idle_between_attempts_sec': rollout.breakdownWhole.seconds['idle between attempts'],
    'rollout/resumed_samples': rollout.resumed.length,
    'rollout/samples': summary.samples,
    'rollout/rows': summary.rows,
    'rollout/untraced_samples': summary.untracedSamples,
    'groups/count': rollout.groupCount,
    'groups/zero_variance_groups': rollout.zeroVarianceGroupCount,
  };
  if (rollout.stragglers) stats['rollout/straggler_tail_sec'] = rollout.stragglers.tailSec;
  const rewards = known(rows.rewards, rows.hasReward);
  if (rewards.length > 0) {
    const mean = rewards.reduce((s, r) => s + r, 0) / rewards.length;
    stats['reward/mean'] = mean;
    stats['reward/std'] = Math.sqrt(
      rewards.reduce((s, r) => s + (r - mean) ** 2, 0) / rewards.length,
    );
  }
  const lengths = known(rows.responseLengths, rows.hasResponseLength);
  if (lengths.length > 0) {
    const n = lengths.length;
    stats['response_length/mean'] = lengths.reduce((s, v) => s + v, 0) / n;
    const sorted = lengths.sort();
    stats['response_length/median'] =
      n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    stats['response_length/max'] = sorted[n - 1];
  }
  if (rows.durations.length > 0) {
    stats['row_duration/mean_sec'] =
      rows.durations.reduce((s, d) => s + d, 0) / rows.durations.length;
  }
  if (rollout.resumed.length > 0) {
    // the mean without the resumed rows, whose rows span an idle hour between attempts
    const resumed = new Set(rollout.resumed.map((r) => r.rowId));
    const kept = Array.from(rows.durations).filter((_, i) => !resumed.has(rows.rowIds[i]));
    if (kept.length > 0) {
      stats['row_duration/mean_sec_not_resumed'] = kept.reduce((s, d) => s + d, 0) / kept.length;
    }
  }
  const counts = new Array<number>(rows.statusNames.length).fill(0);
  for (const code of rows.statusCodes) counts[code] += 1;
  rows.statusNames.forEach((name, code) => {
    const key = `status/${name ?? 'none'}`;
    stats[key] = (stats[key] ?? 0) + counts[code];
  });
  return stats;
}

/** The values whose flag is set, in row order (a copy: sorting it leaves the column alone). */
function known(values: Float64Array, has: Uint8Array): Float64Array {
  let n = 0;
  for (const flag of has) n += flag;
  const out = new Float64Array(n);
  let k = 0;
  for (let at = 0; at < values.length; at++) if (has[at] === 1) out[k++] = values[at];
  return out;
}

/** Samples match by group and prompt: the prompt's hash, made when the file was opened. */
function promptKey(row: PackedRow, facts: readonly (SampleFacts | null)[]): string | null {
  const hash = facts[row.row_id]?.promptHash;
  if (hash === undefined || hash === null) return null;
  return `${String(row.group_index)}\u0000${hash}`;
}
