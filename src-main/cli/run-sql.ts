import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { OpenedTrace } from '../core/open/open-trace-file';
import { buildQueryTables } from '../core/sql/build-query-tables';
import { findRunFiles } from '../ingest/run-files';
import { SqlEngine } from '../sql/sql-engine';
import { writeParquetTables } from '../sql/parquet-export';
import { formatSqlResult, isSqlOutputFormat } from './sql-output';

/** rows the `sql` command prints at most (a bound on memory; say LIMIT for fewer) */
const CLI_MAX_ROWS = 10_000_000;

/** How the sql and parquet-export commands open a trace (run-command.ts's openOrThrow). */
export type OpenGroup = (group: string[]) => OpenedTrace;

/** A usage mistake of these commands, said as run-command's UsageError says it. */
export type Usage = (message: string) => Error;

/** Every trace the named files and folders hold (found by content), opened in path order. */
function openAll(paths: string[], open: OpenGroup, usage: Usage) {
  const { groups, skipped } = findRunFiles(paths);
  if (groups.length === 0) {
    const why = skipped.map((s) => `${basename(s.path)} (${s.reason})`).join(', ');
    throw usage(`no trace among ${paths.join(', ')}${why ? `: ${why}` : ''}`);
  }
  return groups.map((group) => ({ name: basename(group[0]), path: group[0], trace: open(group) }));
}

/** `sql FILE|FOLDER... -e SQL | -f FILE [--format table|csv|json]` */
export async function runSqlCommand(
  paths: string[],
  options: { execute?: string; file?: string; format?: string },
  open: OpenGroup,
  usage: Usage,
): Promise<number> {
  if (paths.length === 0) throw usage('sql takes FILE or FOLDER... and -e "SELECT ..."');
  if ((options.execute === undefined) === (options.file === undefined)) {
    throw usage('sql takes the query as -e "SELECT ..." or -f query.sql (one of them)');
  }
  const format = options.format ?? 'table';
  if (!isSqlOutputFormat(format)) throw usage(`--format must be table, csv or json, not ${format}`);
  const sql = options.execute ?? readFileSync(options.file!, 'utf8');
  const traces = openAll(paths, open, usage);
  const engine = await SqlEngine.create(buildQueryTables(traces));
  try {
    const { columns, rows, truncated } = await engine.query(sql, CLI_MAX_ROWS);
    process.stdout.write(formatSqlResult(columns, rows, format));
    if (truncated) process.stderr.write(`only the first ${CLI_MAX_ROWS} rows are printed\n`);
    return 0;
  } finally {
    engine.close();
  }
}

/** `export FILE|FOLDER... --format parquet -o DIR`: one Parquet file per table. */
export async function runParquetExport(
  paths: string[],
  output: string | undefined,
  open: OpenGroup,
  usage: Usage,
): Promise<number> {
  if (output === undefined || output === '-') {
    throw usage('--format parquet writes one file per table: name the folder with -o DIR');
  }
  const written = await writeParquetTables(buildQueryTables(openAll(paths, open, usage)), output);
  process.stderr.write(`wrote ${written.length} tables to ${output}\n`);
  return 0;
}
