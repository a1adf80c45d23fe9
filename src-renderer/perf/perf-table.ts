import type { PerfSummary } from '../../src-main/core/api/trace-api';

export const PERF_STATS = ['mean', 'median', 'max', 'min'] as const;
export type PerfStat = (typeof PERF_STATS)[number];

export interface PerfTableRow {
  /** e.g. "perf/request/e2e_latency" */
  metric: string;
  /** "request", "decode", "prefill": slime's groups, in that order */
  group: string;
  stats: Partial<Record<PerfStat, number>>;
  /** keys that are a single number (perf/request/count): shown across the stat columns */
  value?: number;
}

const GROUP_ORDER = ['request', 'decode', 'prefill'];

/**
 * slime's flat `perf/<group>/<metric>/<stat>` keys as one row per metric with its four stats;
 * keys without a stat suffix (our counts) keep their value on their own row.
 */
export function perfTableRows(perf: PerfSummary): PerfTableRow[] {
  const rows = new Map<string, PerfTableRow>();
  for (const key of Object.keys(perf)) {
    const value = perf[key];
    const cut = key.lastIndexOf('/');
    const stat = key.slice(cut + 1);
    const isStat = (PERF_STATS as readonly string[]).includes(stat);
    const metric = isStat ? key.slice(0, cut) : key;
    let row = rows.get(metric);
    if (!row) {
      row = { metric, group: metric.split('/')[1] ?? '', stats: {} };
      rows.set(metric, row);
    }
    if (isStat) row.stats[stat as PerfStat] = value;
    else row.value = value;
  }
  const rank = (group: string) => {
    const i = GROUP_ORDER.indexOf(group);
    return i < 0 ? GROUP_ORDER.length : i;
  };
  return [...rows.values()].sort(
    (a, b) =>
      rank(a.group) - rank(b.group) ||
      Number(a.value === undefined) - Number(b.value === undefined) ||
      a.metric.localeCompare(b.metric),
  );
}

/** Unit of a perf metric by slime's naming: durations and latencies in s, throughput tok/s. */
export function perfUnit(metric: string): string {
  if (/throughput/.test(metric)) return 'tok/s';
  if (/speed_gb_s/.test(metric)) return 'GB/s';
  if (/_mb$/.test(metric)) return 'MB';
  if (/(duration|latency|queue_time)$/.test(metric)) return 's';
  return '';
}

/** A perf value as a table shows it: 5 significant digits, integers whole. */
export function formatPerfValue(value: number | undefined): string {
  if (value === undefined) return '';
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs !== 0 && abs < 1e-3) return value.toExponential(3);
  return value.toPrecision(5);
}
