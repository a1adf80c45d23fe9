import type { SqlAnswer, SqlCell } from '../core/api/trace-api';
import type { SqlTableData } from '../core/sql/sql-table';
import type { RunJoins } from '../core/model/run';

/** Main to the SQL worker. */
export type SqlWorkerRequest =
  | { type: 'load'; id: number; files: SqlTableData[][]; joins: RunJoins | null }
  | { type: 'query'; id: number; queryId: string; sql: string }
  | { type: 'rows'; id: number; queryId: string; offset: number; count: number }
  | { type: 'interrupt' };

/** The SQL worker's answer to request `id`. */
export type SqlWorkerAnswer =
  { id: number; result: SqlAnswer | SqlCell[][] | null } | { id: number; error: string };

/** One scope's SQL engine as main sees it: in a worker (sql-client.ts) or in process. */
export interface SqlHost {
  /** every file's tables (`files[k]`: file k's), with the joins over the same files */
  load(files: SqlTableData[][], joins: RunJoins | null): Promise<void>;
  query(queryId: string, sql: string): Promise<SqlAnswer>;
  rows(queryId: string, offset: number, count: number): Promise<SqlCell[][]>;
  interrupt(): void;
  close(): void;
}
