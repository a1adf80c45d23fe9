import { basename } from 'node:path';
import { countOf } from '../core/model/count-of';
import type { OpenedTrace } from '../core/open/open-trace-file';
import { gpuProfileJson, gpuProfileLines } from './gpu-profile-output';
import type { RolloutFigures } from '../core/model/rollout-figures';
import { terminalText as t } from '../core/bytes/terminal-text';

/**
 * The machine form of `summary --json`. Blocks a format cannot answer are left out, asked of
 * its capabilities: the `rollout` block (the rollout's own window, resumed samples, stragglers)
 * only for a file whose rows are a rollout's samples, never for a Chrome or OpenTelemetry trace.
 */
export function buildSummaryJson(trace: OpenedTrace) {
  const s = trace.summary;
  const holdsRollout = s.capabilities.samples;
  return {
    name: s.name,
    format: s.format,
    bytes: s.bytes,
    samples: s.samples,
    untracedSamples: s.untracedSamples,
    rows: s.rows,
    spans: s.spans,
    events: s.events,
    links: s.links,
    skippedLines: s.skippedLines.count,
    skippedLineExamples: s.skippedLines.examples,
    rolloutId: s.rolloutId,
    globalStartSec: s.globalStartSec,
    durationSec:
      s.globalStartSec === null || s.globalEndSec === null
        ? null
        : s.globalEndSec - s.globalStartSec,
    statuses: s.statuses,
    sources: s.sources,
    notices: s.notices,
    perf: trace.perf.perf,
    ...(holdsRollout ? { rollout: rolloutJson(trace.perf.rollout) } : {}),
    ...(s.gpuProfile ? { gpuProfile: gpuProfileJson(s.gpuProfile) } : {}),
  };
}

/** (ours) the window the figures use, resumed samples, what kept the rollout open, stragglers, groups */
function rolloutJson(r: RolloutFigures) {
  return {
    window: r.own,
    wholeSpan: r.whole,
    resumedSamples: r.resumed,
    wallTime: { own: r.breakdownOwn, whole: r.breakdownWhole },
    stragglers: r.stragglers,
    groups: r.groups,
  };
}

/** `summary FOLDER`: each trace the folder holds, and the files it skipped with the reason. */
export function formatFolderSummary(
  folder: string,
  traces: OpenedTrace[],
  skipped: { path: string; reason: string }[],
  json: boolean,
): string {
  const skippedFiles = skipped.map(({ path, reason }) => ({ path, reason }));
  if (json) {
    return JSON.stringify(
      { folder, files: traces.map(buildSummaryJson), skipped: skippedFiles },
      null,
      2,
    );
  }
  const parts = traces.map(formatSummaryText);
  if (skippedFiles.length > 0) {
    parts.push(
      skippedFiles
        .map(({ path, reason }) => `skipped   ${t(basename(path))}: ${t(reason)}`)
        .join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** The human form of `summary`: what a user reads in a terminal. */
export function formatSummaryText(trace: OpenedTrace): string {
  const json = buildSummaryJson(trace);
  const lines = [
    `file      ${t(json.name)} (${formatBytes(json.bytes)})`,
    `format    ${trace.summary.formatLabels.name}`,
  ];
  const counted = trace.summary.formatLabels.samples.padEnd(9);
  if (trace.summary.capabilities.facets.untraced) {
    lines.push(
      `${counted} ${json.samples} (${json.samples - json.untracedSamples} traced, ${json.untracedSamples} without trace)`,
    );
  } else {
    lines.push(`${counted} ${json.samples}`);
  }
  lines.push(
    `rows      ${json.rows}`,
    `spans     ${json.spans}   events ${json.events}   links ${json.links}`,
    `duration  ${json.durationSec === null ? '-' : `${json.durationSec.toFixed(3)} s`}`,
  );
  const rollout = trace.perf.rollout;
  if (json.rollout && rollout.resumed.length > 0) {
    // (ours) the figures' window, and the resumed samples slime's viewer span hides an hour in
    const from = t([...new Set(rollout.resumed.map((r) => r.startRolloutId))].join(', '));
    const idle = rollout.breakdownWhole.seconds['idle between attempts'];
    lines.push(
      `window    ${t(rollout.own.label)}`,
      `resumed   ${rollout.resumed.length} samples from rollout ${from}: ${idle.toFixed(1)} s idle between attempts`,
    );
  }
  if (json.rollout && rollout.stragglers && trace.summary.capabilities.facets.groups)
    lines.push(`tail      ${t(rollout.stragglers.sentence)}`);
  if (json.skippedLines > 0) {
    const examples = json.skippedLineExamples
      .map((e) => `line ${e.line} ${t(e.reason)}`)
      .join(', ');
    lines.push(`skipped   ${countOf(json.skippedLines, 'line')}: ${examples}`);
  }
  // the skipped lines are said above, all of them: not again in the notice that shows three
  const skipNotice = `${countOf(json.skippedLines, 'line')} skipped`;
  for (const notice of json.notices) {
    if (json.skippedLines === 0 || !notice.startsWith(skipNotice))
      lines.push(`note      ${t(notice)}`);
  }
  if (trace.summary.gpuProfile) lines.push(...gpuProfileLines(trace.summary.gpuProfile));
  const perf = Object.entries(json.perf);
  if (perf.length > 0) {
    lines.push('', formatPerfTable(json.perf));
  }
  return lines.join('\n');
}

function formatPerfTable(perf: Record<string, number>): string {
  const metrics = new Map<string, Record<string, number>>();
  for (const [key, value] of Object.entries(perf)) {
    const cut = key.lastIndexOf('/');
    const metric = t(key.slice(0, cut));
    const stat = key.slice(cut + 1);
    if (!metrics.has(metric)) metrics.set(metric, {});
    metrics.get(metric)![stat] = value;
  }
  const stats = ['mean', 'median', 'max', 'min'];
  const width = Math.max(6, ...[...metrics.keys()].map((m) => m.length));
  const header = `${'metric'.padEnd(width)}  ${stats.map((s) => s.padStart(12)).join('')}`;
  const body = [...metrics.entries()].sort().map(([metric, values]) => {
    const cells = stats.map((s) =>
      (values[s] === undefined ? '' : formatNumber(values[s])).padStart(12),
    );
    const extra = Object.entries(values)
      .filter(([s]) => !stats.includes(s))
      .map(([s, v]) => `${t(s)}=${formatNumber(v)}`)
      .join(' ');
    return `${metric.padEnd(width)}  ${cells.join('')}${extra ? `  ${extra}` : ''}`;
  });
  return [header, ...body].join('\n');
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(1) : value.toPrecision(4);
}

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GiB`;
}
