import { basename } from 'node:path';
import type { TrendsResult } from '../trends/compute-trends';
import { trendUnit } from '../core/trends/trend-figures';
import { terminalText as t } from '../core/bytes/terminal-text';

/** The columns `trends` prints in a terminal (all figures are in --json). */
const COLUMNS: { key: string; title: string }[] = [
  { key: 'rollout/samples', title: 'samples' },
  { key: 'rollout/wall_time_sec', title: 'wall' },
  { key: 'perf/request/e2e_latency/median', title: 'e2e p50' },
  { key: 'perf/request/e2e_latency/p90', title: 'e2e p90' },
  { key: 'perf/request/e2e_latency/max', title: 'e2e max' },
  { key: 'perf/request/queue_time/mean', title: 'queue' },
  { key: 'perf/decode/throughput/mean', title: 'decode' },
  { key: 'reward/mean', title: 'reward' },
  { key: 'reward/std', title: '±std' },
  { key: 'response_length/mean', title: 'resp len' },
  { key: 'status/aborted', title: 'aborted' },
  { key: 'status/truncated', title: 'trunc' },
  { key: 'groups/zero_variance', title: '0-var grp' },
];

type Point = TrendsResult['points'][number];

/** A run's figures from its train dumps and request metrics: columns only when some rollout has them. */
const EXTRA_COLUMNS: { title: string; cell: (point: Point) => number | string | undefined }[] = [
  { title: '|Δlogp|', cell: (p) => p.mismatch?.meanAbsDelta },
  { title: 'ratio out %', cell: (p) => percent(p.mismatch?.outsideShare) },
  { title: 'cache hit %', cell: (p) => percent(p.requestMetrics?.cacheHitRate) },
  { title: 'retract', cell: (p) => p.requestMetrics?.retractions ?? undefined },
  { title: 'stale tok', cell: (p) => p.staleness?.mean },
  {
    title: 'tok/DP rank',
    cell: (p) =>
      p.tokensPerDpRank && p.tokensPerDpRank.length > 0
        ? p.tokensPerDpRank.map((r) => r.tokens).join('/')
        : undefined,
  },
];

export function formatTrendsText(result: TrendsResult): string {
  const extra = EXTRA_COLUMNS.filter((c) => result.points.some((p) => c.cell(p) !== undefined));
  const header = ['file', 'series', 'id', ...COLUMNS.map((c) => withUnit(c))];
  header.push(...extra.map((c) => c.title));
  const body = result.points.map((point) => [
    t(point.name),
    t(point.series),
    point.rolloutId === null ? '-' : t(String(point.rolloutId)),
    ...COLUMNS.map(({ key }) => formatFigure(point.figures[key])),
    ...extra.map(({ cell }) => {
      const value = cell(point);
      return typeof value === 'string' ? value : formatFigure(value);
    }),
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...body.map((row) => row[i].length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  const lines = [line(header), ...body.map(line)];
  for (const { path, code, message } of result.incomplete) {
    lines.push(`incomplete ${t(basename(path))}: ${t(message)} [${t(code)}]`);
  }
  for (const { path, reason } of result.skipped)
    lines.push(`skipped   ${t(basename(path))}: ${t(reason)}`);
  if (result.cached > 0) lines.push(`(${result.cached} of ${result.points.length} from the cache)`);
  return lines.join('\n');
}

function withUnit({ key, title }: { key: string; title: string }): string {
  const unit = trendUnit(key);
  return unit && unit !== 'tokens' ? `${title} ${unit}` : title;
}

function formatFigure(value: number | undefined): string {
  if (value === undefined) return '-';
  // NaN and infinities (a reward of inf) are shown as such, from a fresh read or the cache
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4);
}

function percent(share: number | null | undefined): number | undefined {
  return share === null || share === undefined ? undefined : 100 * share;
}
