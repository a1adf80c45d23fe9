import { buildRunJoins } from '../run/build-run-joins';
import { runDigest } from '../run/run-digest';
import { applyRunJoins } from './apply-run-joins';
import { buildSqlTables, type SqlFileInput } from './build-sql-tables';
import type { SqlTableData } from './sql-table';

/**
 * The tables of several open files in one process (the CLI, tests): file k's tables as file k,
 * on one clock from the earliest file start, joined as a run joins them. The app makes the
 * same in pieces: each file's worker its tables, the SQL worker the joins (api/sql-scopes.ts).
 */
export function buildQueryTables(
  files: readonly { name: string; path: string | null; trace: SqlFileInput['trace'] }[],
): SqlTableData[][] {
  const starts = files
    .map((f) => f.trace.summary.globalStartSec)
    .filter((s): s is number => s !== null && Number.isFinite(s));
  const originSec = starts.length > 0 ? Math.min(...starts) : 0;
  const tables = files.map(({ name, path, trace }, file) =>
    buildSqlTables({ file, name, path, originSec, trace }),
  );
  applyRunJoins(tables, buildRunJoins(files.map(({ trace }) => runDigest(trace))));
  return tables;
}
