import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import type { ParseArgsConfig, parseArgs as ParseArgs } from 'node:util';
import { COMMAND_HELP, MAIN_HELP } from './help-text';
import { ingest } from '../ingest/open-sources';
import { groupPaths, type PathGroups } from '../ingest/group-files';
import { holdsJoinRecords, holdsRolloutSamples, type FormatList } from '../core/formats/registry';
import { sniffPath } from '../ingest/sniff-path';
import type { FormatPartReader } from '../core/bytes/part-reader';
import { terminalProgress } from './terminal-progress';
import { spanNameFigures } from '../core/rows/span-name-figures';
import { writeJsonStreaming } from './write-json';
import type { OpenOptions, OpenedTrace } from '../core/open/open-trace-file';
import { stepTimer, type StepTimer } from '../core/open/step-timer';
import {
  buildSummaryJson,
  formatFolderSummary,
  formatSummaryText,
  type FailedFile,
} from './summary-output';
import { fileError, rowsJsonOf } from './rows-output';
import { toFileError } from '../ingest/open-sources';
import { exportTraceStream } from '../core/export/export-trace';
import { writeChunks } from './write-chunks';
import { exportByRows } from './export-by-rows';
import { isExportFormat, type FileSummary } from '../core/api/trace-api';
import { findRunFiles, type RunFiles } from '../ingest/run-files';
import { runDigest } from '../core/run/run-digest';
import { runFigureFiles } from '../trends/run-figure-files';
import {
  buildRunSummaryJson,
  exportRun,
  formatRunSummaryText,
  joinRun,
  type OpenedRun,
} from './run-output';
import { compareDigest, compareTraces, type CompareSide } from '../core/compare/compare-traces';
import { buildCompareJson, formatCompareText } from './compare-output';
import { compareGpuProfiles } from '../core/compare/compare-gpu-profiles';
import { formatGpuCompareText } from './gpu-profile-output';
import { buildRunCompareJson, compareRuns, formatRunCompareText, sideOf } from './run-compare';
import { terminalLines, terminalText } from '../core/bytes/terminal-text';
import { COMMANDS, isCommand, type Command } from './command-word';

type Parse = typeof ParseArgs;

/** A mistake in how a command was called: printed with a pointer to --help, exit code 2. */
export class UsageError extends Error {}

/** What the binary gives runCommand: the formats (a test adds one) and a helper thread. */
export interface CommandSetup {
  /** FORMATS when not given */
  formats?: FormatList;
  /** reads the end of a large file on a helper thread (cli.ts: worker-range-reader) */
  partReader?: FormatPartReader;
}

/** Runs one command line; resolves to an exit code, or null for a server that keeps running. */
export async function runCommand(
  argv: string[],
  parseArgs: Parse,
  setup: CommandSetup = {},
): Promise<number | null> {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${MAIN_HELP}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version') {
    process.stdout.write('trace-explorer 0.1.0\n');
    return 0;
  }
  // `trace-explorer FILE...` serves; a first word that is neither a command nor a path is a typo
  if (!isCommand(first) && !first.startsWith('-') && !existsSync(first)) {
    throw new UsageError(unknownCommandMessage(first));
  }
  const command: Command = isCommand(first) ? first : 'serve';
  const rest = isCommand(first) ? argv.slice(1) : argv;
  const { values, positionals } = parseOrThrow(parseArgs, {
    args: rest,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
      port: { type: 'string' },
      compare: { type: 'boolean' },
      serve: { type: 'boolean' },
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      token: { type: 'string' },
      root: { type: 'string', multiple: true },
      timings: { type: 'boolean' },
      'no-cache': { type: 'boolean' },
      execute: { type: 'string', short: 'e' },
      file: { type: 'string', short: 'f' },
      'with-content': { type: 'boolean' },
      png: { type: 'string' },
      window: { type: 'string' },
    },
  });
  if (values.help) {
    process.stdout.write(`${COMMAND_HELP[command]}\n`);
    return 0;
  }
  if (command === 'serve') {
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
      throw new UsageError(`--port must be a port number, not ${values.port}`);
    }
    if (values.compare && positionals.length !== 2) {
      throw new UsageError(`--compare takes two files, A and B (${positionals.length} given)`);
    }
    const { runServe } = await import('../serve/run-serve');
    const handle = await runServe({
      files: positionals.map((p) => resolve(p)),
      compare: values.compare ?? false,
      port,
      token: values.token,
      roots: (values.root ?? []).map((p) => resolve(p)),
    });
    process.stdout.write(
      `Trace Explorer is serving on ${handle.url}\nOpen that URL in a browser. Ctrl+C stops.\n`,
    );
    return null;
  }
  if (command === 'trends') {
    if (positionals.length === 0)
      throw new UsageError('trends takes a FOLDER of dumps, or dump files');
    const { runTrends } = await import('./run-trends');
    const paths = positionals.map((p) => resolve(p));
    const files = runFigureFiles(paths, setup.formats);
    return runTrends(
      paths,
      { json: values.json ?? false, cache: !values['no-cache'] },
      files && {
        files,
        digest: (group) => {
          const opened = openedOrFailed(group, setup, runDigest);
          return 'failed' in opened
            ? { error: { code: opened.failed.code, message: opened.failed.message } }
            : { digest: opened.summary };
        },
      },
    );
  }
  const openGroup = (group: string[]) => openOrThrow(group, false, setup);
  const usage = (message: string) => new UsageError(message);
  if (command === 'sql') {
    const { runSqlCommand } = await import('./run-sql');
    return runSqlCommand(
      positionals.map((p) => resolve(p)),
      values,
      openGroup,
      usage,
    );
  }
  if (command === 'report' && values.png !== undefined) {
    // a picture of the timeline instead of the HTML page: the app's drawing in a skia canvas
    if (positionals.length !== 1) {
      throw new UsageError(
        `report --png takes one FILE or run folder (${positionals.length} given)`,
      );
    }
    const window = values.window === undefined ? undefined : parseWindow(values.window);
    const path = resolve(positionals[0]);
    // a run folder: the run tab's timeline (its files joined on one clock), else one file's
    const files = runFolderOf(path);
    const { writeTimelinePng } = await import('./timeline-png');
    const { writeRunTimelinePng } = await import('./run-timeline-png');
    const made = files
      ? await writeRunTimelinePng({ path, files }, { out: values.png, window })
      : await writeTimelinePng({ path, out: values.png, window });
    for (const skipped of made.skipped ?? [])
      process.stderr.write(`left out: ${terminalText(skipped)}\n`);
    process.stdout.write(
      `Wrote ${terminalText(values.png)} (${made.width} x ${made.height} px, ${made.rows} rows)\n`,
    );
    return 0;
  }
  if (values.window !== undefined) throw new UsageError('--window goes with report --png');
  if (command === 'report') {
    const { runReport } = await import('./run-report');
    const paths = positionals.map((p) => resolve(p));
    const withContent = values['with-content'] ?? false;
    // every sample's details go into the report: kept as the open reads them, not read again
    const openKeeping = (group: string[]) =>
      openOrThrow(group, false, setup, { keepSamples: true });
    return runReport({ paths, output: values.output, withContent }, openKeeping, usage);
  }
  if (command === 'export' && values.format === 'parquet') {
    const { runParquetExport } = await import('./run-sql');
    const paths = positionals.map((p) => resolve(p));
    return runParquetExport(paths, values.output, openGroup, usage);
  }
  if ((command === 'summary' || command === 'export') && positionals.length > 0) {
    const paths = positionals.map((p) => resolve(p));
    // several files, or a folder holding a trainer timeline or traces of several kinds: a run
    if (paths.length > 1 || statSync(paths[0], { throwIfNoEntry: false })?.isDirectory()) {
      const found = findRunFiles(paths);
      if (found.isRun) return runOfFiles(command, paths, found, values, setup);
    }
  }
  if (command === 'compare') return runCompare(positionals, values.json ?? false, setup);
  if (positionals.length !== 1) {
    throw new UsageError(`${command} takes one FILE or folder (${positionals.length} given)`);
  }
  const path = resolve(positionals[0]);
  const { groups, skipped } = groupsOrThrow(path, command);
  if (command === 'summary' && (groups.length > 1 || skipped.length > 0)) {
    // each trace's summary as it opens, its trace let go; a broken file is listed, not fatal
    const opened = groups.map((group) =>
      openedOrFailed(group, setup, (trace) => ({
        json: buildSummaryJson(trace),
        text: formatSummaryText(trace),
      })),
    );
    const text = formatFolderSummary(path, opened, skipped, values.json ?? false);
    process.stdout.write(`${values.json ? text : terminalLines(text)}\n`);
    return opened.some((o) => 'failed' in o) ? 1 : 0;
  }
  const [group] = groups;
  if (command === 'rows') {
    const progress = terminalProgress(basename(group[0]), totalSize(group));
    const rows = rowsJsonOf(group, { ...setup, onProgress: progress.onProgress });
    progress.done();
    await writeJsonStreaming(process.stdout, rows as unknown as Record<string, unknown>);
    return 0;
  }
  // a format that builds rows one at a time exports without ever holding the whole file
  if (command === 'export' && values.format === 'perfetto') {
    if (exportByRows(group, values.output ?? '-', setup.formats)) return 0;
  }
  const trace = openOrThrow(group, values.timings ?? false, setup);
  if (command === 'perf') {
    // a trace without slime's request timings (OpenTelemetry, ...) gets figures per span name
    const perf =
      Object.keys(trace.perf.perf).length > 0
        ? trace.perf.perf
        : spanNameFigures(trace.perf.durations);
    process.stdout.write(`${JSON.stringify(perf, null, 2)}\n`);
    return 0;
  }
  if (command === 'summary') {
    const text = values.json
      ? JSON.stringify(buildSummaryJson(trace), null, 2)
      : terminalLines(formatSummaryText(trace));
    process.stdout.write(`${text}\n`);
    return 0;
  }
  return runExport(trace, values.format, values.output ?? '-');
}

/** summary / export of a run: every trace of it opened here, then joined. */
function runOfFiles(
  command: 'summary' | 'export',
  paths: string[],
  found: RunFiles,
  values: { json?: boolean; format?: string; output?: string },
  setup: CommandSetup,
): number {
  if (command === 'export' && values.format !== 'perfetto') {
    throw new UsageError('a run exports as one Perfetto trace: --format perfetto');
  }
  const run = openRun(found, setup);
  const { failed } = run;
  if (command === 'export') {
    exportRun(run, values.output ?? '-');
    return 0;
  }
  const text = values.json
    ? JSON.stringify(buildRunSummaryJson(paths, run), null, 2)
    : terminalLines(formatRunSummaryText(run));
  process.stdout.write(`${text}\n`);
  return failed.length > 0 ? 1 : 0;
}

/** Every trace of a run opened here, then joined; one that cannot be opened is listed with its coded error. */
function openRun(found: RunFiles, setup: CommandSetup): OpenedRun {
  const failed: FailedFile[] = [];
  const traces: OpenedRun['traces'] = [];
  for (const group of found.groups) {
    const opened = openedOrFailed(group, setup, (trace) => ({ path: group[0], trace }));
    if ('failed' in opened) failed.push(opened.failed);
    else traces.push(opened.summary);
  }
  return joinRun(traces, found.skipped, failed);
}

/** Whether a run's files hold train dumps or request metrics (records joined to its samples). */
function holdsRecords(found: RunFiles, setup: CommandSetup): boolean {
  return found.groups.some((group) => {
    const format = sniffPath(group[0]);
    return typeof format === 'string' && holdsJoinRecords(format, setup.formats);
  });
}

/**
 * A dump of `compare A B` as a side with its run's figures, when it sits in a run folder with
 * train dumps or request metrics: the folder opened and joined as `compare RUN_A RUN_B` does
 * (once for both dumps of one folder), so the answer is that of the runs' pair. Null for a
 * dump on its own.
 */
function sideInRun(
  path: string,
  setup: CommandSetup,
  runs: Map<string, OpenedRun | null>,
): { trace: OpenedTrace; side: CompareSide } | null {
  const format = sniffPath(path);
  if (typeof format !== 'string' || !holdsRolloutSamples(format, setup.formats)) return null;
  const folder = dirname(path);
  if (!runs.has(folder)) {
    const found = runFolderOf(folder);
    runs.set(folder, found && holdsRecords(found, setup) ? openRun(found, setup) : null);
  }
  const run = runs.get(folder) ?? null;
  const file = run ? run.traces.findIndex((t) => t.path === path) : -1;
  if (run === null || file < 0) return null;
  return { trace: run.traces[file].trace, side: sideOf(run, file) };
}

/** The run a compare argument names: a folder that is a run (findRunFiles); null otherwise. */
function runFolderOf(path: string): RunFiles | null {
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) return null;
  const found = findRunFiles([path]);
  return found.isRun ? found : null;
}

/**
 * `compare RUN_A RUN_B`: two run folders, each opened and joined as `summary RUN` does, their
 * rollouts compared pair by pair with the runs' train dumps and request metrics (run-compare.ts).
 */
function runCompareRuns(
  roots: { a: string; b: string },
  found: { a: RunFiles; b: RunFiles },
  json: boolean,
  setup: CommandSetup,
): number {
  const runs = { a: openRun(found.a, setup), b: openRun(found.b, setup) };
  const comparison = compareRuns(runs.a, runs.b);
  if (comparison.pairs.length === 0)
    throw new UsageError(
      `no rollout dump to compare: ${runs.a.joins.rollouts.length} in ${roots.a}, ${runs.b.joins.rollouts.length} in ${roots.b}`,
    );
  const text = json
    ? JSON.stringify(buildRunCompareJson(roots, runs, comparison), null, 2)
    : terminalLines(formatRunCompareText(roots, runs, comparison));
  process.stdout.write(`${text}\n`);
  return runs.a.failed.length + runs.b.failed.length > 0 ? 1 : 0;
}

/**
 * One trace of a folder or run opened: `keep` takes what is printed of it (the rest of the
 * trace can then go), or the file's coded error in its place.
 */
function openedOrFailed<T>(
  group: string[],
  setup: CommandSetup,
  keep: (trace: OpenedTrace) => T,
): { summary: T } | { failed: FailedFile } {
  let trace: OpenedTrace;
  try {
    trace = openGroup(group, false, setup);
  } catch (error) {
    const detail = toFileError(error);
    return { failed: { path: group[0], code: detail.code, message: detail.message } };
  }
  return { summary: keep(trace) };
}

/** parseArgs, with its complaints (an unknown option, a missing value) as usage errors. */
function parseOrThrow<T extends ParseArgsConfig>(
  parse: Parse,
  config: T,
): ReturnType<typeof ParseArgs<T>> {
  try {
    return parse<T>(config);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function unknownCommandMessage(word: string): string {
  const near = COMMANDS.find((command) => editDistance(command, word) <= 2);
  return (
    `unknown command '${word}' (and no such file). Commands: ${COMMANDS.join(', ')}` +
    `${near ? `. Did you mean '${near}'?` : ''}`
  );
}

/** Levenshtein distance, for "did you mean" on a mistyped command. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length];
}

/** The traces a named path opens as: itself, or what a folder holds (found by content). */
function groupsOrThrow(path: string, command: Command): Pick<PathGroups, 'groups' | 'skipped'> {
  const { groups, skipped, emptyFolders } = groupPaths([path]);
  const what =
    skipped.length > 0
      ? `; it holds ${skipped.map((s) => `${basename(s.path)} (${s.reason})`).join(', ')}`
      : '';
  if (emptyFolders.length > 0) {
    throw new Error(`${path}: the folder holds no trace file${what} [io/empty-folder]`);
  }
  if (groups.length > 1 && command !== 'summary') {
    const names = groups.map((group) => group.map((p) => basename(p)).join(' + '));
    throw new UsageError(
      `${path} holds ${groups.length} traces (${names.join(', ')}): name one of them for ${command}`,
    );
  }
  return { groups, skipped };
}

function openOrThrow(
  group: string[],
  timings: boolean,
  setup: CommandSetup,
  how: Pick<OpenOptions, 'keepSamples'> = {},
): OpenedTrace {
  try {
    return openGroup(group, timings, setup, how);
  } catch (error) {
    throw fileError(group[0], error);
  }
}

/** One trace opened here, with progress on a terminal; throws what the open threw. */
function openGroup(
  group: string[],
  timings: boolean,
  setup: CommandSetup,
  how: Pick<OpenOptions, 'keepSamples'> = {},
): OpenedTrace {
  const timer = timings ? stepTimer() : null;
  const progress = terminalProgress(basename(group[0]), totalSize(group));
  try {
    const trace = ingest(
      { sources: group.map((p) => ({ kind: 'path', path: p })) },
      { ...setup, ...how, onStepEnd: timer?.end, onProgress: progress.onProgress },
    );
    progress.done();
    if (timer)
      process.stderr.write(`${timingsReport(timer, trace.summary.bytes, trace.helperShare)}\n`);
    return trace;
  } catch (error) {
    progress.done();
    throw error;
  }
}

function totalSize(paths: string[]): number {
  let total = 0;
  for (const path of paths) {
    try {
      total += statSync(path).size;
    } catch {
      // the open says what is wrong with it
    }
  }
  return total;
}

/**
 * `--timings`: how long each step of opening took, the reading speed, and how much of the file
 * a second thread read (`helperShare`, when it was read in parts).
 */
function timingsReport(timer: StepTimer, bytes: number, helperShare?: number): string {
  const { readSec, openSec } = timer.timings();
  const speed = (seconds: number) => `${(bytes / 1e6 / seconds).toFixed(0)} MB/s`;
  const steps = timer.steps.map(({ step, seconds }) => `${step} ${seconds.toFixed(2)} s`);
  const threads =
    helperShare === undefined
      ? 'one thread'
      : `two threads (the second read ${(helperShare * 100).toFixed(0)}% of it)`;
  return `timings: ${steps.join(', ')}; reading ${speed(readSec)} by ${threads}, open ${openSec.toFixed(2)} s (${speed(openSec)})`;
}

async function runExport(
  trace: OpenedTrace,
  format: string | undefined,
  output: string,
): Promise<number> {
  if (!isExportFormat(format)) throw new Error('export needs --format perfetto or --format csv');
  // gzipped when the output's name ends in .gz; '-' (stdout) never is; streamed as it is made
  const { chunks, gzip } = exportTraceStream(trace, format, output);
  await writeChunks(chunks, output, gzip);
  return 0;
}

/** `compare A B [--json]`: why B took longer or shorter than A, the figures, the time breakdown. */
function runCompare(positionals: string[], json: boolean, setup: CommandSetup): number {
  if (positionals.length !== 2) {
    throw new UsageError(`compare takes two files, A and B (${positionals.length} given)`);
  }
  // two run folders: their rollouts pair by pair, with the runs' figures as the app has them
  const [ra, rb] = positionals.map((p) => runFolderOf(resolve(p)));
  if (ra && rb) {
    const roots = { a: resolve(positionals[0]), b: resolve(positionals[1]) };
    return runCompareRuns(roots, { a: ra, b: rb }, json, setup);
  }
  if (ra || rb)
    throw new UsageError(
      `compare takes two run folders or two files: ${positionals[ra ? 0 : 1]} is a run, ${positionals[ra ? 1 : 0]} is not`,
    );
  // a dump in a run folder with train dumps or request metrics: compared with the run's figures
  const runs = new Map<string, OpenedRun | null>();
  const opened = positionals.map((p) => {
    const path = resolve(p);
    const inRun = statSync(path, { throwIfNoEntry: false })?.isFile()
      ? sideInRun(path, setup, runs)
      : null;
    if (inRun) return { path, ...inRun };
    const { groups } = groupsOrThrow(path, 'compare');
    return { path, trace: openOrThrow(groups[0], false, setup), side: null };
  });
  // GPU profiles compare kernel by kernel (HTA's trace diff), not sample by sample
  const gpu = opened.map((o) => o.trace.summary.gpuProfile);
  if (gpu[0] && gpu[1]) {
    const names = { a: opened[0].trace.summary.name, b: opened[1].trace.summary.name };
    const comparison = compareGpuProfiles(gpu[0], gpu[1]);
    const out = json
      ? JSON.stringify({ files: names, ...comparison }, null, 2)
      : terminalLines(formatGpuCompareText(names, comparison));
    process.stdout.write(`${out}\n`);
    return 0;
  }
  if (gpu[0] || gpu[1]) {
    const [x, y] = opened.map((o) => o.trace.summary.formatLabels.noun);
    throw new UsageError(`cannot compare a ${x} with a ${y}`);
  }
  const [a, b] = opened.map(({ path, trace, side }): CompareSide => {
    if (side) return side;
    const summary: FileSummary = { ...trace.summary, fileId: path, path };
    return { fileId: path, summary, digest: compareDigest(trace) };
  });
  const result = compareTraces(a, b);
  const names = { a: a.summary.name, b: b.summary.name };
  const text = json
    ? JSON.stringify(buildCompareJson(names, result, a.digest.rows), null, 2)
    : terminalLines(formatCompareText(names, result));
  process.stdout.write(`${text}\n`);
  return 0;
}

/** `--window START-END`: seconds from the file's start, as the app's time axis reads them. */
function parseWindow(text: string): { startSec: number; endSec: number } {
  const match = /^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  const startSec = match ? Number(match[1]) : NaN;
  const endSec = match ? Number(match[2]) : NaN;
  if (!(endSec > startSec)) {
    throw new UsageError(`--window must be START-END in seconds, START < END (not ${text})`);
  }
  return { startSec, endSec };
}
