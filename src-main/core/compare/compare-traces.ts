import type { CompareResult, FileSummary } from '../api/trace-api';
import type { PyValue } from '../model/py-value';
import type { Row } from '../model/row';
import { rewardValue } from '../model/reward-value';
import type { PerfView } from '../api/trace-api';

/** What comparing needs of one row: its fields, and the key that matches carried-over prompts. */
export interface RowDigest {
  row_id: number;
  sample_index: Row['sample_index'];
  status: string | null;
  reward: number | null;
  total_response_length: number;
  duration: number;
  /** group and prompt text; null when the sample has no prompt */
  promptKey: string | null;
}

/**
 * What comparing needs of one open file, computed where the file lives (its worker), so two
 * files compare without either's items crossing threads.
 */
export interface CompareDigest {
  perf: Record<string, number>;
  spanTotals: [name: string, sec: number, count: number][];
  rows: RowDigest[];
}

export function compareDigest(trace: {
  rows: Row[];
  samples: PyValue[];
  perf: PerfView;
}): CompareDigest {
  return {
    perf: trace.perf.perf,
    spanTotals: [...spanTotals(trace.rows)].map(([name, t]) => [name, t.sec, t.count]),
    rows: trace.rows.map((row) => ({
      row_id: row.row_id,
      sample_index: row.sample_index,
      status: row.status,
      reward: rewardValue(row.reward),
      // a dump's sample says its response_length; traces carry none (issue 22: it was 0 here)
      total_response_length:
        sampleResponseLength(trace.samples[row.row_id]) ?? row.total_response_length,
      duration: row.duration,
      promptKey: promptKey(row, trace.samples),
    })),
  };
}

export interface CompareSide {
  fileId: string;
  summary: FileSummary;
  digest: CompareDigest;
}

/**
 * Two rollouts side by side: every perf metric, time per span name, headline stats, and which
 * samples correspond (same sample index, else same group and prompt) or exist on one side only.
 */
export function compareTraces(a: CompareSide, b: CompareSide): CompareResult {
  assertComparable(a.summary, b.summary);
  const { matched, onlyA, onlyB } = matchRows(a, b);
  return {
    a: a.fileId,
    b: b.fileId,
    perf: comparePerf(a.digest.perf, b.digest.perf),
    spanTotals: compareSpanTotals(a.digest.spanTotals, b.digest.spanTotals),
    matched,
    onlyA,
    onlyB,
    stats: compareStats(a, b),
  };
}

/** Only files of one format compare: a dump's samples and a trace's rows mean different things. */
export function assertComparable(a: FileSummary, b: FileSummary): void {
  if (a.format !== b.format) {
    throw new Error(`cannot compare a ${a.formatLabels.noun} with a ${b.formatLabels.noun}`);
  }
}

function comparePerf(a: Record<string, number>, b: Record<string, number>) {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.map((key) => ({ key, a: a[key] ?? null, b: b[key] ?? null }));
}

/** Total closed-span time per span name: where the time went, and where it moved. */
export function spanTotals(rows: Row[]): Map<string, { sec: number; count: number }> {
  const totals = new Map<string, { sec: number; count: number }>();
  for (const row of rows) {
    for (const item of row.items) {
      if (item.type !== 'span') continue;
      const entry = totals.get(item.name) ?? { sec: 0, count: 0 };
      entry.sec += item.display_end_ts - item.start_ts;
      entry.count += 1;
      totals.set(item.name, entry);
    }
  }
  return totals;
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

function compareStats(a: CompareSide, b: CompareSide) {
  const statsA = sideStats(a);
  const statsB = sideStats(b);
  const keys = [...new Set([...Object.keys(statsA), ...Object.keys(statsB)])];
  return keys.map((key) => ({ key, a: statsA[key] ?? null, b: statsB[key] ?? null }));
}

function sideStats(side: CompareSide): Record<string, number> {
  const { summary, digest } = side;
  const rows = digest.rows;
  const stats: Record<string, number> = {
    'rollout/wall_time_sec':
      summary.globalStartSec === null || summary.globalEndSec === null
        ? 0
        : summary.globalEndSec - summary.globalStartSec,
    'rollout/samples': summary.samples,
    'rollout/rows': summary.rows,
    'rollout/untraced_samples': summary.untracedSamples,
  };
  const rewards = rows.map((row) => row.reward).filter((r): r is number => r !== null);
  if (rewards.length > 0)
    stats['reward/mean'] = rewards.reduce((s, r) => s + r, 0) / rewards.length;
  if (rows.length > 0) {
    stats['response_length/mean'] =
      rows.reduce((s, row) => s + row.total_response_length, 0) / rows.length;
    stats['row_duration/mean'] = rows.reduce((s, row) => s + row.duration, 0) / rows.length;
  }
  for (const row of rows) {
    const key = `status/${row.status ?? 'none'}`;
    stats[key] = (stats[key] ?? 0) + 1;
  }
  return stats;
}

function matchRows(a: CompareSide, b: CompareSide) {
  const matched: CompareResult['matched'] = [];
  const usedB = new Set<number>();
  const bByIndex = new Map<string, number>();
  for (const row of b.digest.rows) {
    const key = indexKey(row);
    if (key !== null && !bByIndex.has(key)) bByIndex.set(key, row.row_id);
  }
  const unmatchedA: RowDigest[] = [];
  for (const row of a.digest.rows) {
    const key = indexKey(row);
    const bRow = key === null ? undefined : bByIndex.get(key);
    if (bRow !== undefined && !usedB.has(bRow)) {
      usedB.add(bRow);
      matched.push({ aRowId: row.row_id, bRowId: bRow, key: `index ${String(row.sample_index)}` });
    } else {
      unmatchedA.push(row);
    }
  }
  // Partial-rollout carry-over keeps the prompt but not the index: match by group and prompt.
  const bByPrompt = new Map<string, number>();
  for (const row of b.digest.rows) {
    if (usedB.has(row.row_id)) continue;
    const key = row.promptKey;
    if (key !== null && !bByPrompt.has(key)) bByPrompt.set(key, row.row_id);
  }
  const onlyA: number[] = [];
  for (const row of unmatchedA) {
    const key = row.promptKey;
    const bRow = key === null ? undefined : bByPrompt.get(key);
    if (bRow !== undefined && !usedB.has(bRow)) {
      usedB.add(bRow);
      matched.push({ aRowId: row.row_id, bRowId: bRow, key: 'group and prompt' });
    } else {
      onlyA.push(row.row_id);
    }
  }
  const onlyB = b.digest.rows.filter((row) => !usedB.has(row.row_id)).map((row) => row.row_id);
  return { matched, onlyA, onlyB };
}

function sampleResponseLength(sample: PyValue | undefined): number | null {
  if (!sample || typeof sample !== 'object') return null;
  const length = (sample as Record<string, PyValue>).response_length;
  return typeof length === 'number' ? length : null;
}

function indexKey(row: RowDigest): string | null {
  const index = row.sample_index;
  return typeof index === 'number' || typeof index === 'string' ? String(index) : null;
}

function promptKey(row: Row, samples: PyValue[]): string | null {
  const sample = samples[row.row_id] as Record<string, PyValue> | undefined;
  if (!sample || typeof sample !== 'object') return null;
  const prompt = sample.prompt;
  if (prompt === undefined || prompt === null) return null;
  return `${String(row.group_index)}\u0000${stableText(prompt)}`;
}

function stableText(value: PyValue): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  } catch {
    return String(value);
  }
}
