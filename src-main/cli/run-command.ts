import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { parseArgs as ParseArgs } from 'node:util';
import { COMMAND_HELP, MAIN_HELP } from './help-text';
import { ingest, toFileError } from '../ingest/open-sources';
import { groupRotatedSets } from '../ingest/group-files';
import type { OpenedTrace } from '../core/open/open-trace-file';
import { stepTimer, type StepTimer } from '../core/open/step-timer';
import { buildSummaryJson, formatSummaryText } from './summary-output';
import { buildRowsJson } from './rows-output';
import { buildPerfettoTrace, writePerfettoJson } from '../core/export/perfetto-export';
import { buildRowsCsv } from '../core/export/csv-export';

type Parse = typeof ParseArgs;
const COMMANDS = new Set(['serve', 'summary', 'rows', 'perf', 'export']);

/** Runs one command line; resolves to an exit code, or null for a server that keeps running. */
export async function runCommand(argv: string[], parseArgs: Parse): Promise<number | null> {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(`${MAIN_HELP}\n`);
    return first === undefined ? 2 : 0;
  }
  if (first === '--version') {
    process.stdout.write('trace-explorer 0.1.0\n');
    return 0;
  }
  const command = COMMANDS.has(first) ? first : 'serve';
  const rest = COMMANDS.has(first) ? argv.slice(1) : argv;
  const { values, positionals } = parseArgs({
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
      timings: { type: 'boolean' },
    },
  });
  if (values.help) {
    process.stdout.write(`${COMMAND_HELP[command]}\n`);
    return 0;
  }
  if (command === 'serve') {
    const port = values.port === undefined ? undefined : Number(values.port);
    if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) {
      throw new Error(`--port must be a port number, not ${values.port}`);
    }
    const { runServe } = await import('../serve/run-serve');
    const handle = await runServe({
      files: positionals.map((p) => resolve(p)),
      compare: values.compare ?? false,
      port,
      token: values.token,
    });
    process.stdout.write(
      `Trace Explorer is serving on ${handle.url}\nOpen that URL in a browser. Ctrl+C stops.\n`,
    );
    return null;
  }
  if (positionals.length !== 1) {
    throw new Error(`${command} takes one FILE (see trace-explorer ${command} --help)`);
  }
  const path = resolve(positionals[0]);
  if (command === 'rows') {
    process.stdout.write(`${JSON.stringify(buildRowsJson(path))}\n`);
    return 0;
  }
  const trace = openOrThrow(path, values.timings ?? false);
  if (command === 'perf') {
    process.stdout.write(`${JSON.stringify(trace.perf.perf, null, 2)}\n`);
    return 0;
  }
  if (command === 'summary') {
    const text = values.json
      ? JSON.stringify(buildSummaryJson(trace), null, 2)
      : formatSummaryText(trace);
    process.stdout.write(`${text}\n`);
    return 0;
  }
  return runExport(trace, values.format, values.output ?? '-');
}

function openOrThrow(path: string, timings: boolean): OpenedTrace {
  const [group] = groupRotatedSets([path]);
  const timer = timings ? stepTimer() : null;
  try {
    const trace = ingest(
      { sources: group.map((p) => ({ kind: 'path', path: p })) },
      { onStepEnd: timer?.end },
    );
    if (timer) process.stderr.write(`${timingsReport(timer, trace.summary.bytes)}\n`);
    return trace;
  } catch (error) {
    const detail = toFileError(error);
    throw new Error(`${path}: ${detail.message} [${detail.code}]`);
  }
}

/** `--timings`: how long each step of opening took, and the reading speed. */
function timingsReport(timer: StepTimer, bytes: number): string {
  const { readSec, openSec } = timer.timings();
  const speed = (seconds: number) => `${(bytes / 1e6 / seconds).toFixed(0)} MB/s`;
  const steps = timer.steps.map(({ step, seconds }) => `${step} ${seconds.toFixed(2)} s`);
  return `timings: ${steps.join(', ')}; reading ${speed(readSec)}, open ${openSec.toFixed(2)} s (${speed(openSec)})`;
}

function runExport(trace: OpenedTrace, format: string | undefined, output: string): number {
  let bytes: Uint8Array;
  if (format === 'perfetto') {
    const perfetto = buildPerfettoTrace([
      { name: trace.summary.name, rows: trace.rows, globalStart: trace.summary.globalStartSec },
    ]);
    bytes = writePerfettoJson(perfetto, output.endsWith('.gz'));
  } else if (format === 'csv') {
    bytes = Buffer.from(buildRowsCsv(trace.rows), 'utf8');
  } else {
    throw new Error('export needs --format perfetto or --format csv');
  }
  if (output === '-') process.stdout.write(bytes);
  else writeFileSync(output, bytes);
  return 0;
}
