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

export function formatTrendsText(result: TrendsResult): string {
  const header = ['file', 'series', 'id', ...COLUMNS.map((c) => withUnit(c))];
  const body = result.points.map((point) => [
    t(point.name),
    t(point.series),
    point.rolloutId === null ? '-' : t(String(point.rolloutId)),
    ...COLUMNS.map(({ key }) => formatFigure(point.figures[key])),
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
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4);
}
