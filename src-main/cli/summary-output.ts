import { basename } from 'node:path';
import { countOf } from '../core/model/count-of';
import { rowNouns, stragglerSentence } from '../core/model/straggler-sentence';
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

/** A file of a folder or run that could not be opened: its coded error, in place of its trace. */
export interface FailedFile {
  path: string;
  code: string;
  message: string;
}

/** One trace of a folder as `summary` prints it, or the coded error of a file that did not open. */
export type FolderFileSummary =
  { summary: { json: ReturnType<typeof buildSummaryJson>; text: string } } | { failed: FailedFile };

/**
 * `summary FOLDER`: each trace the folder holds, the files that failed with their coded error,
 * and the files it skipped with the reason.
 */
export function formatFolderSummary(
  folder: string,
  files: FolderFileSummary[],
  skipped: { path: string; reason: string }[],
  json: boolean,
): string {
  const skippedFiles = skipped.map(({ path, reason }) => ({ path, reason }));
  const failed = files.flatMap((f) => ('failed' in f ? [f.failed] : []));
  const opened = files.flatMap((f) => ('summary' in f ? [f.summary] : []));
  if (json) {
    return JSON.stringify(
      { folder, files: opened.map((f) => f.json), failed, skipped: skippedFiles },
      null,
      2,
    );
  }
  const parts = opened.map((f) => f.text);
  if (failed.length > 0) {
    parts.push(
      failed
        .map(
          ({ path, code, message }) => `failed    ${t(basename(path))}: ${t(message)} [${t(code)}]`,
        )
        .join('\n'),
    );
  }
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
  // what kept the file open, in its own words (a trace's rows, a rollout's samples), as the
  // perf view says it; a file of one row has no tail to speak of, records joined to a run's
  // samples (a train dump's, request metrics) no rollout of their own
  const { capabilities } = trace.summary;
  if (rollout.stragglers && json.rows > 1 && !capabilities.joinRecords) {
    const nouns = rowNouns(capabilities);
    lines.push(`tail      ${t(stragglerSentence(rollout.stragglers, nouns))}`);
  }
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
